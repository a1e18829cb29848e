// The largest 10 MiB request known to a built-in's heap, on the host's worker threads under a cap
// well below the default (192 MiB against 256): it must fit with room to spare, because a worker that
// reaches its cap inside one large allocation (a Map growing past 2 million keys) can end the whole
// process instead of its worker (nodejs/node#47224; docs/decisions.md, "Heap a built-in needs").
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { builtinPluginDir } from '../../kernel/host/index.js';
import { send } from '../support/http.js';
import { buildTestService, type InProcessService } from '../support/service.js';

/** Every word of one to five characters over [a-z0-9], shortest first, while the text stays within `limit` characters. */
function distinctWords(limit: number): string[] {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const words: string[] = [];
  let size = 0;
  for (let length = 1; length <= 5; length++) {
    for (let index = 0; index < alphabet.length ** length; index++) {
      let word = '';
      for (let rest = index, k = 0; k < length; k++, rest = Math.floor(rest / alphabet.length)) word += alphabet[rest % alphabet.length];
      if (size + word.length + 1 > limit) return words;
      words.push(word);
      size += word.length + 1;
    }
  }
  return words;
}

let service: InProcessService;
before(async () => {
  // The budgets are generous: what is asserted is the answer, not this machine's speed.
  service = await buildTestService(
    { workers: { memoryMb: 192, requestBudgetMs: 100_000 }, operations: { deadlineMs: 100_000 }, server: { writeTimeoutMs: 180_000 } },
    { builtinDir: builtinPluginDir },
  );
});
after(() => service.stop());

describe('the built-ins\' largest requests under a worker heap cap of 192 MiB', () => {
  it('word-counter/stats counts 2,029,493 distinct words (a 10 MiB body)', async () => {
    // With a { count, letters } record per word the counts took 240 MB of heap at their peak: under
    // this cap the job was ended (422 input_too_complex), under 128 MiB the whole process. A heap's
    // peak under a cap also moves with the machine's load (text-diff's two 5 MB lines fitted 160 MiB
    // on a quiet machine and not beside two busy cores), hence the room.
    const words = distinctWords(10_400_000);
    // Every word of 1–4 characters: 36 + 36² + 36³ + 36⁴ = 1,727,604 words, 8,588,664 characters
    // with their spaces; then as many 5-character words as the rest holds: 1,811,336 ÷ 6 → 301,889.
    assert.equal(words.length, 1_727_604 + 301_889);
    const answer = await send(service.url, '/v1/word-counter/stats', { body: { text: words.join(' '), topWords: 0 } });
    assert.equal(answer.status, 200, answer.text);
    const stats = answer.json as { words: number; uniqueWords: number; topWords: unknown[] };
    assert.deepEqual([stats.words, stats.uniqueWords, stats.topWords], [words.length, words.length, []]);
  });

});
