import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HANG_GUARD_MS } from '@toolshed/plugin-sdk/testing';
import { FeedFormatError, parseEcbXml, type RateSet } from './ecb-xml.js';
import { ecbDocument } from './fake-feed.js';

const plain = (set: RateSet): { date: string; rates: Record<string, number> } => ({ date: set.date, rates: Object.fromEntries(set.perEuro) });
const refused = (xml: string, message: RegExp): void => {
  assert.throws(() => parseEcbXml(xml), (error: Error) => error instanceof FeedFormatError && message.test(error.message), message.source);
};
const wrap = (cubes: string): string => `<gesmes:Envelope><Cube>${cubes}</Cube></gesmes:Envelope>`;
const day = (rates: string, time = '2024-03-15'): string => wrap(`<Cube time="${time}">${rates}</Cube>`);

describe('parseEcbXml: the ECB format', () => {
  it('reads the daily file as the ECB writes it (XML declaration, namespaces, single quotes, tabs)', () => {
    const xml = ecbDocument('2024-03-15', { USD: '1.0892', JPY: '162.17', GBP: '0.8552' });
    assert.deepEqual(plain(parseEcbXml(xml)), { date: '2024-03-15', rates: { USD: 1.0892, JPY: 162.17, GBP: 0.8552 } });
  });

  it('accepts double quotes, spaces around =, a byte-order mark, comments and a > inside a value', () => {
    const xml = `\uFEFF<?xml version="1.0"?><!-- rates --><gesmes:Envelope note="a>b"><Cube><Cube  time = "2024-03-15" ><Cube rate="4.3" currency="PLN" /></Cube></Cube></gesmes:Envelope>\n`;
    assert.deepEqual(plain(parseEcbXml(xml)), { date: '2024-03-15', rates: { PLN: 4.3 } });
  });

  it('takes the first day of a history file (newest first) and still checks the later days', () => {
    const history = wrap('<Cube time="2024-03-15"><Cube currency="USD" rate="1.0892"/></Cube><Cube time="2024-03-14"><Cube currency="USD" rate="1.0925"/></Cube>');
    assert.deepEqual(plain(parseEcbXml(history)), { date: '2024-03-15', rates: { USD: 1.0892 } });
    refused(wrap('<Cube time="2024-03-15"><Cube currency="USD" rate="1.0892"/></Cube><Cube time="2024-03-14"><Cube currency="USD" rate="-1"/></Cube>'), /rate of USD/);
  });

  it('ignores other elements and text, and Cube elements without attributes', () => {
    const xml = '<Envelope><subject>Reference &amp; rates</subject><Cube><Cube time="2024-01-02"><x/><Cube currency="CHF" rate="0.93"/></Cube></Cube></Envelope>';
    assert.deepEqual(plain(parseEcbXml(xml)), { date: '2024-01-02', rates: { CHF: 0.93 } });
  });
});

describe('parseEcbXml: refusals', () => {
  it('refuses a document with no day or no rates', () => {
    refused(wrap(''), /no Cube time/);
    refused(day(''), /no rates/);
    refused(wrap('<Cube time="2024-03-15"/>'), /no rates/);
    refused('<html><body>Service unavailable</body></html>', /no Cube time/);
    refused('', /no root element/);
    refused('   \n', /no root element/);
  });

  it('refuses codes that are not three capital letters', () => {
    for (const code of ['usd', 'US', 'USDX', 'U$D', '']) refused(day(`<Cube currency="${code}" rate="1.5"/>`), /three capital letters/);
  });

  it('refuses rates that are not positive plain decimals', () => {
    for (const rate of ['0', '0.0', '-1', '+1', '1e3', '.5', '5.', '1,5', ' 1', 'NaN', 'Infinity', '0x10', '', '1234567890123456']) {
      refused(day(`<Cube currency="USD" rate="${rate}"/>`), /not a positive decimal/);
    }
  });

  it('refuses inconsistent days: a repeated code, EUR, a rate outside a day, a half rate, a bad date', () => {
    refused(day('<Cube currency="USD" rate="1.1"/><Cube currency="USD" rate="1.2"/>'), /USD twice/);
    refused(day('<Cube currency="EUR" rate="1"/>'), /EUR/);
    refused(wrap('<Cube currency="USD" rate="1.1"/>'), /outside a Cube time/);
    refused(day('<Cube><Cube currency="USD" rate="1.1"/></Cube>'), /outside a Cube time/);
    refused(day('<Cube currency="USD"/>'), /without a rate/);
    refused(day('<Cube rate="1.1"/>'), /without a currency/);
    refused(day('<Cube time="2024-03-16"/>'), /inside another/);
    refused(wrap('<Cube time="2024-03-15" currency="USD" rate="1"/>'), /both a time and a rate/);
    for (const time of ['2024-02-30', '2024-13-01', '24-03-15', '2024-3-15', '']) refused(day('<Cube currency="USD" rate="1"/>', time), /not a YYYY-MM-DD/);
  });

  it('refuses XML that is not well-formed', () => {
    const good = day('<Cube currency="USD" rate="1.1"/>');
    refused(good.slice(0, -5), /malformed|ends inside/);
    refused(good.replace('</Cube></Cube>', '</Cube></Cub>'), /nest properly/);
    refused(good + '<again/>', /more than one root/);
    refused(good + 'trailing', /text outside/);
    refused('leading' + good, /text outside/);
    refused(good.replace('rate="1.1"', 'rate=1.1'), /malformed/);
    refused(good.replace('rate="1.1"', 'rate="1.1" rate="1.2"'), /repeats an attribute/);
    refused(good.replace('<Cube currency', '< Cube currency'), /no valid name/);
    refused(good.replace('</gesmes:Envelope>', '</gesmes:Envelope/>'), /end tag is malformed/);
    refused('<!-- open' + good, /comment is not closed/);
    refused('<?xml version="1.0"' + good, /processing instruction/);
    refused(good.replace('<Cube>', '<Cube><![CDATA[ x'), /CDATA/);
  });

  it('refuses a DOCTYPE, so no entity can expand', () => {
    refused('<!DOCTYPE a [<!ENTITY x "xxxxxxxx">]>' + day('<Cube currency="USD" rate="1.1"/>'), /Document type/);
  });

  it('refuses nesting deeper than 32 and stays linear on a megabyte of tags', () => {
    refused('<a>'.repeat(33) + '</a>'.repeat(33), /deeper than 32/);
    const many = `<r>${'<x a="1"/>'.repeat(100_000)}<Cube time="2024-03-15"><Cube currency="USD" rate="1.1"/></Cube></r>`;
    const started = performance.now();
    assert.deepEqual(plain(parseEcbXml(many)), { date: '2024-03-15', rates: { USD: 1.1 } });
    // A million characters of attributes with no closing > (a quadratic rescan would hang here).
    refused(`<r>${'<x a="1"'.repeat(100_000)}`, /malformed/);
    assert.ok(performance.now() - started < HANG_GUARD_MS);
  });
});
