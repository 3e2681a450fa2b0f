/**
 * Safety checker for recorded API-21 histories. Every event carries the client's start and end
 * times (the same monotonic clock as the server's when both run in one process, or any clock
 * ticking at the same rate): the server's linearisation point of the event lies somewhere in
 * [start, end]. The checker only concludes what holds for every such placement, so a correct
 * arbiter can never be flagged, whatever the scheduling.
 *
 * For a lease granted by an acquire [s, e] with ttl, and changed by renewals [rs, re] (each
 * sets the end to its own moment + its ttl, which may shorten the lease) and a release [ls, le]:
 *   surely live     on [e, min(s' + ttl', ls))    the grant happened by e, and the last setter
 *                                                 (s', ttl') ends the lease no earlier than s' + ttl'
 *   possibly live   until min(e' + ttl', le)      nothing can keep it longer
 * (when setters overlap in time, every one that may have come last is considered).
 * Locks:  two leases of a resource surely live at the same instant; a token reused; a grant that
 *         surely followed another with a smaller token; `valid: true` for a token never granted,
 *         surely dead, or surely superseded; `valid: false` for a token surely live throughout;
 *         a refusal (`LOCK_HELD`, `HELD_BY_CALLER`, `WAIT_TIMEOUT`) when no lease could be live.
 * Votes:  two decided values (or epochs) for one proposal; an agent counted twice; a decided value
 *         with fewer accepted votes than the quorum; a value past the quorum with no decision; a
 *         vote accepted after a decision was surely made; more than one deciding vote; epochs out
 *         of the real-time order of decisions.
 */

export interface LockEvent {
  readonly agent: string;
  readonly op: 'acquire' | 'renew' | 'release' | 'validate';
  readonly resource: string;
  readonly start: number;
  readonly end: number;
  /** acquire and renew: the lease length asked for. */
  readonly ttlMs?: number;
  /** renew, release, validate, and an acquire presenting its token. */
  readonly token?: number;
  /** granted / released / valid. */
  readonly ok: boolean;
  readonly reason?: string | null;
  /** acquire: the token granted. */
  readonly grantedToken?: number | null;
  /** acquire: the lease was the caller's own and got extended. */
  readonly renewed?: boolean;
  /** acquire: time spent in the wait queue, as reported (statistics only, never trusted by a check). */
  readonly waitedMs?: number;
}

export interface VoteEvent {
  readonly agent: string;
  readonly proposal: string;
  readonly value: string | number | boolean;
  readonly start: number;
  readonly end: number;
  readonly accepted: boolean;
  readonly status: string;
  readonly decidedValue: string | number | boolean | null;
  readonly epoch: number | null;
  /** Votes a value needs (the response's `quorum`). */
  readonly needed: number | null;
}

export interface Violation {
  readonly kind: string;
  readonly message: string;
}

interface Lease {
  readonly resource: string;
  readonly token: number;
  readonly agent: string;
  readonly grantStart: number;
  readonly grantEnd: number;
  surelyUntil: number;
  possiblyUntil: number;
  releaseStart: number;
  releaseEnd: number;
}

const REFUSALS_NEEDING_A_HOLDER = new Set(['LOCK_HELD', 'HELD_BY_CALLER', 'WAIT_TIMEOUT']);

