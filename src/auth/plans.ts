/**
 * Plans as data (CONTRACT.md §4). Plans are cumulative: each one includes the services of the
 * plans below it (free ⊂ pack1 ⊂ pack2 ⊂ pack3 ⊂ pack4) and has one monthly allowance pooled over
 * all of its services. Every service outside a plan keeps the free tier of FREE_TIER_PER_SERVICE
 * requests per calendar month (UTC). Nothing here branches on a plan name: changing the offer is
 * an edit of PLAN_TABLE.
 */
import { PLAN_NAMES, type PlanName } from '../config.ts';
import { SERVICE_IDS, type ServiceId } from '../server/types.ts';

/** Requests per service per month for services outside the caller's plan (and for anonymous callers). */
export const FREE_TIER_PER_SERVICE = 100;

interface PlanRow {
  readonly name: PlanName;
  /** Services this plan adds to the ones of the plan below. */
  readonly adds: readonly ServiceId[];
  /** Requests per calendar month, pooled over every service of the plan (0 = no pooled allowance). */
  readonly monthlyAllowance: number;
}

/** The contract's table, in order. pack2 is not described by the specification: same as pack1 until defined. */
export const PLAN_TABLE: readonly PlanRow[] = [
  { name: 'free', adds: [], monthlyAllowance: 0 },
  { name: 'pack1', adds: ['API-01', 'API-05', 'API-09'], monthlyAllowance: 10_000 },
  { name: 'pack2', adds: [], monthlyAllowance: 10_000 },
  { name: 'pack3', adds: ['API-08', 'API-21'], monthlyAllowance: 250_000 },
  { name: 'pack4', adds: ['API-138'], monthlyAllowance: 1_000_000 },
];

export interface Plan {
  readonly name: PlanName;
  /** Every service the plan includes (its own and those of the plans below). */
  readonly services: ReadonlySet<ServiceId>;
  readonly monthlyAllowance: number;
}

/** Resolves the cumulative table once: plan name -> services and allowance. */
export function buildPlans(table: readonly PlanRow[] = PLAN_TABLE): ReadonlyMap<PlanName, Plan> {
  const plans = new Map<PlanName, Plan>();
  const included = new Set<ServiceId>();
  for (const row of table) {
    for (const s of row.adds) {
      if (!SERVICE_IDS.includes(s)) throw new TypeError(`plan ${row.name} adds unknown service ${s}`);
      included.add(s);
    }
    if (!Number.isSafeInteger(row.monthlyAllowance) || row.monthlyAllowance < 0) throw new RangeError(`plan ${row.name}: bad allowance`);
    plans.set(row.name, Object.freeze({ name: row.name, services: new Set(included), monthlyAllowance: row.monthlyAllowance }));
  }
  for (const name of PLAN_NAMES) if (!plans.has(name)) throw new TypeError(`plan table misses ${name}`);
  return plans;
}

/** The counter a request draws from and its limit. */
export interface QuotaRule {
  /** `plan` (the pooled allowance) or `free:<service>` (the free tier of one service). */
  readonly bucket: string;
  readonly limit: number;
  /** The service is part of the plan (drawn from the pooled allowance). */
  readonly inPlan: boolean;
  /**
   * The error once the counter is used up: QUOTA_EXCEEDED (429) for the plan's own allowance and
   * for callers whose whole plan is the free tier; FORBIDDEN (403) when a paying plan does not
   * include the service and its free tier is used up.
   */
  readonly exhausted: 'QUOTA_EXCEEDED' | 'FORBIDDEN';
}

/**
 * Which counter a request of `plan` (null = anonymous) to `service` draws from. A service inside
 * the plan draws from the pool only (its free 100 are not added on top); a service outside draws
 * from its own free tier.
 */
export function quotaRule(plans: ReadonlyMap<PlanName, Plan>, plan: PlanName | null, service: ServiceId): QuotaRule {
  const p = plan === null ? undefined : plans.get(plan);
  if (p !== undefined && p.services.has(service) && p.monthlyAllowance > 0) {
    return { bucket: 'plan', limit: p.monthlyAllowance, inPlan: true, exhausted: 'QUOTA_EXCEEDED' };
  }
  const paying = p !== undefined && p.monthlyAllowance > 0;
  return { bucket: `free:${service}`, limit: FREE_TIER_PER_SERVICE, inPlan: false, exhausted: paying ? 'FORBIDDEN' : 'QUOTA_EXCEEDED' };
}
