import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Plugin } from '@toolshed/plugin-sdk';
import { fakeExecutor, type FakeExecutor } from './fake-executor.js';
import { identify } from './identify.js';
import { runRecipe } from './run.js';
import { answerValue } from './executor.js';

// "48656C6C6F" (the hex bytes of "Hello") in Morse code, letter by letter.
const MORSE_HEX_HELLO = '....- ---.. -.... ..... -.... -.-. -.... -.-. -.... ..-.';

let executor: FakeExecutor;
before(async () => {
  // A plain-JavaScript folder plugin, imported as the service imports one from plugins.dirs; the
  // fake executor hands on its definitions as structured clones, as a worker-hosted manifest arrives.
  const url = new URL('../../test/fixtures/recipe-plugins/morse/index.js', import.meta.url);
  const morse = ((await import(url.href)) as { default: Plugin }).default;
  executor = await fakeExecutor({ plugins: [morse] });
});

describe('a folder plugin declaring main fields and a recognizer', () => {
  it('joins identify: its recognizer names its input, confirmed by running it', async () => {
    const [first] = (await identify(executor, { input: '.... . .-.. .-.. --- / .-- --- .-. .-.. -..' })).candidates;
    assert.equal(first?.kind, 'morse-code');
    assert.deepEqual(first?.recipe.steps, [{ operation: 'morse/decode' }]);
    assert.deepEqual(first?.preview, { text: 'HELLO WORLD' });
  });

  it('chains with the built-ins in identify: Morse code of hex bytes comes back as a two-step recipe', async () => {
    const [first] = (await identify(executor, { input: MORSE_HEX_HELLO })).candidates;
    assert.deepEqual(first?.recipe.steps, [{ operation: 'morse/decode' }, { operation: 'text-converter/decode', body: { format: 'hex' } }]);
    assert.deepEqual(first?.preview, { text: 'Hello' });
  });

  it('joins default wiring, as the first step and after a built-in', async () => {
    const after = await runRecipe(executor, { input: '.... ..', steps: [{ operation: 'morse/decode' }, { operation: 'base64/encode' }] });
    // BASE64("HI") = "SEk=".
    assert.deepEqual(answerValue(after), { result: { base64: 'SEk=' } });
    const before = await runRecipe(executor, { input: Buffer.from('... --- ...').toString('base64'), steps: [{ operation: 'base64/decode' }, { operation: 'morse/decode' }] });
    assert.deepEqual(answerValue(before), { result: { text: 'SOS' } });
  });
});
