/**
 * A small strict reader of the ECB reference-rate XML (eurofxref-daily.xml and the -hist files):
 *
 *   <gesmes:Envelope …><Cube><Cube time="2024-03-15"><Cube currency="USD" rate="1.0892"/>…
 *
 * No XML library: the document is scanned once, tags must nest properly with one root element,
 * DOCTYPE (and so every entity trick) is refused, and only `Cube` elements are read. The first
 * `Cube time` element is the day (the history files list the newest day first); its `Cube currency
 * rate` children are the rates, each in units of the currency for 1 EUR.
 */

/** One day of reference rates: currency code → units of that currency for 1 EUR. */
export interface RateSet {
  /** The Cube time, YYYY-MM-DD. */
  readonly date: string;
  /** Units of each currency for 1 EUR; EUR itself is not listed (it is 1 by definition). */
  readonly perEuro: ReadonlyMap<string, number>;
}

/** The feed is not a usable ECB rate document; the message says why without quoting it. */
export class FeedFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FeedFormatError';
  }
}

/** Deeper nesting than any rate file has (Envelope > Cube > Cube > Cube is 4). */
const MAX_DEPTH = 32;
const CURRENCY = /^[A-Z]{3}$/;
/** A plain positive decimal: no sign, exponent, hex, or leading/trailing dot. */
const RATE = /^[0-9]{1,15}(?:\.[0-9]{1,15})?$/;
const DATE = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/;
const NAME = /[A-Za-z_][-A-Za-z0-9_.:]*/y;
const ATTRIBUTE = /\s+([A-Za-z_][-A-Za-z0-9_.:]*)\s*=\s*(?:"([^"<]*)"|'([^'<]*)')/y;
const TAG_END = /\s*(\/?)>/y;

interface Tag {
  readonly name: string;
  readonly attributes: ReadonlyMap<string, string>;
  readonly selfClosing: boolean;
  /** Index just past the `>`. */
  readonly end: number;
}

/** Reads the start tag whose name begins at `at` (just past `<`). */
function readStartTag(text: string, at: number): Tag {
  NAME.lastIndex = at;
  const name = NAME.exec(text);
  if (name === null) throw new FeedFormatError('A tag has no valid name');
  let position = NAME.lastIndex;
  const attributes = new Map<string, string>();
  for (;;) {
    TAG_END.lastIndex = position;
    const end = TAG_END.exec(text);
    if (end !== null) return { name: name[0], attributes, selfClosing: end[1] === '/', end: TAG_END.lastIndex };
    ATTRIBUTE.lastIndex = position;
    const attribute = ATTRIBUTE.exec(text);
    if (attribute === null) throw new FeedFormatError(`The tag ${name[0].slice(0, 40)} is malformed`);
    if (attributes.has(attribute[1])) throw new FeedFormatError(`The tag ${name[0].slice(0, 40)} repeats an attribute`);
    attributes.set(attribute[1], attribute[2] ?? attribute[3]);
    position = ATTRIBUTE.lastIndex;
  }
}

