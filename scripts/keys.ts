/**
 * API key administration (CONTRACT.md §4). Works on API_KEYS_FILE (default DATA_DIR/keys.json);
 * a running gateway picks up every change within a second.
 *
 *   npm run keys -- create --tenant acme --plan pack1 [--label "ci"]   prints the key once, alone on the last line
 *   npm run keys -- list [--json]                                      ids, tenants, plans; never keys or hashes
 *   npm run keys -- revoke <key id>                                    the key answers 401 from then on
 *
 * `--file <path>` overrides API_KEYS_FILE. Exit codes: 0 done, 1 failure, 2 bad usage.
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, PLAN_NAMES, type PlanName } from '../src/config.ts';
import { generateKey, hashKeyHex, keyIdOf, KeysFileError, readKeysFile, TENANT_PATTERN, updateKeysFile, type KeyEntry } from '../src/auth/keys-file.ts';

const USAGE = `usage:
  npm run keys -- create --tenant <tenant> --plan <${PLAN_NAMES.join('|')}> [--label <text>] [--file <path>]
  npm run keys -- list [--json] [--file <path>]
  npm run keys -- revoke <key id> [--file <path>]`;

class UsageError extends Error {}

function keysFile(explicit: string | undefined): string {
  if (explicit !== undefined) return explicit;
  return loadConfig().apiKeysFile;
}

function create(values: { tenant?: string; plan?: string; label?: string; file?: string }): void {
  const tenant = values.tenant;
  const plan = values.plan;
  if (tenant === undefined || !TENANT_PATTERN.test(tenant)) throw new UsageError('--tenant is required: 1-64 characters of A-Z a-z 0-9 . _ - (starting with a letter or digit)');
  if (plan === undefined || !PLAN_NAMES.includes(plan as PlanName)) throw new UsageError(`--plan is required: one of ${PLAN_NAMES.join(', ')}`);
  if (values.label !== undefined && values.label.length > 200) throw new UsageError('--label is limited to 200 characters');
  const file = keysFile(values.file);
  const key = generateKey();
  const sha256 = hashKeyHex(key);
  const entry: KeyEntry = { id: keyIdOf(sha256), sha256, tenant, plan: plan as PlanName, created_at: new Date().toISOString(), revoked_at: null, label: values.label ?? null };
  updateKeysFile(file, (current) => ({ version: 1, keys: [...current.keys, entry] }));
  process.stdout.write(`created key ${entry.id} for tenant ${tenant}, plan ${plan}, in ${file}\n`);
  process.stdout.write('store it now: only its SHA-256 hash is kept, it cannot be shown again\n');
  process.stdout.write(`${key}\n`);
}

function list(values: { json?: boolean; file?: string }): void {
  const file = keysFile(values.file);
  const keys = readKeysFile(file).keys.map((k) => ({ id: k.id, tenant: k.tenant, plan: k.plan, created_at: k.created_at, revoked_at: k.revoked_at, label: k.label }));
  if (values.json) {
    process.stdout.write(`${JSON.stringify(keys, null, 2)}\n`);
    return;
  }
  if (keys.length === 0) {
    process.stdout.write(`no keys in ${file}\n`);
    return;
  }
  const rows = [['id', 'tenant', 'plan', 'created', 'status', 'label'], ...keys.map((k) => [k.id, k.tenant, k.plan, k.created_at, k.revoked_at === null ? 'active' : `revoked ${k.revoked_at}`, k.label ?? ''])];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const r of rows) process.stdout.write(`${r.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd()}\n`);
}

function revoke(id: string | undefined, values: { file?: string }): void {
  if (id === undefined || !/^[0-9a-f]{16}$/i.test(id)) throw new UsageError('revoke needs the key id (16 hex digits, see `npm run keys -- list`)');
  const file = keysFile(values.file);
  let found: KeyEntry | undefined;
  updateKeysFile(file, (current) => {
    found = current.keys.find((k) => k.id === id.toLowerCase());
    if (found === undefined) throw new UsageError(`no key with id ${id} in ${file}`);
    if (found.revoked_at !== null) return current;
    const now = new Date().toISOString();
    return { version: 1, keys: current.keys.map((k) => (k.id === found!.id ? { ...k, revoked_at: now } : k)) };
  });
  process.stdout.write(`revoked key ${id.toLowerCase()} (tenant ${found!.tenant}); the gateway refuses it within a second\n`);
}

function main(argv: string[]): number {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { tenant: { type: 'string' }, plan: { type: 'string' }, label: { type: 'string' }, file: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const [command, ...rest] = parsed.positionals;
  if (parsed.values.help || command === undefined) {
    process.stdout.write(`${USAGE}\n`);
    return command === undefined && !parsed.values.help ? 2 : 0;
  }
  try {
    if (command === 'create' && rest.length === 0) create(parsed.values);
    else if (command === 'list' && rest.length === 0) list(parsed.values);
    else if (command === 'revoke' && rest.length <= 1) revoke(rest[0], parsed.values);
    else throw new UsageError(`unknown command: ${[command, ...rest].join(' ')}`);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`${err.message}\n${USAGE}\n`);
      return 2;
    }
    if (err instanceof KeysFileError || err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      return 1;
    }
    throw err;
  }
}

process.exitCode = main(process.argv.slice(2));
