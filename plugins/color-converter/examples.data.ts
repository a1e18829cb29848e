import type { ContrastReport } from './contrast.js';
import type { Conversion } from './color.js';

interface Example<Response> {
  title: string;
  body: Record<string, unknown>;
  response: Response;
}

/** The manifest's examples; the tests replay them and check them against independent values. */
export const EXAMPLES: { convert: Example<Conversion>[]; contrast: Example<ContrastReport>[] } = {
  convert: [
    {
      title: 'A colour name',
      body: { color: 'red' },
      response: {
        hex: '#ff0000',
        rgb: 'rgb(255 0 0)',
        hsl: 'hsl(0 100% 50%)',
        hsv: 'hsv(0 100% 100%)',
        oklch: 'oklch(62.8% 0.2577 29.23)',
        cmyk: 'cmyk(0% 100% 100% 0%)',
        rgba: { r: 255, g: 0, b: 0, a: 1 },
      },
    },
    {
      title: 'A translucent hsl() colour',
      body: { color: 'hsl(210 50% 40% / 0.25)' },
      response: {
        hex: '#33669940',
        rgb: 'rgb(51 102 153 / 0.25)',
        hsl: 'hsl(210 50% 40% / 0.25)',
        hsv: 'hsv(210 67% 60% / 0.25)',
        oklch: 'oklch(49.9% 0.0987 250.43 / 0.25)',
        cmyk: 'cmyk(67% 33% 0% 40% / 0.25)',
        rgba: { r: 51, g: 102, b: 153, a: 0.25 },
      },
    },
    {
      title: 'Tints and shades of a blue',
      body: { color: '#3366CC', scale: true },
      response: {
        hex: '#3366cc',
        rgb: 'rgb(51 102 204)',
        hsl: 'hsl(220 60% 50%)',
        hsv: 'hsv(220 75% 80%)',
        oklch: 'oklch(53.2% 0.1679 262.29)',
        cmyk: 'cmyk(75% 50% 0% 20%)',
        rgba: { r: 51, g: 102, b: 204, a: 1 },
        scale: ['#dee8f9', '#bed1f2', '#9eb9eb', '#7fa2e3', '#618bda', '#4272d1', '#2d5bb7', '#21468f', '#153169', '#0b1e45', '#030d24', '#000207'],
      },
    },
  ],
  contrast: [
    {
      title: 'Grey text on white just fails AA (WebAIM: 4.47:1)',
      body: { foreground: '#777777', background: '#ffffff' },
      response: { ratio: 4.47, wcag: { aaNormal: false, aaLarge: true, aaaNormal: false, aaaLarge: false, ui: true } },
    },
    {
      title: 'Half-transparent black text on white',
      body: { foreground: 'rgb(0 0 0 / 0.5)', background: 'white' },
      response: { ratio: 3.97, wcag: { aaNormal: false, aaLarge: true, aaaNormal: false, aaaLarge: false, ui: true } },
    },
  ],
};