/** Lists every safety violation in a lock history (empty when the history is safe). */
export function checkLockHistory(events: readonly LockEvent[]): Violation[] {
  const violations: Violation[] = [];
  const leases = new Map<string, Lease>(); // `${resource}\u0000${token}`
  const byResource = new Map<string, Lease[]>();
  const key = (resource: string, token: number) => `${resource}\u0000${token}`;

  for (const e of events) {
    if (e.op !== 'acquire' || !e.ok || e.renewed || e.grantedToken == null) continue;
    const k = key(e.resource, e.grantedToken);
    if (leases.has(k)) {
      violations.push({ kind: 'token-reused', message: `${e.resource}: token ${e.grantedToken} granted twice` });
      continue;
    }
    const ttl = e.ttlMs ?? 0;
    const lease: Lease = {
      resource: e.resource,
      token: e.grantedToken,
      agent: e.agent,
      grantStart: e.start,
      grantEnd: e.end,
      surelyUntil: e.start + ttl,
      possiblyUntil: e.end + ttl,
      releaseStart: Number.POSITIVE_INFINITY,
      releaseEnd: Number.POSITIVE_INFINITY,
    };
    leases.set(k, lease);
    const list = byResource.get(e.resource) ?? [];
    list.push(lease);
    byResource.set(e.resource, list);
  }

  // Renewals and releases reshape their lease (failed ones change nothing). A renewal sets the
  // end to (its moment + its ttl), shorter or longer: the lease ends as the last one set it.
  const setters = new Map<Lease, { start: number; end: number; ttl: number }[]>();
  for (const e of events) {
    const renewal = (e.op === 'renew' && e.ok) || (e.op === 'acquire' && e.ok && e.renewed);
    const release = e.op === 'release' && e.ok;
    if (!renewal && !release) continue;
    const token = e.op === 'acquire' ? e.grantedToken : e.token;
    const lease = token == null ? undefined : leases.get(key(e.resource, token));
    if (lease === undefined) {
      violations.push({ kind: 'unknown-token', message: `${e.resource}: ${e.op} succeeded with token ${token}, never granted` });
      continue;
    }
    if (renewal) {
      const list = setters.get(lease) ?? [{ start: lease.grantStart, end: lease.grantEnd, ttl: lease.surelyUntil - lease.grantStart }];
      list.push({ start: e.start, end: e.end, ttl: e.ttlMs ?? 0 });
      setters.set(lease, list);
    } else {
      lease.releaseStart = Math.min(lease.releaseStart, e.start);
      lease.releaseEnd = Math.min(lease.releaseEnd, e.end);
    }
  }
  for (const [lease, list] of setters) {
    // Any setter that may have taken effect after every other one may have set the final end.
    const lastStart = Math.max(...list.map((x) => x.start));
    const maybeLast = list.filter((x) => x.end >= lastStart);
    lease.surelyUntil = Math.min(...maybeLast.map((x) => x.start + x.ttl));
    lease.possiblyUntil = Math.max(...maybeLast.map((x) => x.end + x.ttl));
  }
  const surelyEnd = (l: Lease) => Math.min(l.surelyUntil, l.releaseStart);
  const possiblyEnd = (l: Lease) => Math.min(l.possiblyUntil, l.releaseEnd);

  for (const [resource, list] of byResource) {
    // Mutual exclusion: surely-live windows of two leases never overlap.
    const windows = list.filter((l) => l.grantEnd < surelyEnd(l)).sort((a, b) => a.grantEnd - b.grantEnd);
    let open: Lease | undefined;
    for (const l of windows) {
      if (open !== undefined && l.grantEnd < surelyEnd(open)) {
        violations.push({
          kind: 'two-holders',
          message: `${resource}: tokens ${open.token} (${open.agent}) and ${l.token} (${l.agent}) both surely held at t=${l.grantEnd.toFixed(3)}`,
        });
      }
      if (open === undefined || surelyEnd(l) > surelyEnd(open)) open = l;
    }
    // Tokens follow real-time order: a grant that surely came after another has a larger token.
    const byEnd = [...list].sort((a, b) => a.grantEnd - b.grantEnd);
    const byStart = [...list].sort((a, b) => a.grantStart - b.grantStart);
    let i = 0;
    let maxBefore: Lease | undefined;
    for (const l of byStart) {
      while (i < byEnd.length && byEnd[i]!.grantEnd < l.grantStart) {
        if (maxBefore === undefined || byEnd[i]!.token > maxBefore.token) maxBefore = byEnd[i];
        i++;
      }
      if (maxBefore !== undefined && maxBefore.token >= l.token) {
        violations.push({ kind: 'token-order', message: `${resource}: token ${l.token} granted after token ${maxBefore.token} had been` });
      }
    }
  }

  for (const e of events) {
    if (e.op === 'validate' && e.token !== undefined) {
      const lease = leases.get(key(e.resource, e.token));
      if (e.ok) {
        if (lease === undefined || lease.grantStart > e.end) {
          violations.push({ kind: 'validate-unknown', message: `${e.resource}: token ${e.token} validated but never granted before` });
        } else if (possiblyEnd(lease) <= e.start) {
          violations.push({ kind: 'validate-dead', message: `${e.resource}: token ${e.token} validated after its lease surely ended` });
        } else {
          const newer = byResource.get(e.resource)!.find((l) => l.token > e.token! && l.grantEnd <= e.start);
          if (newer !== undefined) violations.push({ kind: 'validate-stale', message: `${e.resource}: token ${e.token} validated after token ${newer.token} was granted` });
        }
      } else if (lease !== undefined && lease.grantEnd <= e.start && surelyEnd(lease) >= e.end) {
        violations.push({ kind: 'validate-live', message: `${e.resource}: token ${e.token} refused while surely live` });
      }
    }
    if (e.op === 'acquire' && !e.ok && e.reason != null && REFUSALS_NEEDING_A_HOLDER.has(e.reason)) {
      const someone = (byResource.get(e.resource) ?? []).some((l) => l.grantStart <= e.end && possiblyEnd(l) > e.start);
      if (!someone) violations.push({ kind: 'refused-free', message: `${e.resource}: acquire refused (${e.reason}) while no lease could be live` });
    }
  }
  return violations;
}

