import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Roster } from './roster.js';

const member = (name: string) => ({ name, rosterIndex: -1 });

describe('Roster', () => {
  it('lets a member leave from anywhere, the last one taking its place', () => {
    const roster = new Roster<ReturnType<typeof member>>();
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map(member) as [ReturnType<typeof member>, ReturnType<typeof member>, ReturnType<typeof member>, ReturnType<typeof member>];
    for (const one of [a, b, c, d]) roster.add(one);
    roster.remove(b);
    assert.deepEqual(roster.list().map((one) => one.name), ['a', 'd', 'c']);
    assert.equal(d.rosterIndex, 1);
    assert.equal(b.rosterIndex, -1);
    roster.remove(c);
    roster.remove(a);
    assert.deepEqual(roster.list().map((one) => one.name), ['d']);
    assert.equal(d.rosterIndex, 0);
    assert.equal(roster.size, 1);
  });

  it('leaves a member of no roster, or of another, as it is', () => {
    const roster = new Roster<ReturnType<typeof member>>();
    const other = new Roster<ReturnType<typeof member>>();
    const [a, b] = [member('a'), member('b')];
    roster.add(a);
    other.add(b);
    roster.remove(b);
    roster.remove(member('c'));
    assert.deepEqual(roster.list().map((one) => one.name), ['a']);
    assert.deepEqual(other.list().map((one) => one.name), ['b']);
    assert.equal(b.rosterIndex, 0);
  });

  it('lists a copy: members that leave during a visit do not make it skip one', () => {
    const roster = new Roster<ReturnType<typeof member>>();
    const all = ['a', 'b', 'c'].map(member);
    for (const one of all) roster.add(one);
    const visited: string[] = [];
    for (const one of roster.list()) {
      visited.push(one.name);
      roster.remove(one);
    }
    assert.deepEqual(visited, ['a', 'b', 'c']);
    assert.equal(roster.size, 0);
  });
});
