/**
 * Quorum arithmetic, shared by the stateful `vote` and the one-shot weighted `decide`. Pure.
 *
 * A quorum is either a count (`3`: a value needs 3 votes, or a total weight of 3 in `decide`) or a
 * fraction of the electorate (`{"fraction": 0.5}`: a value needs at least half of it). A fraction
 * below or equal to 1/2 lets two values reach it; the first to get there wins in `vote`, and
 * `decide` reports TIE when the two best values weigh the same. Use a fraction above 1/2 for a
 * strict majority.
 */
import { createError } from '../../errors.ts';

export type Scalar = string | number | boolean;

export type QuorumSpec = { readonly kind: 'count'; readonly count: number } | { readonly kind: 'fraction'; readonly fraction: number };

/** Tolerance for comparing sums of weights (0.1 + 0.2 must reach 0.3). */
const EPSILON = 1e-9;

/** `3` or `{fraction: 0.5}` (the request form) -> QuorumSpec. */
export function parseQuorum(raw: number | { fraction: number }): QuorumSpec {
  return typeof raw === 'number' ? { kind: 'count', count: raw } : { kind: 'fraction', fraction: raw.fraction };
}

/** A canonical text for comparing two specs. */
export function quorumKey(spec: QuorumSpec): string {
  return spec.kind === 'count' ? `c:${spec.count}` : `f:${spec.fraction}`;
}

/**
 * Equality key of a vote value: the type is part of it, so `1`, `"1"` and `true` are three
 * different values.
 */
export function valueKey(value: Scalar): string {
  return `${typeof value === 'string' ? 's' : typeof value === 'number' ? 'n' : 'b'}:${String(value)}`;
}

/** Weight a value needs: the count, or fraction x base. */
export function threshold(spec: QuorumSpec, base: number): number {
  return spec.kind === 'count' ? spec.count : spec.fraction * base;
}

/** Whether `weight` reaches `needed` (tolerant to float sums); a quorum always needs some weight. */
export function reaches(weight: number, needed: number): boolean {
  return weight > 0 && weight >= needed - EPSILON * Math.max(1, needed);
}

/**
 * Votes a proposal needs, from the quorum of its first vote and its electorate size (null = open
 * electorate). Throws VALIDATION_FAILED when no outcome could ever be decided.
 *
 * @example neededVotes({kind: 'fraction', fraction: 2/3}, 3) // 2
 */
export function neededVotes(spec: QuorumSpec, electorateSize: number | null): number {
  if (spec.kind === 'count') {
    if (electorateSize !== null && spec.count > electorateSize) {
      throw createError('VALIDATION_FAILED', 'Request body failed validation', {
        details: [{ path: '/quorum', message: `A quorum of ${spec.count} cannot be reached by an electorate of ${electorateSize}` }],
      });
    }
    return spec.count;
  }
  if (electorateSize === null) {
    throw createError('VALIDATION_FAILED', 'Request body failed validation', {
      details: [{ path: '/electorate', message: 'A fractional quorum needs an electorate on the first vote of a proposal' }],
    });
  }
  return Math.max(1, Math.ceil(spec.fraction * electorateSize - EPSILON));
}

export interface WeightedVote {
  readonly agentId: string;
  readonly value: Scalar;
  /** Default 1. */
  readonly weight?: number | undefined;
}

export type DecideStatus = 'DECIDED' | 'NO_QUORUM' | 'TIE';

export interface DecideResult {
  readonly status: DecideStatus;
  readonly decidedValue: Scalar | null;
  /** Weight of the decided value, or of the leading value when undecided. */
  readonly votesFor: number;
  /** Weight of every counted vote. */
  readonly votesTotal: number;
  /** Weight a value needs. */
  readonly needed: number;
  readonly tie: boolean;
  readonly tally: readonly { value: Scalar; votes: number }[];
  readonly distinctValues: number;
  readonly counted: number;
  /** Votes not counted: a repeated agent_id (its first vote counts) or an agent outside the electorate. */
  readonly ignored: number;
}

/** Rounds float noise off sums for the response (weights are given with at most ~15 digits). */
function tidy(n: number): number {
  return Math.round(n * 1e9) / 1e9;
}

/**
 * The one-shot weighted decision: each agent's first vote counts with its weight (default 1);
 * the heaviest value is decided when it reaches the quorum and no other value weighs as much.
 * With an electorate, votes from outside it are ignored and a fraction is taken of the
 * electorate's weight, members who did not vote counting 1.
 *
 * @example decideWeighted([{agentId:'a',value:'x',weight:2},{agentId:'b',value:'y'}], {kind:'fraction',fraction:0.5}, null)
 *   // {status: 'DECIDED', decidedValue: 'x', votesFor: 2, votesTotal: 3, needed: 1.5, ...}
 */
export function decideWeighted(votes: readonly WeightedVote[], spec: QuorumSpec, electorate: readonly string[] | null, tallyMax = 20): DecideResult {
  const members = electorate === null ? null : new Set(electorate);
  const seen = new Set<string>();
  const tally = new Map<string, { value: Scalar; votes: number; order: number }>();
  let total = 0;
  let ignored = 0;
  for (const vote of votes) {
    if (seen.has(vote.agentId) || (members !== null && !members.has(vote.agentId))) {
      ignored++;
      continue;
    }
    seen.add(vote.agentId);
    const weight = vote.weight ?? 1;
    total += weight;
    const key = valueKey(vote.value);
    const entry = tally.get(key);
    if (entry === undefined) tally.set(key, { value: vote.value, votes: weight, order: tally.size });
    else entry.votes += weight;
  }
  const base = members === null ? total : total + (members.size - seen.size);
  const needed = threshold(spec, base);
  const ranked = [...tally.values()].sort((a, b) => b.votes - a.votes || a.order - b.order);
  const top = ranked[0];
  const second = ranked[1];
  const tie = top !== undefined && second !== undefined && Math.abs(top.votes - second.votes) <= EPSILON * Math.max(1, top.votes);
  let status: DecideStatus = 'NO_QUORUM';
  if (top !== undefined && reaches(top.votes, needed)) status = tie ? 'TIE' : 'DECIDED';
  return {
    status,
    decidedValue: status === 'DECIDED' ? top!.value : null,
    votesFor: tidy(top?.votes ?? 0),
    votesTotal: tidy(total),
    needed: tidy(needed),
    tie,
    tally: ranked.slice(0, tallyMax).map((e) => ({ value: e.value, votes: tidy(e.votes) })),
    distinctValues: ranked.length,
    counted: seen.size,
    ignored,
  };
}
