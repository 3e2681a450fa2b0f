/**
 * The one Redis connection a gateway keeps (STATE_BACKEND=redis), on node-redis 5.
 *
 * Why node-redis and not ioredis (both installed; measured in tmp on this machine, 20 000 EVALSHA
 * calls, 64 in flight, loopback): node-redis 42-99k ops/s, p50 0.26-0.32 ms; ioredis 17-19k ops/s
 * (26-59k with enableAutoPipelining), p50 0.57-2.2 ms. node-redis pipelines every command written in
 * one tick by itself, and on a dropped socket it rejects the commands awaiting a reply instead of
 * re-sending them (ioredis re-sends by default: `autoResendUnfulfilledCommands`), which is what
 * "never double-count a unit" needs: a take whose reply was lost is answered 503, never run twice.
 *
 * Failure behaviour, deliberately:
 *   - no offline queue: while disconnected every command fails at once (the caller answers 503
 *     OVERLOADED or follows QUOTA_FAIL_MODE) instead of piling up behind a dead socket;
 *   - every command has a deadline (COMMAND_TIMEOUT_MS): a hung server cannot hang a request;
 *   - the client reconnects by itself with capped exponential backoff, forever;
 *   - boot fails when the first connection does not come up within CONNECT_TIMEOUT_MS.
 *
 * Lua scripts are registered once (`script(name, source)`), loaded with SCRIPT LOAD and run with
 * EVALSHA. A restarted Redis has an empty script cache: NOSCRIPT means the script did not run, so
 * reloading and sending it once more is safe (it cannot double-apply).
 */
import { createHash } from 'node:crypto';
import type { RedisClientType } from 'redis';
import type { Logger } from '../observability/logger.ts';

export const CONNECT_TIMEOUT_MS = 3000;
export const COMMAND_TIMEOUT_MS = 1000;
const BACKOFF_MAX_MS = 2000;

export interface RedisConnectionOptions {
  readonly url: string;
  /** Prepended to every key (tests use a unique one per run). Default `gw:`. */
  readonly keyPrefix?: string;
  readonly logger?: Logger;
  readonly connectTimeoutMs?: number;
  readonly commandTimeoutMs?: number;
}

export interface LuaScript {
  readonly name: string;
  readonly source: string;
  readonly sha: string;
}

type Reply = unknown;

