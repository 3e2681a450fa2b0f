/**
 * API-21 core cost without HTTP: what one operation takes inline on the event loop. The floor is
 * a bare Map lock (get/set/delete, no lease, token, queue or tenant), same run. Correctness is
 * asserted before timing.
 */
import { Bench } from 'tinybench';
import { systemClock } from '../../src/services/consensus/clock.ts';
import { ConsensusCore } from '../../src/services/consensus/core.ts';
import { MemoryLockStore } from '../../src/services/consensus/memory-lock-store.ts';
import { MemoryProposalStore } from '../../src/services/consensus/memory-proposal-store.ts';
import { decideWeighted } from '../../src/services/consensus/quorum.ts';
import { printReport } from '../lib/harness.ts';

const clock = systemClock();
const locks = new MemoryLockStore({ clock, maxResources: 100_000 });
// Proposals live 1 s here, so the sweep runs during the timing and the table stays at a steady size.
const proposals = new MemoryProposalStore({ clock, ttlMs: 1000, maxProposals: 1_000_000 });
const core = new ConsensusCore({ clock, locks, proposals });

// Correctness before timing.
{
  const a = await core.handle('t', { operation: 'acquire', resource: 'check', agent_id: 'a', ttl_ms: 5000 });
  const b = await core.handle('t', { operation: 'acquire', resource: 'check', agent_id: 'b', ttl_ms: 5000 });
  const r = await core.handle('t', { operation: 'release', resource: 'check', agent_id: 'a', fencing_token: a.fencing_token as number });
  console.assert(a.granted === true && b.granted === false && r.released === true, 'acquire, refuse, release behave');
}

const bare = new Map<string, string>();
const weighted = Array.from({ length: 100 }, (_, i) => ({ agentId: `a${i}`, value: `v${i % 3}`, weight: 1 + (i % 5) }));
let sink = 0;
let n = 0;
const bench = new Bench({ time: 1500, warmupTime: 300 });
bench
  .add('bare Map lock: set + delete (floor)', () => {
    const k = `r${n++ % 1000}`;
    if (!bare.has(k)) bare.set(k, 'a');
    bare.delete(k);
  })
  .add('MemoryLockStore acquire + release', async () => {
    const resource = `r${n++ % 1000}`;
    const o = await locks.acquire('t', { resource, agentId: 'a', ttlMs: 10_000, waitMs: 0, token: null });
    await locks.release('t', { resource, agentId: 'a', token: o.token! });
  })
  .add('core acquire + release (responses built)', async () => {
    const resource = `c${n++ % 1000}`;
    const o = await core.handle('t', { operation: 'acquire', resource, agent_id: 'a', ttl_ms: 10_000 });
    await core.handle('t', { operation: 'release', resource, agent_id: 'a', fencing_token: o.fencing_token as number });
  })
  .add('core validate', async () => {
    sink += (await core.handle('t', { operation: 'validate', resource: 'nobody', fencing_token: 1 })).valid ? 1 : 0;
  })
  .add('core vote x3 on a fresh proposal (decides)', async () => {
    const proposal_id = `p${n++}`;
    for (const agent_id of ['a', 'b', 'c']) await core.handle('t', { operation: 'vote', proposal_id, agent_id, value: 'yes', quorum: 3 });
  })
  .add('decideWeighted, 100 votes', () => {
    sink += decideWeighted(weighted, { kind: 'fraction', fraction: 0.5 }, null).votesFor;
  });
await bench.run();
if (sink === -1) console.log(sink);

const rows = bench.tasks.map((t) => {
  const r = t.result as unknown as { latency: { mean: number; p50?: number; p99?: number }; throughput: { mean: number } };
  return { label: t.name, opsPerSec: r.throughput.mean, p50Ms: r.latency.p50 ?? r.latency.mean, p99Ms: r.latency.p99 ?? r.latency.mean, extra: { 'µs per op': (1e6 / r.throughput.mean).toFixed(2) } };
});
const ops = (label: string) => rows.find((r) => r.label === label)!.opsPerSec;
printReport({
  name: 'API-21 core, no HTTP (one op = the row\'s whole sequence)',
  service: 'API-21',
  rows,
  ratios: { 'store pair / bare Map floor (time per op)': ops('bare Map lock: set + delete (floor)') / ops('MemoryLockStore acquire + release') },
  notes: ['inline on the event loop: no worker hop (a pool hop alone costs ~0.1 ms)'],
});
await Promise.all([locks.close(), proposals.close()]);
