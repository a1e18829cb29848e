import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { placed, ThreadChoice, type Placement } from './thread-choice.js';

type Choose = ThreadChoice['choose'];
type Task = Parameters<Choose>[0];
type Thread = Parameters<Choose>[1][number];

/** piscina hands the balancer a task's interface, whose queue options are what the request carries. */
const task = (placement: Placement): Task => ({ taskId: 1, filename: 'f', name: 'default', created: 0, isAbortable: true, ...placed({}, placement) }) as unknown as Task;
const bulk = (): Task => task({ bulk: true });
const small = (): Task => task({ bulk: false });
const thread = (id: number, currentUsage = 0): Thread => ({ id, currentUsage, isRunningAbortableTask: currentUsage > 0, histogram: null, terminating: false, destroyed: false }) as unknown as Thread;

describe('which pool thread takes a job', () => {
  it('sends bulk jobs to the thread of the last bulk job and small jobs elsewhere first', () => {
    const { choose } = new ThreadChoice();
    const threads = [thread(1), thread(2)];
    assert.equal(choose(small(), threads)?.id, 1, 'no bulk job yet: the first free thread');
    assert.equal(choose(bulk(), [thread(1, 1), thread(2)])?.id, 2, 'the only free thread takes the first bulk job');
    assert.equal(choose(bulk(), threads)?.id, 2, 'the next bulk job: the same thread, though thread 1 is first');
    assert.equal(choose(small(), threads)?.id, 1, 'a small job: the thread that ran no bulk job');
    assert.equal(choose(small(), [thread(1, 1), thread(2)])?.id, 2, 'the bulk thread when it is the only free one');
  });

  it('moves bulk jobs to another free thread when theirs is busy, and chooses nothing when none is free', () => {
    const { choose } = new ThreadChoice();
    assert.equal(choose(bulk(), [thread(1), thread(2)])?.id, 1);
    assert.equal(choose(bulk(), [thread(1, 1), thread(2)])?.id, 2);
    assert.equal(choose(small(), [thread(1), thread(2)])?.id, 1, 'thread 2 ran the last bulk job');
    assert.equal(choose(bulk(), [thread(1, 1), thread(2, 1)]), null);
    assert.equal(choose(small(), [thread(1, 1), thread(2, 1)]), null);
  });

  it('records the thread each job was given, and says when a small job holds the bulk thread', () => {
    const choice = new ThreadChoice();
    const first: Placement = { bulk: true };
    const next: Placement = { bulk: false };
    assert.equal(choice.bulkThreadBusy([]), false, 'no bulk thread yet');
    choice.choose(task(first), [thread(1), thread(2)]);
    choice.choose(task(next), [thread(1, 1), thread(2)]);
    assert.deepEqual([first.thread, next.thread], [1, 2]);
    assert.equal(choice.bulkThreadBusy([first, next]), false, 'a bulk job on the bulk thread, a small one elsewhere');
    const spill: Placement = { bulk: false };
    choice.choose(task(spill), [thread(1), thread(2, 1)]);
    assert.equal(choice.bulkThreadBusy([next, spill]), true);
  });

  it('carries the placement under a key the worker does not receive', () => {
    const request = placed({ id: 1 }, { bulk: true });
    assert.equal(Object.getOwnPropertySymbols(request).length, 1);
    assert.deepEqual(structuredClone(request), { id: 1 });
  });
});