/** The URL without its password, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password !== '') u.password = '***';
    return u.toString();
  } catch {
    return 'redis://(unparsable URL)';
  }
}

export class RedisUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RedisUnavailableError';
  }
}

export class RedisConnection {
  readonly keyPrefix: string;
  readonly url: string;
  readonly #client: RedisClientType;
  readonly #logger: Logger | undefined;
  readonly #commandTimeoutMs: number;
  readonly #scripts = new Map<string, LuaScript>();
  readonly #subscribers: RedisClientType[] = [];
  #closed = false;
  #wasReady = false;

  private constructor(client: RedisClientType, options: RedisConnectionOptions) {
    this.#client = client;
    this.url = options.url;
    this.keyPrefix = options.keyPrefix ?? 'gw:';
    this.#logger = options.logger;
    this.#commandTimeoutMs = options.commandTimeoutMs ?? COMMAND_TIMEOUT_MS;
  }

  /**
   * Connects, or throws RedisUnavailableError naming the (redacted) URL and the cause when Redis
   * does not answer within `connectTimeoutMs`.
   */
  static async connect(options: RedisConnectionOptions): Promise<RedisConnection> {
    const connectTimeoutMs = options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
    let lastError: unknown = null;
    let booted = false;
    // node-redis is loaded here, on first use, not at module load: its RESP decoder declares
    // `class VerbatimString extends String`, and once any code in an isolate subclasses String,
    // V8 (Node 20) stops inlining String.prototype.charCodeAt in that isolate: the character
    // scanners of API-08, API-09 and API-01 on the event loop ran 3-5x slower with STATE_BACKEND=memory
    // although Redis was never used (test/state-lazy-redis.test.ts).
    const { createClient } = await import('redis');
    const client = createClient({
      url: options.url,
      disableOfflineQueue: true,
      socket: {
        connectTimeout: connectTimeoutMs,
        reconnectStrategy: (retries: number, cause: Error) => {
          lastError = cause;
          // At boot, the first failure is the answer: no retrying behind a refused connection.
          if (!booted) return cause;
          return Math.min(BACKOFF_MAX_MS, 50 * 2 ** Math.min(retries, 6));
        },
      },
    }) as RedisClientType;
    const conn = new RedisConnection(client, options);
    // node-redis emits 'error' for every failed (re)connect; without a listener it would throw.
    client.on('error', (err: unknown) => {
      lastError = err;
      conn.#onError(err);
    });
    client.on('ready', () => conn.#onReady());
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        client.connect(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('timeout')), connectTimeoutMs);
        }),
      ]);
      await client.sendCommand(['PING']);
    } catch (err) {
      clearTimeout(timer);
      if (client.isOpen) client.destroy();
      const cause = lastError ?? err;
      const why = cause instanceof Error ? `${cause.name}: ${(cause as NodeJS.ErrnoException).code ?? cause.message}` : String(cause);
      throw new RedisUnavailableError(`STATE_BACKEND=redis but Redis at ${redactUrl(options.url)} is unreachable (${why}); start Redis or set STATE_BACKEND=memory`, { cause });
    }
    clearTimeout(timer);
    booted = true;
    return conn;
  }

  /** True while the socket is connected and ready. */
  get ready(): boolean {
    return this.#client.isReady;
  }

  /** Registers a Lua script (its SHA1 is computed locally) and loads it; reloaded after a Redis restart (NOSCRIPT). */
  script(name: string, source: string): LuaScript {
    const sha = createHash('sha1').update(source).digest('hex');
    const s: LuaScript = { name, source, sha };
    this.#scripts.set(name, s);
    // Loaded now, ahead of its first EVALSHA on the same ordered connection; a failure here only
    // means the first call takes the NOSCRIPT path.
    if (this.#client.isReady) this.#client.sendCommand(['SCRIPT', 'LOAD', source]).catch(() => undefined);
    return s;
  }

  /** EVALSHA `script` with `keys` and `args`; on NOSCRIPT loads it and tries once more. */
  async eval<T = Reply>(script: LuaScript, keys: readonly string[], args: readonly (string | number)[]): Promise<T> {
    const argv = ['EVALSHA', script.sha, String(keys.length), ...keys, ...args.map(String)];
    try {
      return (await this.#client.sendCommand(argv, { timeout: this.#commandTimeoutMs })) as T;
    } catch (err) {
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      await this.#client.sendCommand(['SCRIPT', 'LOAD', script.source], { timeout: this.#commandTimeoutMs });
      return (await this.#client.sendCommand(argv, { timeout: this.#commandTimeoutMs })) as T;
    }
  }

  /** A plain command (HGETALL, DEL, ...); `timeoutMs` overrides the deadline (blocking reads). */
  command<T = Reply>(args: readonly string[], timeoutMs = this.#commandTimeoutMs): Promise<T> {
    return this.#client.sendCommand(args, { timeout: timeoutMs }) as Promise<T>;
  }

  /** Another connection to the same Redis with the same prefix (a blocking read needs its own socket). */
  duplicate(): Promise<RedisConnection> {
    return RedisConnection.connect({ url: this.url, keyPrefix: this.keyPrefix, commandTimeoutMs: this.#commandTimeoutMs });
  }

  /**
   * A second connection subscribed to `channel` (pub/sub needs its own socket); it reconnects and
   * re-subscribes by itself. Closed with the connection.
   */
  async subscribe(channel: string, onMessage: (message: string) => void): Promise<void> {
    const sub = this.#client.duplicate() as RedisClientType;
    sub.on('error', () => undefined);
    await sub.connect();
    await sub.subscribe(channel, (message: string) => onMessage(message));
    this.#subscribers.push(sub);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const sub of this.#subscribers.splice(0)) sub.destroy();
    try {
      await this.#client.close();
    } catch {
      this.#client.destroy();
    }
  }

  #onError(err: unknown): void {
    if (this.#closed || !this.#wasReady) return;
    this.#wasReady = false;
    this.#logger?.error({ redis: redactUrl(this.url), err: err instanceof Error ? ((err as NodeJS.ErrnoException).code ?? err.name) : typeof err }, 'Redis connection lost; reconnecting');
  }

  #onReady(): void {
    const reconnected = !this.#wasReady;
    this.#wasReady = true;
    if (!reconnected) return;
    this.#logger?.info({ redis: redactUrl(this.url) }, 'Redis connection ready');
    // A restarted Redis has an empty script cache: load ours again before requests need them.
    for (const s of this.#scripts.values()) this.#client.sendCommand(['SCRIPT', 'LOAD', s.source]).catch(() => undefined);
  }
}