/** Lists every safety violation in a vote history (empty when the history is safe). */
export function checkVoteHistory(events: readonly VoteEvent[]): Violation[] {
  const violations: Violation[] = [];
  const byProposal = new Map<string, VoteEvent[]>();
  for (const e of events) {
    const list = byProposal.get(e.proposal) ?? [];
    list.push(e);
    byProposal.set(e.proposal, list);
  }
  const decisions: { proposal: string; epoch: number; start: number; end: number }[] = [];
  for (const [proposal, list] of byProposal) {
    const decided = list.filter((e) => e.decidedValue !== null);
    const outcomes = new Set(decided.map((e) => `${typeof e.decidedValue}:${String(e.decidedValue)}@${e.epoch}`));
    if (outcomes.size > 1) violations.push({ kind: 'two-decisions', message: `${proposal}: decided as ${[...outcomes].join(' and ')}` });
    const accepted = list.filter((e) => e.accepted);
    const agents = new Set<string>();
    for (const e of accepted) {
      if (agents.has(e.agent)) violations.push({ kind: 'double-count', message: `${proposal}: ${e.agent} counted twice` });
      agents.add(e.agent);
    }
    const needed = list.find((e) => e.needed !== null)?.needed ?? null;
    const tally = new Map<string, number>();
    for (const e of accepted) tally.set(`${typeof e.value}:${String(e.value)}`, (tally.get(`${typeof e.value}:${String(e.value)}`) ?? 0) + 1);
    const first = decided[0];
    if (first !== undefined) {
      const forIt = tally.get(`${typeof first.decidedValue}:${String(first.decidedValue)}`) ?? 0;
      if (needed !== null && forIt < needed) violations.push({ kind: 'short-quorum', message: `${proposal}: decided with ${forIt} accepted votes, quorum ${needed}` });
      const deciding = accepted.filter((e) => e.status === 'DECIDED');
      if (deciding.length !== 1) violations.push({ kind: 'deciding-votes', message: `${proposal}: ${deciding.length} accepted votes report the decision` });
      const surelyDecidedAt = Math.min(...decided.map((e) => e.end));
      const late = accepted.find((e) => e.start > surelyDecidedAt);
      if (late !== undefined) violations.push({ kind: 'vote-after-decision', message: `${proposal}: ${late.agent}'s vote accepted after the decision` });
      if (deciding[0] !== undefined && first.epoch !== null) decisions.push({ proposal, epoch: first.epoch, start: deciding[0].start, end: deciding[0].end });
    } else if (needed !== null && [...tally.values()].some((n) => n >= needed)) {
      violations.push({ kind: 'undecided', message: `${proposal}: a value has the quorum but nothing was decided` });
    }
  }
  const epochs = new Set<number>();
  for (const d of decisions) {
    if (epochs.has(d.epoch)) violations.push({ kind: 'epoch-reused', message: `epoch ${d.epoch} used twice` });
    epochs.add(d.epoch);
  }
  for (const a of decisions) {
    for (const b of decisions) {
      if (a.end < b.start && a.epoch >= b.epoch) violations.push({ kind: 'epoch-order', message: `${b.proposal} decided after ${a.proposal} with a smaller epoch` });
    }
  }
  return violations;
}
