/**
 * The Gatekeeper of CONTRACT.md §4 (AUTH_MODE optional|required): who is calling (key -> tenant
 * and plan, or an anonymous address), whether the burst limit allows the request, and one exact
 * unit of the monthly allowance, refunded when the response turns out to be the caller's fault.
 *
 * Per metered request:  authenticate (hash + table lookup) -> admit: token bucket -> usage.take
 * (check-and-increment, atomic) -> handler -> settle(status): a 4xx (499 = client left) refunds.
 * A store with `takeWithBurst` (Redis) does the burst check and the take in one round trip.
 */
import ipaddr from 'ipaddr.js';
import { PLAN_NAMES, type PlanName, type RateLimitSetting } from '../config.ts';
import { createError } from '../errors.ts';
import type { Logger } from '../observability/logger.ts';
import { SERVICE_IDS, type Admission, type Gatekeeper, type Principal, type RouteDef, type ServiceId } from '../server/types.ts';
import type { AuthMetrics } from './auth-metrics.ts';
import type { KeyRecord } from './key-store.ts';
import { periodAt, secondsUntilReset, type Period } from './period.ts';
import { buildPlans, quotaRule, type Plan, type QuotaRule } from './plans.ts';
import type { RateDecision } from './rate-limiter.ts';
import type { BurstTake, TakeResult, UsageCharge, UsageStore } from './usage-store.ts';

/** A principal that carries the subject its usage is counted under. */
export interface MeteredPrincipal extends Principal {
  /** `key:<id>` for keys, `ip:<address>` (IPv6: its /64) for anonymous callers. */
  readonly subject: string;
}

export interface KeyLookup {
  lookup(presented: string): KeyRecord | null;
}

export interface QuotaGatekeeperOptions {
  readonly mode: 'optional' | 'required';
  readonly keys: KeyLookup;
  readonly usage: UsageStore;
  /** TokenBucketLimiter (in process) or a shared one (Redis) that answers asynchronously. */
  readonly limiter: BurstLimiter;
  readonly rateLimit: RateLimitSetting;
  /** Use the last X-Forwarded-For hop (the one our proxy appended) as the anonymous address. */
  readonly trustProxy: boolean;
  /** When the usage store fails: `closed` answers 503 OVERLOADED, `open` serves uncounted. */
  readonly failMode: 'closed' | 'open';
  /** Wall clock in epoch ms (month boundaries); injectable for tests. */
  readonly now?: () => number;
  readonly plans?: ReadonlyMap<PlanName, Plan>;
  readonly metrics?: AuthMetrics;
  readonly logger?: Logger;
}

/** A burst limiter: TokenBucketLimiter in process, or a shared one (Redis, one script per call). */
export interface BurstLimiter {
  /** Takes one token from `subject`'s bucket refilled at `rps` per second; `rps` <= 0 means unlimited. */
  take(subject: string, rps: number): RateDecision | Promise<RateDecision>;
}

/** What GET /v1/usage reports. */
export interface UsageReport {
  readonly tenant: string;
  readonly key_id: string;
  readonly plan: PlanName;
  readonly period: string;
  readonly reset_at: string;
  readonly reset_in_s: number;
  readonly plan_allowance: { services: ServiceId[]; limit: number; used: number; remaining: number } | null;
  readonly services: Record<ServiceId, { included: boolean; used: number; limit: number; remaining: number }>;
}

const NO_ADMISSION: Admission = Object.freeze({});
type PlanKey = PlanName | 'anonymous';

export class QuotaGatekeeper implements Gatekeeper {
  readonly #o: QuotaGatekeeperOptions;
  readonly #now: () => number;
  readonly #plans: ReadonlyMap<PlanName, Plan>;
  /** rule per (plan or anonymous) and service, resolved once. */
  readonly #rules = new Map<PlanKey, Map<ServiceId, QuotaRule>>();
  readonly #tally = new Map<ServiceId, string>(SERVICE_IDS.map((s) => [s, `svc:${s}`]));
  readonly #principals = new WeakMap<KeyRecord, MeteredPrincipal>();
  #period: Period;
  #lastStoreWarning = 0;
  #resetSeconds = -1;
  #resetString = '';
  readonly #limitStrings = new Map<number, string>();