function isValidDate(value: string): boolean {
  const match = DATE.exec(value);
  if (match === null) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Collects the rates of the first day while the scanner walks the Cube elements. */
class DayCollector {
  date: string | undefined;
  readonly perEuro = new Map<string, number>();
  /** Depth of the open `Cube time` element of the first day; -1 when none is open. */
  private dayDepth = -1;
  private dayDone = false;

  /** A Cube start tag at `depth` (1 = the root). */
  cube(attributes: ReadonlyMap<string, string>, depth: number, selfClosing: boolean): void {
    const time = attributes.get('time');
    const currency = attributes.get('currency');
    const rate = attributes.get('rate');
    if (time !== undefined) {
      if (currency !== undefined || rate !== undefined) throw new FeedFormatError('A Cube element has both a time and a rate');
      if (this.dayDepth !== -1) throw new FeedFormatError('A Cube time element lies inside another');
      if (!isValidDate(time)) throw new FeedFormatError('A Cube time is not a YYYY-MM-DD date');
      if (this.date === undefined) {
        this.date = time;
        if (selfClosing) this.dayDone = true;
        else this.dayDepth = depth;
      } else this.dayDone = true;
      return;
    }
    if (currency === undefined && rate === undefined) return;
    if (currency === undefined || rate === undefined) throw new FeedFormatError('A Cube element has a currency without a rate or a rate without a currency');
    if (!CURRENCY.test(currency)) throw new FeedFormatError('A currency code is not three capital letters');
    const value = Number(rate);
    if (!RATE.test(rate) || !Number.isFinite(value) || value <= 0) throw new FeedFormatError(`The rate of ${currency} is not a positive decimal`);
    // Rates of later days in a history file are checked above but not kept.
    if (this.dayDone) return;
    if (this.dayDepth === -1 || depth !== this.dayDepth + 1) throw new FeedFormatError('A rate lies outside a Cube time element');
    if (currency === 'EUR') throw new FeedFormatError('The feed lists a rate for EUR, its own base');
    if (this.perEuro.has(currency)) throw new FeedFormatError(`The feed lists ${currency} twice for one day`);
    this.perEuro.set(currency, value);
  }

  /** An end tag closing the element that was open at `depth`. */
  close(depth: number): void {
    if (depth === this.dayDepth) {
      this.dayDepth = -1;
      this.dayDone = true;
    }
  }
}

/**
 * Parses an ECB rate document. Throws FeedFormatError for anything that is not well-formed, for a
 * Cube attribute that breaks its rule, and for a document without a day or without rates.
 */
export function parseEcbXml(xml: string): RateSet {
  const text = xml.startsWith('\uFEFF') ? xml.slice(1) : xml;
  const open: string[] = [];
  const collector = new DayCollector();
  let rootSeen = false;
  let position = 0;
  while (position < text.length) {
    const lt = text.indexOf('<', position);
    const textEnd = lt === -1 ? text.length : lt;
    if (open.length === 0 && text.slice(position, textEnd).trim() !== '') throw new FeedFormatError('There is text outside the root element');
    if (lt === -1) break;
    if (text.startsWith('<?', lt)) {
      const end = text.indexOf('?>', lt + 2);
      if (end === -1) throw new FeedFormatError('A processing instruction is not closed');
      position = end + 2;
    } else if (text.startsWith('<!--', lt)) {
      const end = text.indexOf('-->', lt + 4);
      if (end === -1) throw new FeedFormatError('A comment is not closed');
      position = end + 3;
    } else if (text.startsWith('<![CDATA[', lt) && open.length > 0) {
      const end = text.indexOf(']]>', lt + 9);
      if (end === -1) throw new FeedFormatError('A CDATA section is not closed');
      position = end + 3;
    } else if (text.startsWith('<!', lt)) {
      throw new FeedFormatError('Document type declarations are not accepted');
    } else if (text.startsWith('</', lt)) {
      NAME.lastIndex = lt + 2;
      const name = NAME.exec(text);
      TAG_END.lastIndex = NAME.lastIndex;
      const end = name === null ? null : TAG_END.exec(text);
      if (name === null || end === null || end[1] === '/') throw new FeedFormatError('An end tag is malformed');
      if (open[open.length - 1] !== name[0]) throw new FeedFormatError('The tags do not nest properly');
      collector.close(open.length);
      open.pop();
      position = TAG_END.lastIndex;
    } else {
      if (open.length === 0 && rootSeen) throw new FeedFormatError('There is more than one root element');
      const tag = readStartTag(text, lt + 1);
      rootSeen = true;
      const depth = open.length + 1;
      if (depth > MAX_DEPTH) throw new FeedFormatError(`The elements nest deeper than ${MAX_DEPTH}`);
      if (tag.name === 'Cube') collector.cube(tag.attributes, depth, tag.selfClosing);
      if (!tag.selfClosing) open.push(tag.name);
      position = tag.end;
    }
  }
  if (!rootSeen) throw new FeedFormatError('The document has no root element');
  if (open.length > 0) throw new FeedFormatError('The document ends inside an element');
  if (collector.date === undefined) throw new FeedFormatError('The document has no Cube time element');
  if (collector.perEuro.size === 0) throw new FeedFormatError('The document lists no rates');
  return { date: collector.date, perEuro: collector.perEuro };
}
