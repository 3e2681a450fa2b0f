/**
 * Fixture for keys-and-quotas HTTP tests: a temp DATA_DIR with a key file holding one key per
 * requested plan, and a test gateway serving the metered test routes.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateKey, hashKeyHex, writeFileAtomic, type KeyEntry } from '../../src/auth/keys-file.ts';
import type { AuthOptions } from '../../src/auth/index.ts';
import type { PlanName } from '../../src/config.ts';
import { startTestGateway, type TestGateway } from './gateway.ts';
import { meteredFactory } from './metered-service.ts';

export interface IssuedKey {
  readonly key: string;
  readonly id: string;
  readonly tenant: string;
  readonly plan: PlanName;
}

export function issueKeys(file: string, specs: ReadonlyArray<{ tenant: string; plan: PlanName }>): IssuedKey[] {
  const issued = specs.map((s) => {
    const key = generateKey();
    return { key, id: hashKeyHex(key).slice(0, 16), tenant: s.tenant, plan: s.plan };
  });
  const entries: KeyEntry[] = issued.map((k) => ({ id: k.id, sha256: hashKeyHex(k.key), tenant: k.tenant, plan: k.plan, created_at: new Date().toISOString(), revoked_at: null, label: null }));
  writeFileAtomic(file, JSON.stringify({ version: 1, keys: entries }));
  return issued;
}

export async function startAuthGateway(options: { env?: Record<string, string>; dataDir?: string; auth?: AuthOptions } = {}): Promise<TestGateway & { dataDir: string; keysFile: string }> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'gw-auth-'));
  const keysFile = path.join(dataDir, 'keys.json');
  const gw = await startTestGateway({
    env: { AUTH_MODE: 'required', RATE_LIMIT_RPS: '0', DATA_DIR: dataDir, API_KEYS_FILE: keysFile, ...options.env },
    gateway: { factories: [meteredFactory()], auth: options.auth },
  });
  return Object.assign(gw, { dataDir, keysFile });
}

export const bearer = (key: string): Record<string, string> => ({ authorization: `Bearer ${key}` });
