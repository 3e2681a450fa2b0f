import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GatewayError } from '../src/errors.ts';
import { decideWeighted, neededVotes, parseQuorum, valueKey, type QuorumSpec } from '../src/services/consensus/quorum.ts';

const count = (n: number): QuorumSpec => ({ kind: 'count', count: n });
const fraction = (f: number): QuorumSpec => ({ kind: 'fraction', fraction: f });

describe('neededVotes', () => {
  const cases: [string, QuorumSpec, number | null, number][] = [
    ['a count over an open electorate', count(3), null, 3],
    ['a count equal to the electorate', count(3), 3, 3],
    ['half of four', fraction(0.5), 4, 2],
    ['just over half of four', fraction(0.51), 4, 3],
    ['two thirds of three (float noise ignored)', fraction(2 / 3), 3, 2],
    ['0.7 of ten (0.7*10 = 7.000000000000001)', fraction(0.7), 10, 7],
    ['all of five', fraction(1), 5, 5],
    ['a tiny fraction still needs one vote', fraction(0.001), 5, 1],
  ];
  for (const [label, spec, size, expected] of cases) {
    it(`needs ${expected} for ${label}`, () => assert.equal(neededVotes(spec, size), expected));
  }

  it('refuses a fraction without an electorate and a count above it', () => {
    for (const [spec, size] of [[fraction(0.5), null], [count(4), 3]] as const) {
      assert.throws(() => neededVotes(spec, size), (err: unknown) => err instanceof GatewayError && err.code === 'VALIDATION_FAILED' && err.details!.length === 1);
    }
  });
});

describe('valueKey and parseQuorum', () => {
  it('keeps the type in the key', () => {
    assert.equal(new Set([valueKey(1), valueKey('1'), valueKey(true), valueKey('true')]).size, 4);
    assert.equal(valueKey(0), valueKey(-0));
  });
  it('reads a number as a count and an object as a fraction', () => {
    assert.deepEqual(parseQuorum(2), count(2));
    assert.deepEqual(parseQuorum({ fraction: 0.6 }), fraction(0.6));
  });
});

describe('decideWeighted', () => {
  const v = (agentId: string, value: string | number | boolean, weight?: number) => ({ agentId, value, weight });

  const cases: {
    label: string;
    votes: ReturnType<typeof v>[];
    quorum: QuorumSpec;
    electorate?: string[];
    status: string;
    decided: unknown;
    votesFor: number;
    total: number;
    needed: number;
    ignored?: number;
  }[] = [
    { label: 'a plain majority by count', votes: [v('a', 'x'), v('b', 'x'), v('c', 'y')], quorum: count(2), status: 'DECIDED', decided: 'x', votesFor: 2, total: 3, needed: 2 },
    { label: 'no value reaching the count', votes: [v('a', 'x'), v('b', 'y')], quorum: count(2), status: 'NO_QUORUM', decided: null, votesFor: 1, total: 2, needed: 2 },
    { label: 'weight outvoting numbers', votes: [v('a', 'x', 5), v('b', 'y'), v('c', 'y')], quorum: fraction(0.5), status: 'DECIDED', decided: 'x', votesFor: 5, total: 7, needed: 3.5 },
    { label: 'two values of equal weight both past the quorum', votes: [v('a', 'x', 2), v('b', 'y', 2)], quorum: fraction(0.5), status: 'TIE', decided: null, votesFor: 2, total: 4, needed: 2 },
    { label: 'a tie below the quorum', votes: [v('a', 'x'), v('b', 'y')], quorum: fraction(0.75), status: 'NO_QUORUM', decided: null, votesFor: 1, total: 2, needed: 1.5 },
    { label: 'float weights summing exactly to the quorum', votes: [v('a', 'x', 0.1), v('b', 'x', 0.2), v('c', 'y', 0.7)], quorum: count(0.3), status: 'DECIDED', decided: 'y', votesFor: 0.7, total: 1, needed: 0.3 },
    { label: "an agent's repeated vote (first counts)", votes: [v('a', 'x'), v('a', 'y', 10), v('b', 'y')], quorum: count(2), status: 'NO_QUORUM', decided: null, votesFor: 1, total: 2, needed: 2, ignored: 1 },
    {
      label: 'absent electorate members counted in the fraction, outsiders ignored',
      votes: [v('a', 'x'), v('b', 'x'), v('zz', 'y', 100)],
      quorum: fraction(0.6),
      electorate: ['a', 'b', 'c', 'd'],
      status: 'NO_QUORUM',
      decided: null,
      votesFor: 2,
      total: 2,
      needed: 2.4,
      ignored: 1,
    },
    { label: 'the whole electorate agreeing', votes: [v('a', true), v('b', true), v('c', true)], quorum: fraction(1), electorate: ['a', 'b', 'c'], status: 'DECIDED', decided: true, votesFor: 3, total: 3, needed: 3 },
  ];
  for (const c of cases) {
    it(`answers ${c.status} for ${c.label}`, () => {
      const r = decideWeighted(c.votes, c.quorum, c.electorate ?? null);
      assert.deepEqual(
        { status: r.status, decided: r.decidedValue, votesFor: r.votesFor, total: r.votesTotal, needed: r.needed, ignored: r.ignored },
        { status: c.status, decided: c.decided, votesFor: c.votesFor, total: c.total, needed: c.needed, ignored: c.ignored ?? 0 },
      );
      assert.equal(r.tie, c.status === 'TIE' || (r.tally.length > 1 && r.tally[0]!.votes === r.tally[1]!.votes));
    });
  }

  it('lists the tally heaviest first, first-voted first among equals, capped', () => {
    const votes = Array.from({ length: 30 }, (_, i) => v(`a${i}`, `v${i % 25}`));
    const r = decideWeighted(votes, count(100), null, 20);
    assert.equal(r.tally.length, 20);
    assert.equal(r.distinctValues, 25);
    assert.deepEqual(r.tally.slice(0, 6).map((t) => t.value), ['v0', 'v1', 'v2', 'v3', 'v4', 'v5']);
    assert.equal(r.tally[5]!.votes, 1);
  });
});
