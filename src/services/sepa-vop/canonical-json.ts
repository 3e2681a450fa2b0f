/**
 * RFC 8785 JSON Canonicalization Scheme (JCS), for plain JSON data (objects, arrays, strings,
 * finite numbers, booleans, null). Written here because the `canonicalize` package needs Node 22.
 *
 * - Object members sorted by their names as UTF-16 code unit sequences (RFC 8785 §3.2.3);
 *   JavaScript's default string comparison is exactly that order.
 * - Strings and numbers serialised as ECMAScript's JSON.stringify does (§3.2.2.2, §3.2.2.3):
 *   shortest round-trip number form, -0 as 0, minimal escapes.
 * - No whitespace. `undefined` members are skipped, as JSON.stringify would.
 */

/**
 * Canonical JSON text of `value`. Throws TypeError on values JSON cannot carry (NaN, Infinity,
 * functions, bigint, symbols) instead of silently changing them.
 * @example canonicalize({ b: 1, a: [true, null, 'x'] }) // '{"a":[true,null,"x"],"b":1}'
 */
export function canonicalize(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError('canonicalize: non-finite number');
      return JSON.stringify(value);
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalize(v))).join(',')}]`;
      const obj = value as Record<string, unknown>;
      const keys = Object.keys(obj).filter((k) => obj[k] !== undefined).sort();
      let out = '{';
      for (let i = 0; i < keys.length; i++) {
        if (i > 0) out += ',';
        out += `${JSON.stringify(keys[i])}:${canonicalize(obj[keys[i]!])}`;
      }
      return `${out}}`;
    }
    default:
      throw new TypeError(`canonicalize: ${typeof value} is not JSON`);
  }
}