  constructor(options: QuotaGatekeeperOptions) {
    if (options.mode !== 'optional' && options.mode !== 'required') throw new TypeError('QuotaGatekeeper: mode must be optional or required');
    this.#o = options;
    this.#now = options.now ?? Date.now;
    this.#plans = options.plans ?? buildPlans();
    for (const plan of [...PLAN_NAMES, 'anonymous'] as const) {
      const byService = new Map<ServiceId, QuotaRule>();
      for (const s of SERVICE_IDS) byService.set(s, quotaRule(this.#plans, plan === 'anonymous' ? null : plan, s));
      this.#rules.set(plan, byService);
    }
    this.#period = periodAt(this.#now());
  }

  authenticate(input: { headers: Readonly<Record<string, string>>; clientIp: string; route: RouteDef }): Principal {
    const presented = presentedKey(input.headers);
    if (presented === null) {
      if (this.#o.mode === 'required' || input.route.requiresKey) {
        this.#o.metrics?.authFailure('missing_key');
        throw createError('UNAUTHORIZED', 'An API key is required: send Authorization: Bearer <key> or X-API-Key: <key>');
      }
      const principal: MeteredPrincipal = {
        tenantId: 'public',
        plan: null,
        keyId: null,
        anonymous: true,
        subject: `ip:${this.#anonymousAddress(input.headers, input.clientIp)}`,
      };
      return principal;
    }
    // A wrong key is refused even in optional mode: silently serving it as anonymous would hide the mistake.
    const rec = this.#o.keys.lookup(presented);
    if (rec === null) {
      this.#o.metrics?.authFailure('unknown_key');
      throw createError('UNAUTHORIZED', 'The API key is unknown or revoked');
    }
    let principal = this.#principals.get(rec);
    if (principal === undefined) {
      principal = Object.freeze({ tenantId: rec.tenant, plan: rec.plan, keyId: rec.id, anonymous: false, subject: `key:${rec.id}` });
      this.#principals.set(rec, principal);
    }
    return principal;
  }

  admit(principal: Principal, route: RouteDef): Admission | Promise<Admission> {
    const service = route.service;
    if (service === undefined) return NO_ADMISSION;
    const subject = subjectOf(principal);
    const planKey: PlanKey = principal.plan ?? 'anonymous';
    const rps = this.#o.rateLimit.perPlan[principal.plan ?? 'free'];
    if (rps > 0) {
      // A networked store that meters bursts itself does both checks in one round trip.
      if (this.#o.usage.takeWithBurst !== undefined) return this.#chargeWithBurst(subject, planKey, service, rps);
      const d = this.#o.limiter.take(subject, rps);
      if (d instanceof Promise) {
        // A shared (Redis) limiter: its failure follows QUOTA_FAIL_MODE like the usage store's.
        return d.then(
          (r) => {
            this.#checkBurst(r, rps, planKey, service);
            return this.#charge(subject, planKey, service);
          },
          (err: unknown) => this.#storeFailed(err, planKey, service),
        );
      }
      this.#checkBurst(d, rps, planKey, service);
    }
    return this.#charge(subject, planKey, service);
  }

  #checkBurst(d: RateDecision, rps: number, planKey: PlanKey, service: ServiceId): void {
    if (d.allowed) return;
    this.#o.metrics?.decision(planKey, service, 'rate_limited');
    throw createError('RATE_LIMITED', `Burst limit of ${rps} requests per second reached; retry later`, { headers: { 'retry-after': String(d.retryAfterS) } });
  }

  /** The unit one request takes: this month's bucket of the caller's plan for the service. */
  #chargeOf(subject: string, planKey: PlanKey, service: ServiceId): { now: number; period: Period; rule: QuotaRule; charge: UsageCharge } {
    const now = this.#now();
    const period = this.#currentPeriod(now);
    const rule = this.#rules.get(planKey)!.get(service)!;
    return { now, period, rule, charge: { period: period.id, subject, bucket: rule.bucket, limit: rule.limit, tally: this.#tally.get(service)! } };
  }

  #chargeWithBurst(subject: string, planKey: PlanKey, service: ServiceId, rps: number): Admission | Promise<Admission> {
    const { now, period, rule, charge } = this.#chargeOf(subject, planKey, service);
    let taken: Promise<BurstTake>;
    try {
      taken = this.#o.usage.takeWithBurst!(charge, rps);
    } catch (err) {
      return this.#storeFailed(err, planKey, service);
    }
    return taken.then(
      (r) => {
        if (r.rateLimited) this.#checkBurst({ allowed: false, retryAfterS: r.retryAfterS }, rps, planKey, service);
        return this.#decide(r.take!, charge, rule, period, now, planKey, service);
      },
      (err: unknown) => this.#storeFailed(err, planKey, service),
    );
  }

  #charge(subject: string, planKey: PlanKey, service: ServiceId): Admission | Promise<Admission> {
    const { now, period, rule, charge } = this.#chargeOf(subject, planKey, service);
    let taken: TakeResult | Promise<TakeResult>;
    try {
      taken = this.#o.usage.take(charge);
    } catch (err) {
      return this.#storeFailed(err, planKey, service);
    }
    if (taken instanceof Promise) {
      return taken.then(
        (r) => this.#decide(r, charge, rule, period, now, planKey, service),
        (err: unknown) => this.#storeFailed(err, planKey, service),
      );
    }
    return this.#decide(taken, charge, rule, period, now, planKey, service);
  }

  /** The caller's counts this period (GET /v1/usage). */
  async usage(principal: Principal): Promise<UsageReport> {
    if (principal.anonymous || principal.plan === null || principal.keyId === null) throw createError('UNAUTHORIZED', 'GET /v1/usage needs an API key');
    const now = this.#now();
    const period = this.#currentPeriod(now);
    const counters = await this.#o.usage.read(period.id, subjectOf(principal));
    const plan = this.#plans.get(principal.plan)!;
    const rules = this.#rules.get(principal.plan)!;
    const pooledUsed = counters.plan ?? 0;
    const services = {} as UsageReport['services'];
    for (const s of SERVICE_IDS) {
      const rule = rules.get(s)!;
      const bucketUsed = counters[rule.bucket] ?? 0;
      services[s] = { included: rule.inPlan, used: counters[this.#tally.get(s)!] ?? 0, limit: rule.limit, remaining: Math.max(0, rule.limit - bucketUsed) };
    }
    const included = SERVICE_IDS.filter((s) => rules.get(s)!.inPlan);
    return {
      tenant: principal.tenantId,
      key_id: principal.keyId,
      plan: principal.plan,
      period: period.id,
      reset_at: new Date(period.endMs).toISOString(),
      reset_in_s: secondsUntilReset(period, now),
      plan_allowance: included.length === 0 ? null : { services: included, limit: plan.monthlyAllowance, used: pooledUsed, remaining: Math.max(0, plan.monthlyAllowance - pooledUsed) },
      services,
    };
  }

  #decide(r: TakeResult, charge: UsageCharge, rule: QuotaRule, period: Period, now: number, planKey: PlanKey, service: ServiceId): Admission {
    const reset = this.#resetText(period, now);
    const limit = this.#limitText(rule.limit);
    if (!r.granted) {
      this.#o.metrics?.decision(planKey, service, rule.exhausted === 'FORBIDDEN' ? 'forbidden' : 'quota_exceeded');
      const message =
        rule.exhausted === 'FORBIDDEN'
          ? `The plan of this key does not include ${service} and its free tier of ${rule.limit} requests this month is used up`
          : `Monthly allowance of ${rule.limit} requests used up; it resets at ${new Date(period.endMs).toISOString()}`;
      throw createError(rule.exhausted, message, {
        headers: { 'retry-after': reset, 'ratelimit-limit': limit, 'ratelimit-remaining': '0', 'ratelimit-reset': reset },
      });
    }
    this.#o.metrics?.decision(planKey, service, 'admitted');
    const usage = this.#o.usage;
    const metrics = this.#o.metrics;
    const logger = this.#o.logger;
    let settled = false;
    return {
      headers: { 'ratelimit-limit': limit, 'ratelimit-remaining': String(Math.max(0, rule.limit - r.used)), 'ratelimit-reset': reset },
      settle(status: number) {
        if (settled) return;
        settled = true;
        // Errors caused by the caller (4xx, 499 = the client left) are not counted (CONTRACT.md §4).
        if (status < 400 || status >= 500) return;
        metrics?.decision(planKey, service, 'refunded');
        try {
          const done = usage.refund(charge);
          if (done instanceof Promise) done.catch(() => logger?.warn({ service }, 'usage refund failed'));
        } catch {
          logger?.warn({ service }, 'usage refund failed');
        }
      },
    };
  }

  #storeFailed(err: unknown, planKey: PlanKey, service: ServiceId): Admission {
    this.#o.metrics?.decision(planKey, service, 'store_unavailable');
    const now = Date.now();
    if (now - this.#lastStoreWarning > 10_000) {
      this.#lastStoreWarning = now;
      this.#o.logger?.error({ failMode: this.#o.failMode, err: err instanceof Error ? err.name : typeof err }, 'usage store unavailable');
    }
    if (this.#o.failMode === 'open') return NO_ADMISSION;
    throw createError('OVERLOADED', 'Usage metering is unavailable; retry later', { headers: { 'retry-after': '1' } });
  }

  /** Seconds to the reset as text, recomputed once per second rather than per request. */
  #resetText(period: Period, now: number): string {
    const s = secondsUntilReset(period, now);
    if (s !== this.#resetSeconds) {
      this.#resetSeconds = s;
      this.#resetString = String(s);
    }
    return this.#resetString;
  }

  #limitText(limit: number): string {
    let t = this.#limitStrings.get(limit);
    if (t === undefined) {
      t = String(limit);
      this.#limitStrings.set(limit, t);
    }
    return t;
  }

