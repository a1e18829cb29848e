// What the tool pages decide before and around a live answer, in Node: the page's own look at a body
// (never refusing what the service takes: every example of every operation passes it, and what it
// refuses the service's validator refuses too), how long typing must pause and what the budget line
// says, hints in plain words, the field a tool's message names, and a number-or-text union as one
// box. The browser tests run them: test/browser/tool-pages-budget.test.ts, tool-pages-trial.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { compileSchema } from '@toolshed/plugin-sdk/contract';
import type { TSchema } from 'typebox';
import { API_VERSION, builtinPluginDir } from '../kernel/host/index.js';
import { buildOpenApiDocument } from '../kernel/http/index.js';
import { catalogOf, type Tool } from '../tool-pages/catalog.js';
import { checkValue } from '../tool-pages/shared/check.js';
import { fieldOf, formOf, namedField, type Field } from '../tool-pages/shared/fields.js';
import { budgetWords, LONG_PAUSE_MS, pauseBefore, SHORT_PAUSE_MS } from '../tool-pages/shared/pacing.js';
import { plainHint } from '../tool-pages/shared/problems.js';
import type { Json, Schema } from '../tool-pages/shared/schema.js';
import { buildTestService, type InProcessService } from './support/service.js';

let service: InProcessService;
let tools: Tool[];
before(async () => {
  service = await buildTestService({}, { builtinDir: builtinPluginDir });
  tools = catalogOf(buildOpenApiDocument(service.host.executor.operations(), API_VERSION)).groups.flatMap((group) => group.tools);
});
after(() => service.stop());
const tool = (page: string): Tool => tools.find((entry) => entry.page === page)!;

describe('the page\'s own look at a body', () => {
  it('passes every example of every operation: it never holds back what the service takes', () => {
    const refused = tools.flatMap((entry) => entry.examples.flatMap((example) => checkValue(entry.body, example.body).map((problem) => `${entry.page} "${example.title}": ${problem.path} ${problem.message}`)));
    assert.deepEqual(refused, []);
  });

  it('refuses what the service\'s validator refuses too, in its words', () => {
    const cases: [string, Json, string[]][] = [
      ['/tools/qr-code-generator/text', { text: 'hi', margin: 99 }, ['/margin must be <= 16']],
      ['/tools/jwt-decoder/decode', { token: '' }, ['/token must not have fewer than 1 characters']],
      ['/tools/jwt-decoder/decode', {}, ['/token is required']],
      ['/tools/uuid-generator/generate', { count: 2.5 }, ['/count must be integer']],
      ['/tools/cron-expression/explain', { expression: 'x'.repeat(201) }, ['/expression must not have more than 200 characters']],
      ['/tools/number-base-converter/roman', { value: 4000 }, ['/value does not match any of the allowed forms']],
    ];
    for (const [page, body, expected] of cases) {
      const found = checkValue(tool(page).body, body).map((problem) => `${problem.path} ${problem.message}`);
      assert.deepEqual(found, expected, page);
      const operation = service.host.executor.operations().find((entry) => `/tools/${entry.group}/${entry.operation}` === page)!;
      assert.equal(compileSchema(operation.requestSchema as TSchema).check(body), false, `${page}: the service refuses ${JSON.stringify(body)} too`);
    }
  });

  it('leaves to the service what it cannot count as the service does: text with combining marks or emoji', () => {
    // The cron expression's 200 characters are counted by the service in graphemes: 201 "é" written e + U+0301 are 201 of them, but 402 UTF-16 units.
    assert.deepEqual(checkValue({ type: 'string', maxLength: 200 }, 'e\u0301'.repeat(150)), []);
    assert.deepEqual(checkValue({ type: 'string', maxLength: 3 }, 'abcd'), [{ path: '', message: 'must not have more than 3 characters' }]);
    // Fewer code points than the minimum is refused, a surrogate pair counting one.
    assert.deepEqual(checkValue({ type: 'string', minLength: 2 }, '\u{1F600}'), [{ path: '', message: 'must not have fewer than 2 characters' }]);
    assert.deepEqual(checkValue({ type: 'string', minLength: 2 }, '\u{1F600}a'), []);
    assert.deepEqual(checkValue({ type: 'string', minLength: 2 }, '\ud800a'), []);
    // A pattern this browser cannot compile is the service's to judge.
    assert.deepEqual(checkValue({ type: 'string', pattern: '(?<' }, 'x'), []);
  });
});

