// AnswerSlots: a contained plugin's answer checks on the host's pool, at most its processes' count at once.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AnswerSlots } from './answer-slots.js';

/** Work that runs until `finish` is called, logging when it starts. */
function held(log: string[], name: string) {
  let finish!: (value: string) => void;
  let fail!: (error: Error) => void;
  const work = () => {
    log.push(`start ${name}`);
    return new Promise<string>((resolve, reject) => ((finish = resolve), (fail = reject)));
  };
  return { work, finish: () => finish(name), fail: () => fail(new Error(name)) };
}

const turns = async (count = 5): Promise<void> => {
  for (let turn = 0; turn < count; turn++) await new Promise((resolve) => setImmediate(resolve));
};

describe('AnswerSlots', () => {
  it('runs at most its slots at once, the rest in the order asked as slots free, a failed one freeing its slot too', async () => {
    const log: string[] = [];
    const slots = new AnswerSlots(2);
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((name) => held(log, name)) as [ReturnType<typeof held>, ReturnType<typeof held>, ReturnType<typeof held>, ReturnType<typeof held>];
    // Each outcome read as it settles (b's rejection is expected, not unhandled).
    const runs = [a, b, c, d].map((job) => slots.run(job.work).then(() => 'fulfilled', () => 'rejected'));
    await turns();
    assert.deepEqual(log, ['start a', 'start b']);
    b.fail();
    await turns();
    assert.deepEqual(log, ['start a', 'start b', 'start c']);
    a.finish();
    await turns();
    assert.deepEqual(log, ['start a', 'start b', 'start c', 'start d']);
    c.finish();
    d.finish();
    assert.deepEqual(await Promise.all(runs), ['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    // All slots are free again: two more start at once.
    const [e, f] = [held(log, 'e'), held(log, 'f')];
    void slots.run(e.work);
    void slots.run(f.work);
    await turns();
    assert.deepEqual(log.slice(4), ['start e', 'start f']);
    e.finish();
    f.finish();
  });
});