  #currentPeriod(now: number): Period {
    if (now >= this.#period.endMs || now < this.#period.startMs) this.#period = periodAt(now);
    return this.#period;
  }

  /**
   * The address an anonymous caller is counted under. With TRUST_PROXY the last X-Forwarded-For
   * hop is used: it is the one our own proxy appended; earlier hops are whatever the client sent.
   * IPv6 callers are counted per /64 (one customer line), IPv4-mapped addresses as IPv4.
   */
  #anonymousAddress(headers: Readonly<Record<string, string>>, clientIp: string): string {
    let raw = clientIp;
    const xff = this.#o.trustProxy ? headers['x-forwarded-for'] : undefined;
    if (xff !== undefined) {
      const last = xff.slice(xff.lastIndexOf(',') + 1).trim();
      if (ipaddr.isValid(last)) raw = last;
    }
    return normaliseAddress(raw);
  }
}

/** The key from `Authorization: Bearer <key>` or `X-API-Key: <key>`; null when neither is sent. */
export function presentedKey(headers: Readonly<Record<string, string>>): string | null {
  const auth = headers.authorization;
  if (auth !== undefined && auth.length > 7 && (auth.charCodeAt(6) === 0x20 || auth.charCodeAt(6) === 0x09) && auth.slice(0, 6).toLowerCase() === 'bearer') {
    const key = auth.slice(7).trim();
    // One token only: `Bearer a b` is malformed, not the key "a b".
    if (key !== '' && !/\s/.test(key)) return key;
  }
  const x = headers['x-api-key'];
  if (x !== undefined) {
    const t = x.trim();
    if (t !== '') return t;
  }
  return null;
}

/** IPv4 as is; IPv4-mapped IPv6 as IPv4; other IPv6 as its /64 prefix; anything unparsable, truncated. */
export function normaliseAddress(raw: string): string {
  try {
    const addr = ipaddr.process(raw.trim());
    if (addr.kind() === 'ipv4') return addr.toString();
    const parts = (addr as ipaddr.IPv6).parts;
    return `${parts.slice(0, 4).map((p) => p.toString(16)).join(':')}::/64`;
  } catch {
    return raw.slice(0, 64);
  }
}

function subjectOf(principal: Principal): string {
  const subject = (principal as Partial<MeteredPrincipal>).subject;
  if (subject !== undefined) return subject;
  return principal.keyId !== null ? `key:${principal.keyId}` : `tenant:${principal.tenantId}`;
}
