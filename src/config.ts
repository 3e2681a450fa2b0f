/**
 * Environment schema -> one frozen Config. Every variable is parsed once, at boot; all errors are
 * collected and reported together, each naming the variable and what it accepts.
 * README.md documents every variable of VARIABLES (a test checks that).
 */
import { availableParallelism } from 'node:os';
import path from 'node:path';

export const PLAN_NAMES = ['free', 'pack1', 'pack2', 'pack3', 'pack4'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

export type AuthMode = 'off' | 'optional' | 'required';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface RateLimitSetting {
  /** Requests per second per key for each plan; 0 = no burst limit. */
  perPlan: Readonly<Record<PlanName, number>>;
}

export interface Config {
  readonly host: string;
  readonly port: number;
  readonly logLevel: LogLevel;
  readonly maxBodyBytes: number;
  readonly bodyTimeoutMs: number;
  /** Allowed CORS origins; `'*'` allows any; empty = CORS off. */
  readonly corsOrigins: readonly string[] | '*';
  readonly workerThreads: number;
  readonly workerQueueMax: number;
  readonly shutdownTimeoutMs: number;
  readonly dataDir: string;
  readonly trustProxy: boolean;
  readonly authMode: AuthMode;
  readonly apiKeysFile: string;
  readonly rateLimit: RateLimitSetting;
  readonly fetch: {
    readonly allowedPorts: readonly number[];
    readonly maxBytes: number;
    readonly timeoutMs: number;
    readonly allowPrivate: boolean;
  };
  readonly cache: {
    readonly maxEntries: number;
    readonly embedder: 'glove' | 'transformers';
    readonly modelDir: string | null;
  };
  readonly consensus: {
    readonly proposalTtlMs: number;
    readonly maxResources: number;
    readonly maxProposals: number;
  };
  readonly sepa: {
    readonly payeeDirectory: string | null;
    readonly auditSigningKey: string | null;
    readonly auditLog: string | null;
  };
  readonly state: {
    readonly backend: 'memory' | 'redis';
    readonly redisUrl: string | null;
    readonly quotaFailMode: 'closed' | 'open';
  };
}

type Parser<T> = (raw: string) => T;

class ParseError extends Error {}

const int =
  (min: number, max: number): Parser<number> =>
  (raw) => {
    if (!/^\d+$/.test(raw.trim())) throw new ParseError(`an integer from ${min} to ${max}`);
    const n = Number(raw.trim());
    if (!Number.isSafeInteger(n) || n < min || n > max) throw new ParseError(`an integer from ${min} to ${max}`);
    return n;
  };

const bool: Parser<boolean> = (raw) => {
  const v = raw.trim().toLowerCase();
  if (v === '1' || v === 'true' || v === 'yes' || v === 'on') return true;
  if (v === '0' || v === 'false' || v === 'no' || v === 'off' || v === '') return false;
  throw new ParseError('one of 1, 0, true, false, yes, no, on, off');
};

const oneOf =
  <T extends string>(...values: readonly T[]): Parser<T> =>
  (raw) => {
    const v = raw.trim().toLowerCase() as T;
    if (!values.includes(v)) throw new ParseError(`one of ${values.join(', ')}`);
    return v;
  };

const text: Parser<string> = (raw) => raw;

const optionalText: Parser<string | null> = (raw) => (raw.trim() === '' ? null : raw);

const portList: Parser<number[]> = (raw) => {
  if (raw.trim() === '') return [];
  const parsePort = int(1, 65535);
  return raw.split(',').map((p) => {
    try {
      return parsePort(p);
    } catch {
      throw new ParseError('a comma-separated list of ports from 1 to 65535');
    }
  });
};

const origins: Parser<string[] | '*'> = (raw) => {
  const v = raw.trim();
  if (v === '') return [];
  if (v === '*') return '*';
  return v.split(',').map((o) => {
    const origin = o.trim();
    let u: URL;
    try {
      u = new URL(origin);
    } catch {
      throw new ParseError('"*" or a comma-separated list of origins such as https://app.example.com');
    }
    if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.origin !== origin.replace(/\/$/, '')) {
      throw new ParseError('"*" or a comma-separated list of origins such as https://app.example.com');
    }
    return u.origin;
  });
};

/**
 * `RATE_LIMIT_RPS`: one number for every plan (`20`), or a list (`free=5,pack1=50,pack4=1000`).
 * In a list, a plan not named takes the value of the nearest lower plan that is named (pack2 takes
 * pack1's), and a plan below every named one is unlimited. `0` turns the limit off.
 */
