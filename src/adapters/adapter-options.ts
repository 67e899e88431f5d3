/**
 * The options of the framework adapters, checked when an adapter is made: a missing or mistyped option
 * is one `INVALID_INPUT` naming the adapter and each field at fault, never a `TypeError` on first use.
 */
import { z } from 'zod';
import { EngramError, type Engram } from '../index.js';

/** The `engram` option: an open store (what `Engram.open` returns). */
export const engramOption = z.custom<Engram>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Partial<Engram>).recall === 'function' &&
    typeof (value as Partial<Engram>).context === 'function',
  { error: 'must be an open Engram (const engram = await Engram.open({ path }))' },
);

/** A list of scopes an adapter reads, at least one: `what` says what reads them ("recall may read"). */
export function scopesOption(what: string): z.ZodArray<z.ZodString> {
  return z
    .array(z.string({ error: `must be a list of scope paths, e.g. ['acme/users/alice']` }), {
      error: (issue) =>
        issue.input === undefined
          ? `is missing: name the scopes ${what}, e.g. scopes: ['acme/users/alice']`
          : `must be a list of scope paths, e.g. ['acme/users/alice'] (one scope is a list of one)`,
    })
    .min(1, { error: `is empty: name at least one scope ${what}, e.g. ['acme/users/alice']` });
}

/** One scope an adapter writes, e.g. `"acme/users/alice"`. */
export function scopeOption(what: string): z.ZodString {
  return z
    .string({
      error: (issue) =>
        issue.input === undefined
          ? `is missing: name the scope ${what}, e.g. 'acme/users/alice'`
          : `must be a scope path, e.g. 'acme/users/alice'`,
    })
    .min(1, { error: `must not be empty: name the scope ${what}, e.g. 'acme/users/alice'` });
}

/** A whole number of at least `min`, when given. */
export function countOption(min: number): z.ZodOptional<z.ZodNumber> {
  return z
    .number({ error: `must be a whole number of at least ${min}` })
    .int({ error: `must be a whole number of at least ${min}` })
    .min(min)
    .optional();
}

/** The options object of `example` (e.g. `{ engram, scopes }`), closed: a misspelt option is refused, not ignored. */
export function optionsObject<Shape extends z.ZodRawShape>(shape: Shape, example: string): z.ZodObject<Shape, z.core.$strict> {
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `has unknown option(s) ${issue.keys.join(', ')}; it takes ${Object.keys(shape).join(', ')}`
        : `must be an options object, e.g. ${example}`,
  });
}

/**
 * Parses the options of the adapter `what` with `schema`, or throws `INVALID_INPUT` saying, per field,
 * what it takes (never the values given: they may be memory text).
 */
export function parseAdapterOptions<S extends z.ZodType>(schema: S, options: unknown, what: string): z.output<S> {
  const result = schema.safeParse(options);
  if (result.success) return result.data;
  const issues = result.error.issues.slice(0, 8).map((issue) => ({ path: issue.path.map(String), message: issue.message }));
  const problems = issues.map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')} ${issue.message}` : issue.message));
  throw new EngramError('INVALID_INPUT', `Invalid options of ${what}: ${problems.join('; ')}.`, { details: { issues } });
}
