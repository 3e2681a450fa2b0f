/**
 * Redis for tests. Suites that need Redis run only when REDIS_URL is set (`.ci/redis.sh` sets it);
 * otherwise they are reported as skipped with `REDIS_SKIP` as the reason. Every run works under its
 * own key prefix and deletes its keys after: the server may be shared (never FLUSHALL it).
 * Fault tests start their own throw-away `redis-server` (`startRedisServer`) and stop that one.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { RedisConnection } from '../../src/state/redis-connection.ts';

export const REDIS_URL: string | null = process.env.REDIS_URL?.trim() || null;

/** The reason a Redis suite is skipped, or false when it runs. */
export const REDIS_SKIP: string | false = REDIS_URL === null ? 'REDIS_URL is not set (source .ci/redis.sh to run the Redis suites)' : false;

/** A key prefix no other run uses. */
export function uniquePrefix(label: string): string {
  return `test:${label}:${process.pid}:${randomBytes(4).toString('hex')}:`;
}

/** Deletes every key under `prefix` (SCAN, never KEYS/FLUSHALL). */
export async function deleteKeys(url: string, prefix: string): Promise<number> {
  const c = await RedisConnection.connect({ url, keyPrefix: prefix });
  let cursor = '0';
  let deleted = 0;
  try {
    do {
      const [next, keys] = await c.command<[string, string[]]>(['SCAN', cursor, 'MATCH', `${prefix}*`, 'COUNT', '1000']);
      cursor = next;
      if (keys.length > 0) deleted += await c.command<number>(['DEL', ...keys]);
    } while (cursor !== '0');
  } finally {
    await c.close();
  }
  return deleted;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** Whether a `redis-server` binary is installed (fault tests need one of their own). */
export function hasRedisServer(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

export interface OwnRedis {
  readonly port: number;
  readonly url: string;
  /** Stops the server (SIGTERM; nothing is saved) and waits for it to exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
}

/** A throw-away redis-server on a free port, without persistence; stop it with `stop()`. */
export async function startRedisServer(): Promise<OwnRedis> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = async (): Promise<void> => {
    const c = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
    child = c;
    await new Promise<void>((resolve, reject) => {
      let out = '';
      const onData = (b: Buffer): void => {
        out += b.toString();
        if (out.includes('Ready to accept connections')) {
          c.stdout!.off('data', onData);
          c.stdout!.resume();
          resolve();
        }
      };
      c.stdout!.on('data', onData);
      c.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${out.slice(-300)}`)));
    });
  };
  const stop = async (): Promise<void> => {
    const c = child;
    child = null;
    if (c === null || c.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      c.once('exit', () => resolve());
      c.kill('SIGTERM');
    });
  };
  await start();
  return { port, url: `redis://127.0.0.1:${port}`, stop, start };
}