export const parseRateLimit: Parser<RateLimitSetting> = (raw) => {
  const accepted = 'a number of requests per second (0 = off) or a list such as free=5,pack1=50,pack4=1000';
  const v = raw.trim();
  const num = (s: string): number => {
    if (!/^\d+(\.\d+)?$/.test(s)) throw new ParseError(accepted);
    const n = Number(s);
    if (!Number.isFinite(n) || n > 1_000_000) throw new ParseError(accepted);
    return n;
  };
  if (!v.includes('=')) {
    const n = num(v);
    return { perPlan: Object.freeze(Object.fromEntries(PLAN_NAMES.map((p) => [p, n])) as Record<PlanName, number>) };
  }
  const given = new Map<PlanName, number>();
  for (const part of v.split(',')) {
    const [name, value, ...rest] = part.split('=').map((s) => s.trim());
    if (rest.length > 0 || !PLAN_NAMES.includes(name as PlanName) || value === undefined) throw new ParseError(accepted);
    given.set(name as PlanName, num(value));
  }
  const perPlan = {} as Record<PlanName, number>;
  let carry = 0;
  for (const plan of PLAN_NAMES) {
    carry = given.get(plan) ?? carry;
    perPlan[plan] = carry;
  }
  return { perPlan: Object.freeze(perPlan) };
};

interface VariableSpec {
  readonly name: string;
  /** The default as written in README; `undefined` = unset. */
  readonly default: string | undefined;
  readonly doc: string;
}

/** Every environment variable the gateway reads. README.md has one row per entry. */
export const VARIABLES: readonly VariableSpec[] = [
  { name: 'HOST', default: '127.0.0.1', doc: 'Address to listen on' },
  { name: 'PORT', default: '8080', doc: 'Port to listen on; 0 picks a free port (the log line says which)' },
  { name: 'LOG_LEVEL', default: 'info', doc: 'fatal, error, warn, info, debug, trace or silent' },
  { name: 'MAX_BODY_BYTES', default: '1048576', doc: 'Request body limit, enforced while reading (API-01 routes: FETCH_MAX_BYTES + 64 KiB)' },
  { name: 'BODY_TIMEOUT_MS', default: '10000', doc: 'Time allowed for a request body to arrive' },
  { name: 'CORS_ORIGINS', default: '', doc: 'Allowed CORS origins (comma list) or *; empty = no CORS' },
  { name: 'WORKER_THREADS', default: 'cores - 1 (at least 1)', doc: 'Worker threads for CPU-heavy jobs' },
  { name: 'WORKER_QUEUE_MAX', default: '256', doc: 'Tasks that may wait for a worker; beyond, 503 OVERLOADED' },
  { name: 'SHUTDOWN_TIMEOUT_MS', default: '10000', doc: 'How long SIGTERM/SIGINT waits for in-flight requests' },
  { name: 'DATA_DIR', default: 'data', doc: 'State directory (usage counters, converted embeddings)' },
  { name: 'TRUST_PROXY', default: '0', doc: 'Behind one trusted proxy: the client address is the last X-Forwarded-For hop' },
  { name: 'AUTH_MODE', default: 'off', doc: 'off, optional (anonymous = free tier per address) or required' },
  { name: 'API_KEYS_FILE', default: 'data/keys.json', doc: 'Key store (SHA-256 hashes, tenant, plan); default is DATA_DIR/keys.json' },
  { name: 'RATE_LIMIT_RPS', default: 'free=5,pack1=50,pack3=200,pack4=1000', doc: 'Burst limit per key: one number or plan=rps list; 0 = off' },
  { name: 'FETCH_ALLOWED_PORTS', default: '', doc: 'API-01: ports allowed besides 80 and 443 (comma list)' },
  { name: 'FETCH_MAX_BYTES', default: '5242880', doc: 'API-01: largest page fetched' },
  { name: 'FETCH_TIMEOUT_MS', default: '10000', doc: 'API-01: time allowed for a fetch, redirects included' },
  { name: 'FETCH_ALLOW_PRIVATE', default: '0', doc: 'API-01: allow private/loopback targets (tests and local use only; health says so)' },
  { name: 'CACHE_MAX_ENTRIES', default: '100000', doc: 'API-05: entries per tenant before least-recently-used eviction' },
  { name: 'EMBEDDER', default: 'glove', doc: 'API-05: glove (shipped word vectors) or transformers (local ONNX model)' },
  { name: 'EMBEDDING_MODEL_DIR', default: undefined, doc: 'API-05: local model directory for EMBEDDER=transformers' },
  { name: 'PROPOSAL_TTL_MS', default: '3600000', doc: 'API-21: how long a proposal is kept' },
  { name: 'LOCK_MAX_RESOURCES', default: '10000', doc: 'API-21: lock resources per tenant' },
  { name: 'PROPOSAL_MAX', default: '10000', doc: 'API-21: open proposals per tenant' },
  { name: 'PAYEE_DIRECTORY', default: undefined, doc: 'API-138: payee CSV (iban,name[,bic][,closed]); a synthetic directory ships as default' },
  { name: 'AUDIT_SIGNING_KEY', default: undefined, doc: 'API-138: Ed25519 PKCS#8 PEM; generated at boot (with a warning) when unset' },
  { name: 'AUDIT_LOG', default: undefined, doc: 'API-138: path of an append-only hash-chained seal log' },
  { name: 'STATE_BACKEND', default: 'memory', doc: 'memory or redis: where quotas, locks, votes and cache entries live' },
  { name: 'REDIS_URL', default: undefined, doc: 'Redis URL when STATE_BACKEND=redis, e.g. redis://127.0.0.1:6379' },
  { name: 'QUOTA_FAIL_MODE', default: 'closed', doc: 'When Redis is down: closed (503) or open (serve uncounted)' },
];

