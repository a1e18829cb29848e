/**
 * The manifest's examples. The SVGs are qrcode's output, kept verbatim; qr.test.ts replays every
 * example and scans each SVG with a real decoder, so a wrong code cannot hide here.
 */
interface Example<Response> {
  title: string;
  body: Record<string, unknown>;
  response: Response;
}

export const EXAMPLES: { create: Example<{ payload: string; svg: string }>[]; text: Example<{ svg: string }>[] } = {
  "create": [
    {
      "title": "A Wi-Fi network (WPA)",
      "body": {
        "content": {
          "type": "wifi",
          "ssid": "Cafe; Guest",
          "password": "p@ss:word"
        },
        "errorCorrection": "L"
      },
      "response": {
        "payload": "WIFI:T:WPA;S:Cafe\\; Guest;P:p@ss\\:word;;",
        "svg": "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 33 33\" shape-rendering=\"crispEdges\"><path fill=\"#ffffff\" d=\"M0 0h33v33H0z\"/><path stroke=\"#000000\" d=\"M2 2.5h7m2 0h1m5 0h2m2 0h1m2 0h7M2 3.5h1m5 0h1m1 0h2m1 0h3m1 0h1m1 0h1m2 0h1m1 0h1m5 0h1M2 4.5h1m1 0h3m1 0h1m2 0h3m1 0h2m1 0h1m2 0h2m1 0h1m1 0h3m1 0h1M2 5.5h1m1 0h3m1 0h1m1 0h2m1 0h1m1 0h1m1 0h1m4 0h1m1 0h1m1 0h3m1 0h1M2 6.5h1m1 0h3m1 0h1m3 0h1m1 0h1m1 0h1m3 0h1m1 0h1m1 0h1m1 0h3m1 0h1M2 7.5h1m5 0h1m1 0h1m1 0h1m2 0h1m1 0h4m3 0h1m5 0h1M2 8.5h7m1 0h1m1 0h1m1 0h1m1 0h1m1 0h1m1 0h1m1 0h1m1 0h7M14 9.5h3m1 0h2m1 0h2M2 10.5h5m1 0h5m1 0h2m1 0h4m1 0h2m1 0h1m1 0h1m1 0h1M2 11.5h3m1 0h1m3 0h2m4 0h1m1 0h1m3 0h1m1 0h1m1 0h2m2 0h1M2 12.5h2m1 0h2m1 0h1m1 0h2m1 0h2m7 0h1m3 0h1m1 0h1m1 0h1M2 13.5h4m4 0h4m4 0h1m2 0h7m2 0h1M3 14.5h1m2 0h1m1 0h4m1 0h1m3 0h2m1 0h1m1 0h2m3 0h4M2 15.5h2m7 0h2m1 0h2m2 0h1m1 0h3m4 0h4M4 16.5h5m1 0h1m4 0h6m4 0h1m2 0h1M2 17.5h1m2 0h1m1 0h1m1 0h2m1 0h1m1 0h2m2 0h2m2 0h3m1 0h3M2 18.5h2m2 0h1m1 0h2m4 0h1m1 0h2m1 0h2m4 0h1m2 0h1M2 19.5h1m1 0h2m3 0h3m8 0h1m2 0h2m1 0h2m1 0h2M2 20.5h1m1 0h1m3 0h1m1 0h1m2 0h2m3 0h2m5 0h2m2 0h1M2 21.5h1m2 0h2m6 0h1m2 0h1m4 0h1m1 0h5m2 0h1M2 22.5h1m1 0h2m1 0h2m1 0h1m1 0h2m3 0h1m2 0h1m1 0h5m1 0h3M10 23.5h1m1 0h1m1 0h5m1 0h3m3 0h3M2 24.5h7m1 0h2m3 0h2m1 0h1m2 0h2m1 0h1m1 0h3M2 25.5h1m5 0h1m3 0h1m1 0h2m1 0h2m1 0h1m1 0h1m3 0h2M2 26.5h1m1 0h3m1 0h1m1 0h3m1 0h1m1 0h3m1 0h7M2 27.5h1m1 0h3m1 0h1m1 0h2m8 0h3m2 0h1m3 0h1M2 28.5h1m1 0h3m1 0h1m1 0h1m2 0h2m2 0h3m7 0h1m1 0h1M2 29.5h1m5 0h1m1 0h1m1 0h2m2 0h1m1 0h1m6 0h1m1 0h4M2 30.5h7m1 0h1m1 0h2m3 0h6m3 0h1m1 0h2\"/></svg>\n"
      }
    },
    {
      "title": "An email with a subject",
      "body": {
        "content": {
          "type": "email",
          "to": "info@example.com",
          "subject": "Hello there"
        }
      },
      "response": {
        "payload": "mailto:info@example.com?subject=Hello%20there",
        "svg": "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 37 37\" shape-rendering=\"crispEdges\"><path fill=\"#ffffff\" d=\"M0 0h37v37H0z\"/><path stroke=\"#000000\" d=\"M2 2.5h7m2 0h1m3 0h2m2 0h2m2 0h1m4 0h7M2 3.5h1m5 0h1m1 0h1m7 0h1m1 0h1m1 0h1m1 0h1m3 0h1m5 0h1M2 4.5h1m1 0h3m1 0h1m1 0h2m1 0h1m2 0h3m2 0h1m1 0h2m3 0h1m1 0h3m1 0h1M2 5.5h1m1 0h3m1 0h1m1 0h4m2 0h1m1 0h1m1 0h1m1 0h1m1 0h1m1 0h1m1 0h1m1 0h3m1 0h1M2 6.5h1m1 0h3m1 0h1m2 0h4m1 0h4m2 0h1m2 0h1m2 0h1m1 0h3m1 0h1M2 7.5h1m5 0h1m3 0h1m1 0h2m1 0h1m1 0h1m1 0h1m4 0h1m1 0h1m5 0h1M2 8.5h7m1 0h1m1 0h1m1 0h1m1 0h1m1 0h1m1 0h1m1 0h1m1 0h1m1 0h1m1 0h7M10 9.5h1m2 0h1m2 0h3m2 0h2m2 0h2M2 10.5h1m5 0h1m1 0h3m2 0h2m2 0h1m1 0h1m2 0h1m1 0h3m2 0h3M3 11.5h1m1 0h1m3 0h1m1 0h1m1 0h1m1 0h1m1 0h1m1 0h3m1 0h3m3 0h2m1 0h1M2 12.5h7m1 0h1m1 0h2m1 0h3m1 0h1m4 0h1m1 0h1m2 0h5M2 13.5h3m1 0h1m3 0h2m3 0h1m1 0h1m1 0h5m2 0h1m1 0h1m1 0h3M3 14.5h1m1 0h4m3 0h2m1 0h1m3 0h1m3 0h1m1 0h1m1 0h2m2 0h1m1 0h1M5 15.5h1m4 0h1m3 0h2m3 0h2m4 0h1m1 0h2m2 0h2m1 0h1M3 16.5h2m1 0h1m1 0h1m3 0h1m2 0h4m3 0h2m4 0h1m2 0h3M2 17.5h4m3 0h4m2 0h1m2 0h1m3 0h1m4 0h8M2 18.5h1m1 0h3m1 0h1m1 0h3m2 0h1m1 0h1m1 0h2m3 0h1m1 0h2m2 0h1m2 0h2M2 19.5h1m2 0h2m3 0h1m1 0h1m2 0h4m2 0h1m6 0h1M2 20.5h3m3 0h2m1 0h2m1 0h8m1 0h3m1 0h2m3 0h1m1 0h1M2 21.5h1m1 0h1m4 0h3m1 0h1m1 0h1m1 0h1m4 0h1m1 0h2m3 0h5M5 22.5h2m1 0h2m1 0h2m1 0h4m2 0h1m2 0h1m1 0h3m1 0h2m2 0h2M2 23.5h1m1 0h4m1 0h2m1 0h1m1 0h1m1 0h1m2 0h1m3 0h1m1 0h1m1 0h1m2 0h2M2 24.5h1m3 0h4m1 0h1m1 0h1m5 0h1m1 0h1m1 0h2m1 0h3m1 0h1m1 0h2M2 25.5h1m1 0h1m1 0h2m1 0h2m2 0h1m1 0h1m1 0h2m2 0h2m1 0h1m1 0h1m1 0h6M2 26.5h4m2 0h1m1 0h1m2 0h4m1 0h1m3 0h1m3 0h6M10 27.5h1m1 0h1m2 0h1m1 0h3m1 0h4m1 0h1m3 0h2m1 0h2M2 28.5h7m2 0h3m1 0h5m4 0h3m1 0h1m1 0h1m1 0h1M2 29.5h1m5 0h1m2 0h1m2 0h1m1 0h1m2 0h2m2 0h4m3 0h3m1 0h1M2 30.5h1m1 0h3m1 0h1m2 0h4m2 0h2m2 0h4m1 0h6m1 0h1M2 31.5h1m1 0h3m1 0h1m4 0h1m6 0h1m6 0h1m2 0h2m2 0h1M2 32.5h1m1 0h3m1 0h1m2 0h1m2 0h1m1 0h2m2 0h2m1 0h2m1 0h2m2 0h5M2 33.5h1m5 0h1m4 0h3m11 0h1m3 0h2M2 34.5h7m1 0h4m1 0h5m4 0h3m6 0h1\"/></svg>\n"
      }
    }
  ],
  "text": [
    {
      "title": "A link, dark blue on transparent",
      "body": {
        "text": "https://example.com",
        "dark": "navy",
        "light": "transparent",
        "margin": 1
      },
      "response": {
        "svg": "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 27 27\" shape-rendering=\"crispEdges\"><path stroke=\"#000080\" d=\"M1 1.5h7m4 0h3m2 0h1m1 0h7M1 2.5h1m5 0h1m3 0h1m2 0h4m1 0h1m5 0h1M1 3.5h1m1 0h3m1 0h1m1 0h2m1 0h1m2 0h1m3 0h1m1 0h3m1 0h1M1 4.5h1m1 0h3m1 0h1m1 0h1m4 0h3m2 0h1m1 0h3m1 0h1M1 5.5h1m1 0h3m1 0h1m1 0h3m2 0h1m2 0h1m1 0h1m1 0h3m1 0h1M1 6.5h1m5 0h1m1 0h1m2 0h1m2 0h2m2 0h1m5 0h1M1 7.5h7m1 0h1m1 0h1m1 0h1m1 0h1m1 0h1m1 0h7M9 8.5h1m5 0h1m1 0h1M1 9.5h1m1 0h5m5 0h1m5 0h5M2 10.5h1m2 0h2m2 0h1m1 0h2m1 0h1m3 0h1m1 0h1m3 0h1M1 11.5h5m1 0h1m1 0h2m3 0h4m2 0h1m1 0h1m1 0h2M1 12.5h2m1 0h3m2 0h1m1 0h2m1 0h1m1 0h2m1 0h2m4 0h1M2 13.5h3m2 0h1m4 0h2m1 0h2m1 0h2m1 0h1m1 0h3M1 14.5h5m3 0h1m1 0h1m5 0h1m2 0h1m1 0h1m1 0h1M1 15.5h1m5 0h2m2 0h3m2 0h1m2 0h4m1 0h2M1 16.5h1m2 0h1m3 0h1m3 0h1m2 0h7m3 0h1M1 17.5h1m1 0h1m2 0h2m1 0h4m4 0h5m1 0h1M9 18.5h2m2 0h5m3 0h2M1 19.5h7m6 0h2m1 0h1m1 0h1m1 0h1m1 0h3M1 20.5h1m5 0h1m1 0h2m2 0h2m2 0h1m3 0h2m1 0h1M1 21.5h1m1 0h3m1 0h1m1 0h3m1 0h1m1 0h7m1 0h1m1 0h1M1 22.5h1m1 0h3m1 0h1m1 0h1m6 0h1m1 0h2m1 0h5M1 23.5h1m1 0h3m1 0h1m1 0h5m2 0h1m5 0h2m1 0h1M1 24.5h1m5 0h1m4 0h1m2 0h1m1 0h2m1 0h3m2 0h1M1 25.5h7m1 0h2m1 0h1m5 0h8\"/></svg>\n"
      }
    }
  ]
};
