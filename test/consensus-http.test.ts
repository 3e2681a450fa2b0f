import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { consensusFactory } from '../src/services/consensus/index.ts';
import { PUBLIC_PRINCIPAL, type Gatekeeper } from '../src/server/types.ts';
import { startTestGateway, type TestGateway } from './helpers/gateway.ts';

const PATH = '/v1/swarms/consensus';
const LABEL = '[API-21] Swarms Consensus';

/** Tenant from the X-API-Key header, so one gateway can serve two tenants. */
const tenantByHeader: Gatekeeper = {
  authenticate: ({ headers }) => (headers['x-api-key'] ? { tenantId: headers['x-api-key'], plan: 'pack3', keyId: headers['x-api-key'], anonymous: false } : PUBLIC_PRINCIPAL),
  admit: () => ({}),
};

type Body = Record<string, any>;

describe('POST /v1/swarms/consensus', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ gateway: { factories: [consensusFactory], gatekeeper: tenantByHeader } });
  });
  after(() => gw.close());

  const call = async (body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: Body }> => {
    const res = await gw.post(PATH, body, headers);
    return { status: res.status, body: (await res.json()) as Body };
  };
  const ok = async (body: unknown, headers: Record<string, string> = {}): Promise<Body> => {
    const r = await call(body, headers);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.success, true);
    assert.equal(r.body.api, LABEL);
    assert.equal(typeof r.body.latency_ms, 'number');
    return r.body;
  };

  it('runs a lease through acquire, renew, validate, status and release', async () => {
    const a = await ok({ operation: 'acquire', resource: 'orders-db', agent_id: 'agent-1', ttl_ms: 5000 });
    assert.equal(a.operation, 'acquire');
    assert.equal(a.granted, true);
    assert.equal(a.reason, null);
    assert.equal(a.holder, 'agent-1');
    assert.ok(Number.isSafeInteger(a.fencing_token) && a.fencing_token > 0);
    const ends = Date.parse(a.expires_at);
    assert.ok(Math.abs(ends - (Date.now() + 5000)) < 1000, a.expires_at);
    assert.ok(a.expires_in_ms > 4000 && a.expires_in_ms <= 5000);

    const r = await ok({ operation: 'renew', resource: 'orders-db', agent_id: 'agent-1', fencing_token: a.fencing_token, ttl_ms: 20_000 });
    assert.deepEqual([r.granted, r.fencing_token, r.holder], [true, a.fencing_token, 'agent-1']);
    assert.ok(r.expires_in_ms > 19_000);

    const v = await ok({ operation: 'validate', resource: 'orders-db', fencing_token: a.fencing_token });
    assert.deepEqual([v.valid, v.reason, v.current_token], [true, null, a.fencing_token]);

    const s = await ok({ operation: 'status', resource: 'orders-db' });
    assert.deepEqual([s.held, s.holder, s.fencing_token, s.waiters], [true, 'agent-1', a.fencing_token, 0]);

    const l = await ok({ operation: 'release', resource: 'orders-db', agent_id: 'agent-1', fencing_token: a.fencing_token });
    assert.deepEqual([l.granted, l.released, l.reason, l.holder], [true, true, null, null]);
    const gone = await ok({ operation: 'validate', resource: 'orders-db', fencing_token: a.fencing_token });
    assert.deepEqual([gone.valid, gone.reason, gone.current_token], [false, 'NOT_HELD', null]);
  });

  it('refuses a stale token in the body with status 200 and changes nothing', async () => {
    const old = await ok({ operation: 'acquire', resource: 'stale', agent_id: 'a', ttl_ms: 100 });
    await new Promise((r) => setTimeout(r, 150));
    const cur = await ok({ operation: 'acquire', resource: 'stale', agent_id: 'b', ttl_ms: 5000 });
    assert.ok(cur.fencing_token > old.fencing_token);
    for (const operation of ['renew', 'release']) {
      const r = await ok({ operation, resource: 'stale', agent_id: 'a', fencing_token: old.fencing_token });
      assert.deepEqual([r.granted, r.reason, r.holder], [false, 'STALE_TOKEN', 'b']);
    }
    const s = await ok({ operation: 'status', resource: 'stale' });
    assert.deepEqual([s.holder, s.fencing_token], ['b', cur.fencing_token]);
  });

  const invalid: [string, Body, string][] = [
    ['an unknown operation', { operation: 'steal', resource: 'x' }, '/operation'],
    ['no operation', { resource: 'x' }, '/operation'],
    ['acquire without a resource', { operation: 'acquire', agent_id: 'a' }, '/resource'],
    ['acquire without an agent', { operation: 'acquire', resource: 'x' }, '/agent_id'],
    ['a ttl below 100 ms', { operation: 'acquire', resource: 'x', agent_id: 'a', ttl_ms: 99 }, '/ttl_ms'],
    ['a ttl above 10 minutes', { operation: 'acquire', resource: 'x', agent_id: 'a', ttl_ms: 600_001 }, '/ttl_ms'],
    ['a fractional ttl', { operation: 'acquire', resource: 'x', agent_id: 'a', ttl_ms: 1000.5 }, '/ttl_ms'],
    ['a wait above 10 s', { operation: 'acquire', resource: 'x', agent_id: 'a', wait_ms: 10_001 }, '/wait_ms'],
    ['an empty resource', { operation: 'status', resource: '' }, '/resource'],
    ['a resource over 256 chars', { operation: 'status', resource: 'r'.repeat(257) }, '/resource'],
    ['renew without a token', { operation: 'renew', resource: 'x', agent_id: 'a' }, '/fencing_token'],
    ['a token of 0', { operation: 'validate', resource: 'x', fencing_token: 0 }, '/fencing_token'],
    ['a token as a string', { operation: 'validate', resource: 'x', fencing_token: '12' }, '/fencing_token'],
    ['vote without a quorum', { operation: 'vote', proposal_id: 'p', agent_id: 'a', value: 'x' }, '/quorum'],
    ['a fractional vote count', { operation: 'vote', proposal_id: 'p', agent_id: 'a', value: 'x', quorum: 1.5 }, '/quorum'],
    ['a fraction of 0', { operation: 'vote', proposal_id: 'p', agent_id: 'a', value: 'x', quorum: { fraction: 0 } }, '/quorum'],
    ['a fraction without an electorate', { operation: 'vote', proposal_id: 'p-new', agent_id: 'a', value: 'x', quorum: { fraction: 0.5 } }, '/electorate'],
    ['a count above the electorate', { operation: 'vote', proposal_id: 'p-new', agent_id: 'a', value: 'x', quorum: 3, electorate: ['a', 'b'] }, '/quorum'],
    ['an electorate listing an agent twice', { operation: 'vote', proposal_id: 'p', agent_id: 'a', value: 'x', quorum: 1, electorate: ['a', 'a'] }, '/electorate'],
    ['an object as a vote value', { operation: 'vote', proposal_id: 'p', agent_id: 'a', value: { x: 1 }, quorum: 1 }, '/value'],
    ['decide with no votes', { operation: 'decide', votes: [], quorum: 1 }, '/votes'],
    ['a negative weight', { operation: 'decide', votes: [{ agent_id: 'a', value: 1, weight: -1 }], quorum: 1 }, '/votes/0/weight'],
  ];
  for (const [label, body, path] of invalid) {
    it(`answers 400 VALIDATION_FAILED at ${path} for ${label}`, async () => {
      const r = await call(body);
      assert.equal(r.status, 400);
      assert.equal(r.body.success, false);
      assert.equal(r.body.api, LABEL);
      assert.equal(r.body.error.code, 'VALIDATION_FAILED');
      assert.ok(r.body.error.details.some((d: { path: string }) => d.path === path), JSON.stringify(r.body.error.details));
    });
  }

  it('queues a waiting acquire without blocking other requests, and grants it on release', async () => {
    const held = await ok({ operation: 'acquire', resource: 'queue', agent_id: 'first', ttl_ms: 10_000 });
    const started = performance.now();
    const waiting = ok({ operation: 'acquire', resource: 'queue', agent_id: 'second', ttl_ms: 5000, wait_ms: 5000 });
    await new Promise((r) => setTimeout(r, 50));
    const s = await ok({ operation: 'status', resource: 'queue' });
    assert.equal(s.waiters, 1);
    assert.ok(performance.now() - started < 1000, 'status answered while the acquire waits');
    await ok({ operation: 'release', resource: 'queue', agent_id: 'first', fencing_token: held.fencing_token });
    const w = await waiting;
    assert.deepEqual([w.granted, w.holder], [true, 'second']);
    assert.ok(w.fencing_token > held.fencing_token);
    assert.ok(w.waited_ms >= 40);
  });

  it('drops a waiter whose client went away', async () => {
    await ok({ operation: 'acquire', resource: 'leave', agent_id: 'first', ttl_ms: 10_000 });
    const ac = new AbortController();
    const gone = fetch(gw.url + PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ operation: 'acquire', resource: 'leave', agent_id: 'second', wait_ms: 8000 }),
      signal: ac.signal,
    }).catch(() => 'aborted');
    await new Promise((r) => setTimeout(r, 50));
    assert.equal((await ok({ operation: 'status', resource: 'leave' })).waiters, 1);
    ac.abort();
    assert.equal(await gone, 'aborted');
    let waiters = 1;
    for (let i = 0; i < 50 && waiters !== 0; i++) {
      await new Promise((r) => setTimeout(r, 20));
      waiters = (await ok({ operation: 'status', resource: 'leave' })).waiters;
    }
    assert.equal(waiters, 0);
  });

  it('keeps each tenant to its own locks and proposals', async () => {
    const a = await ok({ operation: 'acquire', resource: 'shared-name', agent_id: 'x' }, { 'x-api-key': 'tenant-a' });
    const b = await ok({ operation: 'acquire', resource: 'shared-name', agent_id: 'x' }, { 'x-api-key': 'tenant-b' });
    assert.deepEqual([a.granted, b.granted], [true, true]);
    const cross = await ok({ operation: 'release', resource: 'shared-name', agent_id: 'x', fencing_token: a.fencing_token }, { 'x-api-key': 'tenant-b' });
    assert.equal(cross.released, a.fencing_token === b.fencing_token);
    assert.equal((await ok({ operation: 'status', resource: 'shared-name' }, { 'x-api-key': 'tenant-a' })).holder, 'x');
    assert.equal((await ok({ operation: 'status', resource: 'shared-name' })).held, false);
    await ok({ operation: 'vote', proposal_id: 'deploy', agent_id: 'x', value: 'yes', quorum: 2 }, { 'x-api-key': 'tenant-a' });
    const other = await ok({ operation: 'vote', proposal_id: 'deploy', agent_id: 'y', value: 'yes', quorum: 2 }, { 'x-api-key': 'tenant-b' });
    assert.deepEqual([other.votes_total, other.status], [1, 'PENDING']);
  });

  it('decides a vote, reports later and repeated votes as ignored, and keeps the decision', async () => {
    const body = (agent_id: string, value: unknown) => ({ operation: 'vote', proposal_id: 'release-42', agent_id, value, quorum: { fraction: 0.6 }, electorate: ['a', 'b', 'c', 'd', 'e'] });
    const first = await ok(body('a', 'ship'));
    assert.deepEqual(
      [first.vote_accepted, first.status, first.consensus_verified, first.decided_value, first.votes_for, first.votes_total, first.quorum, first.epoch, first.electorate_size],
      [true, 'PENDING', false, null, 1, 1, 3, null, 5],
    );
    assert.equal((await ok(body('a', 'hold'))).reason, 'DUPLICATE_VOTE');
    await ok(body('b', 'hold'));
    await ok(body('c', 'ship'));
    const d = await ok(body('d', 'ship'));
    assert.deepEqual([d.status, d.consensus_verified, d.decided_value, d.votes_for, d.votes_total], ['DECIDED', true, 'ship', 3, 4]);
    assert.ok(Number.isSafeInteger(d.epoch));
    const late = await ok(body('e', 'hold'));
    assert.deepEqual([late.vote_accepted, late.reason, late.decided_value, late.epoch], [false, 'ALREADY_DECIDED', 'ship', d.epoch]);
  });

  it('answers a weighted one-shot decision with a fresh epoch, and reports ties', async () => {
    const d = await ok({ operation: 'decide', quorum: { fraction: 0.5 }, votes: [{ agent_id: 'a', value: 'x', weight: 3 }, { agent_id: 'b', value: 'y' }, { agent_id: 'c', value: 'y' }] });
    assert.deepEqual([d.status, d.consensus_verified, d.decided_value, d.votes_for, d.votes_total, d.quorum], ['DECIDED', true, 'x', 3, 5, 2.5]);
    const d2 = await ok({ operation: 'decide', quorum: 1, votes: [{ agent_id: 'a', value: 1 }] });
    assert.ok(d2.epoch > d.epoch);
    const tie = await ok({ operation: 'decide', quorum: 1, votes: [{ agent_id: 'a', value: 'x' }, { agent_id: 'b', value: 'y' }] });
    assert.deepEqual([tie.status, tie.consensus_verified, tie.decided_value, tie.epoch, tie.tie], ['TIE', false, null, null, true]);
  });

  it('is in the OpenAPI document and reported up by health', async () => {
    const doc = (await (await gw.get('/v1/openapi.json')).json()) as Body;
    const op = doc.paths[PATH].post;
    assert.deepEqual(op.requestBody.content['application/json'].schema.properties.operation.anyOf.map((s: Body) => s.enum[0]), ['acquire', 'renew', 'release', 'status', 'validate', 'vote', 'decide']);
    assert.ok(op.responses['200'].content['application/json'].schema.properties.fencing_token);
    const health = (await (await gw.get('/v1/health')).json()) as Body;
    assert.equal(health.services['API-21'], 'up');
  });
});
