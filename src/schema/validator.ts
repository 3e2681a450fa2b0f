/**
 * Compiled request validators. Each route's TypeBox schema is compiled once at boot
 * (TypeCompiler emits a specialised check function); failures become VALIDATION_FAILED with one
 * `{path, message}` per problem, `path` being a JSON Pointer into the body ("/iban").
 */
import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { createError, type ErrorDetail } from '../errors.ts';

/** At most this many details are returned; one bad field rarely needs more. */
const MAX_DETAILS = 20;

export type Validator = (value: unknown) => void;

export function compileValidator(schema: TSchema): Validator {
  const checker = TypeCompiler.Compile(schema);
  return (value) => {
    if (checker.Check(value)) return;
    const details: ErrorDetail[] = [];
    const seen = new Set<string>();
    for (const err of checker.Errors(value)) {
      const path = err.path === '' ? '/' : err.path;
      // Unions report one error per branch; keep the first per path.
      if (seen.has(path)) continue;
      seen.add(path);
      details.push({ path, message: describe(err.message, err.schema) });
      if (details.length >= MAX_DETAILS) break;
    }
    throw createError('VALIDATION_FAILED', 'Request body failed validation', { details });
  };
}

function describe(message: string, schema: TSchema): string {
  // Literal unions: say which values are accepted instead of "Expected union value".
  if (Array.isArray(schema.anyOf) && schema.anyOf.every((s: TSchema) => 'const' in s)) {
    return `Expected one of: ${schema.anyOf.map((s: TSchema) => JSON.stringify(s.const)).join(', ')}`;
  }
  if (message === 'Expected required property') return 'Required property is missing';
  // Type mismatch: add the documented bounds so the caller can fix the request in one go.
  if (/^Expected (string|number|integer)$/.test(message)) {
    const bounds: string[] = [];
    if (typeof schema.minLength === 'number') bounds.push(`min length ${schema.minLength}`);
    if (typeof schema.maxLength === 'number') bounds.push(`max length ${schema.maxLength}`);
    if (typeof schema.minimum === 'number') bounds.push(`minimum ${schema.minimum}`);
    if (typeof schema.maximum === 'number') bounds.push(`maximum ${schema.maximum}`);
    if (bounds.length > 0) return `${message} (${bounds.join(', ')})`;
  }
  return message;
}