describe('pacing and the budget line', () => {
  it('waits for a short pause while live answers have spent under a thirtieth of the limit, then for a long one', () => {
    const minute = 60_000;
    // The default 30 a minute affords 1 at the short pause, 60 afford 2.
    assert.equal(pauseBefore([], 0, minute, 30), SHORT_PAUSE_MS);
    assert.equal(pauseBefore([1000], 2000, minute, 30), LONG_PAUSE_MS);
    assert.equal(pauseBefore([1000], 2000, minute, 60), SHORT_PAUSE_MS);
    assert.equal(pauseBefore([1000, 5000], 6000, minute, 60), LONG_PAUSE_MS);
    // Sends older than the window no longer count.
    assert.equal(pauseBefore([1000], 61_500, minute, 30), SHORT_PAUSE_MS);
    // A limit of 10,000 affords 333.
    assert.equal(pauseBefore(Array.from({ length: 300 }, (_, index) => index), 1000, minute, 10_000), SHORT_PAUSE_MS);
  });

  it('says the count quietly, warns near the end, and at none left promises nothing of Run', () => {
    const at = (remaining: number): Parameters<typeof budgetWords>[0] => ({ remaining, limit: 30, resetAt: 46_000 });
    assert.equal(budgetWords(at(27), 0, true), '27 of 30 requests left for this address.');
    assert.equal(budgetWords(at(7), 0, true), 'Only 7 of 30 requests left for this address; the count starts again in 46 s.');
    assert.equal(budgetWords(at(5), 0, true), 'Only 5 of 30 requests left for this address; the count starts again in 46 s. Live answers wait until then; Run still works.');
    assert.equal(budgetWords(at(5), 0, false), 'Only 5 of 30 requests left for this address; the count starts again in 46 s.');
    assert.equal(budgetWords(at(0), 0, true), 'No requests left for this address: the count starts again in 46 s.');
    assert.equal(budgetWords(at(0), 46_000, true), 'The count of requests for this address has started again (30 a window).');
  });
});

describe('words and fields for people', () => {
  it('says the API\'s refusals in hints as "refused", and leaves out sentences about the schema', () => {
    assert.equal(
      plainHint("IANA time zone of the `local` field, such as Europe/Berlin or UTC, in any letter case. It must be a zone the server's time-zone data (the ICU of its Node.js) knows; an unknown one is 400 on /timeZone. That list differs between Node.js versions, so the schema states only the form of a name."),
      "IANA time zone of the `local` field, such as Europe/Berlin or UTC, in any letter case. It must be a zone the server's time-zone data (the ICU of its Node.js) knows; an unknown one is refused.",
    );
    assert.equal(plainHint("Give exactly one of `text` and `dataBase64` (the schema's `oneOf`); both or neither is a 400 naming both fields."), 'Give exactly one of `text` and `dataBase64`; both or neither is refused.');
    assert.equal(plainHint('One target currency (codes that differ only in letter case are the same currency: 400)'), 'One target currency (codes that differ only in letter case are the same currency: refused)');
    assert.equal(plainHint('a zero whole is 422 division_by_zero.'), 'a zero whole is refused.');
    // No field of any built-in operation keeps a status code or a JSON Pointer in its hint.
    const hints = (field: Field): string[] => [
      ...(field.description ? [plainHint(field.description)] : []),
      ...(field.kind === 'group' ? field.members.flatMap((member) => hints(member.field)) : []),
      ...(field.kind === 'union' ? field.branches.flatMap((branch) => hints(branch.field)) : []),
      ...(field.kind === 'list' ? hints(field.item) : []),
    ];
    const technical = tools.flatMap((entry) => hints(formOf(entry.body)).filter((hint) => /\b(?:400|422)\b|\s\/[a-z]+[A-Z/]/.test(hint)).map((hint) => `${entry.page}: ${hint}`));
    assert.deepEqual(technical, []);
  });

  it('marks the field a tool\'s message names: regex flags under Flags, else none', () => {
    const form = formOf(tool('/tools/regex-tester/test').body);
    assert.equal(namedField(form, 'Invalid regular expression: flags may only hold d, g, i, m, s, u, v and y, each at most once')?.pointer, '/flags');
    assert.equal(namedField(form, 'Invalid regular expression: Nothing to repeat'), undefined);
    assert.equal(namedField(formOf(tool('/tools/percent-calculator/ratio').body), 'whole is 0, and the result would divide by it')?.pointer, '/whole');
  });

  it('asks a number-or-text union in one box, and a time zone defaulting to UTC as the reader\'s', () => {
    const input = fieldOf(tool('/tools/timestamp-converter/convert').body.properties!.input! as Schema, '/input', 'Input', false);
    assert.equal(input.kind, 'text');
    assert.deepEqual(input.kind === 'text' && input.number, { type: 'number' });
    const zone = formOf(tool('/tools/timestamp-converter/convert').body);
    const timeZone = zone.kind === 'group' ? zone.members.find((member) => member.name === 'timeZone')?.field : undefined;
    assert.equal(timeZone?.kind === 'text' && timeZone.zone, true);
  });

  it('answers live the clock-reading operations (x-reads-clock) and not the random ones', () => {
    const live = (page: string): [boolean, boolean] => [tool(page).live, tool(page).clock];
    assert.deepEqual(['/tools/jwt-decoder/decode', '/tools/timestamp-converter/convert', '/tools/cron-expression/explain'].map(live), [[true, true], [true, true], [true, true]]);
    assert.deepEqual(['/tools/uuid-generator/generate', '/tools/password-generator/password', '/tools/word-counter/stats'].map(live), [[false, false], [false, false], [true, false]]);
  });
});