export class ConfigError extends Error {
  readonly problems: readonly string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/** Reads `env` (default `process.env`) into a frozen Config; throws ConfigError listing every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const problems: string[] = [];
  const read = <T>(name: string, parser: Parser<T>, fallback: string): T => {
    const raw = env[name];
    const value = raw === undefined ? fallback : raw;
    try {
      return parser(value);
    } catch (err) {
      if (!(err instanceof ParseError)) throw err;
      problems.push(`${name}=${JSON.stringify(raw)} is invalid: expected ${err.message}`);
      return parser(fallback);
    }
  };

  const defaultThreads = String(Math.max(1, availableParallelism() - 1));
  const dataDir = read('DATA_DIR', text, 'data');
  const config: Config = {
    host: read('HOST', text, '127.0.0.1'),
    port: read('PORT', int(0, 65535), '8080'),
    logLevel: read('LOG_LEVEL', oneOf<LogLevel>('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'), 'info'),
    maxBodyBytes: read('MAX_BODY_BYTES', int(1, 1024 * 1024 * 1024), '1048576'),
    bodyTimeoutMs: read('BODY_TIMEOUT_MS', int(1, 3_600_000), '10000'),
    corsOrigins: read('CORS_ORIGINS', origins, ''),
    workerThreads: read('WORKER_THREADS', int(1, 256), defaultThreads),
    workerQueueMax: read('WORKER_QUEUE_MAX', int(0, 1_000_000), '256'),
    shutdownTimeoutMs: read('SHUTDOWN_TIMEOUT_MS', int(0, 3_600_000), '10000'),
    dataDir,
    trustProxy: read('TRUST_PROXY', bool, '0'),
    authMode: read('AUTH_MODE', oneOf<AuthMode>('off', 'optional', 'required'), 'off'),
    apiKeysFile: read('API_KEYS_FILE', text, path.join(dataDir, 'keys.json')),
    rateLimit: read('RATE_LIMIT_RPS', parseRateLimit, 'free=5,pack1=50,pack3=200,pack4=1000'),
    fetch: {
      allowedPorts: read('FETCH_ALLOWED_PORTS', portList, ''),
      maxBytes: read('FETCH_MAX_BYTES', int(1, 1024 * 1024 * 1024), '5242880'),
      timeoutMs: read('FETCH_TIMEOUT_MS', int(1, 600_000), '10000'),
      allowPrivate: read('FETCH_ALLOW_PRIVATE', bool, '0'),
    },
    cache: {
      maxEntries: read('CACHE_MAX_ENTRIES', int(1, 100_000_000), '100000'),
      embedder: read('EMBEDDER', oneOf('glove', 'transformers'), 'glove'),
      modelDir: read('EMBEDDING_MODEL_DIR', optionalText, ''),
    },
    consensus: {
      proposalTtlMs: read('PROPOSAL_TTL_MS', int(1000, 30 * 24 * 3_600_000), '3600000'),
      maxResources: read('LOCK_MAX_RESOURCES', int(1, 10_000_000), '10000'),
      maxProposals: read('PROPOSAL_MAX', int(1, 10_000_000), '10000'),
    },
    sepa: {
      payeeDirectory: read('PAYEE_DIRECTORY', optionalText, ''),
      auditSigningKey: read('AUDIT_SIGNING_KEY', optionalText, ''),
      auditLog: read('AUDIT_LOG', optionalText, ''),
    },
    state: {
      backend: read('STATE_BACKEND', oneOf('memory', 'redis'), 'memory'),
      redisUrl: read('REDIS_URL', optionalText, ''),
      quotaFailMode: read('QUOTA_FAIL_MODE', oneOf('closed', 'open'), 'closed'),
    },
  };

  if (config.cache.embedder === 'transformers' && config.cache.modelDir === null) {
    problems.push('EMBEDDING_MODEL_DIR is required when EMBEDDER=transformers: expected a local model directory');
  }
  if (config.state.backend === 'redis' && config.state.redisUrl === null) {
    problems.push('REDIS_URL is required when STATE_BACKEND=redis: expected a URL such as redis://127.0.0.1:6379');
  }
  if (config.state.redisUrl !== null) {
    try {
      const u = new URL(config.state.redisUrl);
      if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') throw new Error('scheme');
    } catch {
      problems.push(`REDIS_URL=${JSON.stringify(env.REDIS_URL)} is invalid: expected a redis:// or rediss:// URL`);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return deepFreeze(config);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
