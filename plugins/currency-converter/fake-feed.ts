/**
 * For tests only: an ECB-style rate feed on 127.0.0.1 (node:http, a free port), so the plugin is
 * tested end to end without the network. Each test sets what the next requests get.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The feed behind the manifest examples: a day of four rates (units for 1 EUR). */
export const EXAMPLE_DATE = '2024-03-15';
export const EXAMPLE_RATES: Readonly<Record<string, string>> = { USD: '1.0892', JPY: '162.17', GBP: '0.8552', CHF: '0.9627' };

/** An ECB daily document as the ECB writes it (single quotes, tabs, the gesmes envelope). */
export function ecbDocument(date: string, rates: Readonly<Record<string, string>>): string {
  const cubes = Object.entries(rates)
    .map(([currency, rate]) => `\t\t\t<Cube currency='${currency}' rate='${rate}'/>\n`)
    .join('');
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">\n' +
    '\t<gesmes:subject>Reference rates</gesmes:subject>\n' +
    '\t<gesmes:Sender>\n\t\t<gesmes:name>European Central Bank</gesmes:name>\n\t</gesmes:Sender>\n' +
    `\t<Cube>\n\t\t<Cube time='${date}'>\n${cubes}\t\t</Cube>\n\t</Cube>\n` +
    '</gesmes:Envelope>\n'
  );
}

/** Answers one request; the default serves `document` as text/xml. */
export type FeedBehaviour = (request: IncomingMessage, response: ServerResponse) => void;

export interface FakeFeed {
  /** http://127.0.0.1:<port>/eurofxref-daily.xml */
  readonly url: string;
  /** Requests received so far. */
  readonly hits: number;
  /** Serves `xml` from now on. */
  serve(xml: string): void;
  /** Answers the next requests with `behaviour`. */
  behave(behaviour: FeedBehaviour): void;
  close(): Promise<void>;
}

export async function startFeed(xml: string = ecbDocument(EXAMPLE_DATE, EXAMPLE_RATES)): Promise<FakeFeed> {
  let hits = 0;
  const serveXml = (body: string): FeedBehaviour => (_request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/xml' }).end(body);
  };
  let behaviour = serveXml(xml);
  const server = createServer((request, response) => {
    hits += 1;
    behaviour(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/eurofxref-daily.xml`,
    get hits() {
      return hits;
    },
    serve(body) {
      behaviour = serveXml(body);
    },
    behave(next) {
      behaviour = next;
    },
    close: () =>
      new Promise((resolve) => {
        // Responses a test left hanging would otherwise hold close() open.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
