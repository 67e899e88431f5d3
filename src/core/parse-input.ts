/**
 * Input parsing shared by every interface: `parseInput` turns a zod schema's verdict into one
 * `INVALID_INPUT` whose message says, per field, what it takes and what it got; the helpers parse the
 * arguments that are not schema objects (ids, optional options, chunk sources) the same way.
 */
import { z } from 'zod';
import { EngramError, messages } from './errors.js';
import { cutText } from './text/cut-text.js';

/**
 * Parses `value` with `schema`, or throws `INVALID_INPUT` listing every problem by field path. Text that
 * no store can hold anywhere in the input, in a string or an object key, is one such problem alike on
 * every backend: a NUL character (U+0000: PostgreSQL text and jsonb cannot hold it) and an unpaired
 * UTF-16 surrogate (no UTF-8 encoding: it would be stored as U+FFFD, silently changed).
 *
 * @example
 * ```ts
 * const input = parseInput(rememberInputSchema, { scope: 't/a', content: 'hello' }, 'remember');
 * ```
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const result = schema.safeParse(value, { reportInput: true });
  const unstorable = unstorableTextPaths(value);
  if (result.success && unstorable.length === 0) return result.data;
  const issues = [
    ...unstorable.map((issue) => ({ ...issue, path: echoedPath(issue.path) })),
    ...(result.success
      ? []
      : result.error.issues
          .flatMap((i) => leafIssues(i))
          .map(({ path, issue }) => ({
            path: echoedPath(path),
            message: describeIssue(issue),
            raw: cutEcho(issue.message, MAX_RAW_MESSAGE),
          }))),
  ].slice(0, 8);
  // a problem of the whole input (no field) is said once: "update: name at least one field", not "update: update name…"
  const problems = issues.map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')} ${issue.message}` : issue.message));
  throw new EngramError('INVALID_INPUT', messages.invalidInput(`${what}: ${problems.join('; ')}`), {
    details: { issues: issues.map((i) => ({ path: i.path, message: 'raw' in i ? i.raw : i.message })) },
  });
}

/**
 * Parses an options argument a caller may leave out: `undefined` reads as `{}`; anything else (null
 * included) must pass `schema`, or `INVALID_INPUT` names `what` and the problem.
 *
 * @example
 * ```ts
 * const { actor } = parseOptions(auditOptionsSchema, options, 'purge options');
 * ```
 */
export function parseOptions<S extends z.ZodType>(schema: S, options: unknown, what: string): z.output<S> {
  return parseInput(schema, options === undefined ? {} : options, what);
}

/** A record's id as methods take it: ULIDs, and ids kept by an import (a dump's ids are at most 200 characters). */
export const idSchema = z.string().min(1).max(200);
const idArgumentSchema = z.object({ id: idSchema });
const idsArgumentSchema = z.object({ id: z.union([idSchema, z.array(idSchema).min(1).max(1_000)]) });

/**
 * The id argument of a method by id (get, update, forget…): a non-empty string, else `INVALID_INPUT`
 * saying so and what was given ("update: id must be a string, not the number 123").
 *
 * @example
 * ```ts
 * const id = parseId(input, 'update');
 * ```
 */
export function parseId(id: unknown, what: string): string {
  return parseInput(idArgumentSchema, { id }, what).id;
}

/** The id argument of a method that takes one id or a list of them (`activate`), as a list. */
export function parseIds(ids: unknown, what: string): string[] {
  const parsed = parseInput(idsArgumentSchema, { id: ids }, what).id;
  return typeof parsed === 'string' ? [parsed] : parsed;
}

/**
 * The source of `importJsonl`: an iterable or async iterable of chunks (a Node Readable, a fetch body, an
 * array of strings; one string is one chunk), each a string or bytes. Anything else is `INVALID_INPUT`:
 * the source at once, a chunk when it is read.
 *
 * @example
 * ```ts
 * for await (const chunk of parseChunkSource(createReadStream('dump.jsonl'), 'importJsonl source')) console.log(chunk.length);
 * ```
 */
export function parseChunkSource(source: unknown, what: string): AsyncIterable<string | Uint8Array> {
  if (typeof source === 'string') return checkedChunks([source], what);
  const iterable = source as Partial<AsyncIterable<unknown> & Iterable<unknown>> | null | undefined;
  if (typeof iterable?.[Symbol.asyncIterator] !== 'function' && typeof iterable?.[Symbol.iterator] !== 'function') {
    throw new EngramError(
      'INVALID_INPUT',
      messages.invalidInput(
        `${what} must be chunks of text or bytes (a Node Readable, a fetch body, an array of strings), not ${describeValue(source)}`,
      ),
      { details: { field: 'source' } },
    );
  }
  return checkedChunks(source as AsyncIterable<unknown> | Iterable<unknown>, what);
}

async function* checkedChunks(source: AsyncIterable<unknown> | Iterable<unknown>, what: string): AsyncGenerator<string | Uint8Array> {
  let number = 0;
  for await (const chunk of source) {
    number++;
    if (typeof chunk !== 'string' && !(chunk instanceof Uint8Array)) {
      throw new EngramError(
        'INVALID_INPUT',
        messages.invalidInput(`${what}: chunk #${number} must be a string or bytes (a Uint8Array), not ${describeValue(chunk)}`),
        { details: { field: 'source', chunk: number } },
      );
    }
    yield chunk;
  }
}

const NUL_MESSAGE = 'contains a NUL character (U+0000), which cannot be stored; remove it';
const SURROGATE_MESSAGE =
  'contains an unpaired UTF-16 surrogate (half of a character, often an emoji cut in two), which cannot be stored as UTF-8; send valid UTF-16/UTF-8 text';
/** A high surrogate not followed by a low one, or a low one not preceded by a high one (code units: no `u` flag). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why no store can hold `text` as it is, or null. */
function unstorableTextProblem(text: string): string | null {
  if (text.includes('\u0000')) return NUL_MESSAGE;
  return LONE_SURROGATE.test(text) ? SURROGATE_MESSAGE : null;
}

/** An object key as a message shows it: NUL as `\0`, a lone surrogate as `\udxxx`, so the message itself is valid text. */
function shownKey(key: string): string {
  return key.replaceAll('\u0000', '\\0').replace(new RegExp(LONE_SURROGATE, 'g'), (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}

/**
 * Paths (at most 8) of strings and object keys no store can hold (see `unstorableTextProblem`), each
 * with its problem. Each object is visited once, so shared or cyclic references (possible from library
 * callers) cost no more than the object graph.
 */
function unstorableTextPaths(
  value: unknown,
  path: string[] = [],
  found: { path: string[]; message: string }[] = [],
  seen = new WeakSet<object>(),
): { path: string[]; message: string }[] {
  if (found.length >= 8 || path.length > 128) return found;
  if (typeof value === 'string') {
    const problem = unstorableTextProblem(value);
    if (problem !== null) found.push({ path, message: problem });
  } else if (typeof value === 'object' && value !== null && !seen.has(value)) {
    seen.add(value);
    for (const [key, item] of Object.entries(value)) {
      const problem = unstorableTextProblem(key);
      if (problem !== null) found.push({ path: [...path, shownKey(key)], message: problem });
      else unstorableTextPaths(item, [...path, key], found, seen);
    }
  }
  return found;
}

/** What a type check expected, as a message says it ("must be a whole number"). */
const TYPE_NAMES: Readonly<Record<string, string>> = {
  int: 'a whole number',
  number: 'a number',
  string: 'a string',
  boolean: 'true or false',
  array: 'a list',
  tuple: 'a list',
  object: 'an object',
  record: 'an object',
  map: 'a Map',
  set: 'a Set',
  date: 'a Date',
  bigint: 'a bigint',
  function: 'a function',
};

/**
 * What a value is, as a message names what was given ("null", "the number 5", "a list"): never the
 * text of a string, which may be a memory's and end up in logs.
 *
 * @example
 * ```ts
 * describeValue(null); // 'null'
 * ```
 */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (value instanceof Date) return 'a Date object';
  switch (typeof value) {
    case 'string':
      return value.length === 0 ? 'an empty string' : 'a string';
    case 'number':
      // NaN, Infinity and -Infinity are named as they are
      return Number.isFinite(value) ? `the number ${String(value).slice(0, 24)}` : String(value);
    case 'boolean':
    case 'undefined':
      return String(value);
    case 'object':
      return 'an object';
    default:
      return `a ${typeof value}`;
  }
}

/**
 * A refusal names what it refuses, within bounds: a caller's field name or key is echoed up to
 * {@link MAX_ECHOED} characters, at most {@link MAX_LISTED_KEYS} unknown fields are listed, and zod's own
 * message (kept in the details) is cut at {@link MAX_RAW_MESSAGE}: 30,000 unknown fields once made a
 * 578 KB error, and one 100,000-character key a 100 KB one.
 */
const MAX_ECHOED = 64;
const MAX_LISTED_KEYS = 10;
const MAX_RAW_MESSAGE = 500;
const MAX_PATH_PARTS = 12;

/** `text` whole when short, else its start (on a character boundary) and "…". */
function cutEcho(text: string, max: number): string {
  return text.length <= max ? text : `${cutText(text, max - 1)}…`;
}

/** A field name or key of the caller's, as a refusal echoes it. */
function echoed(key: PropertyKey): string {
  return cutEcho(String(key), MAX_ECHOED);
}

/** A field path as a refusal echoes it: each part bounded, and a deep one as its first and last parts around "…". */
function echoedPath(path: readonly PropertyKey[]): string[] {
  const parts = path.map(echoed);
  return parts.length <= MAX_PATH_PARTS ? parts : [...parts.slice(0, MAX_PATH_PARTS / 2), '…', ...parts.slice(-MAX_PATH_PARTS / 2 + 1)];
}

/** Zod's own message of a union no branch of which matched; a schema's `error` replaces it with its wording. */
const DEFAULT_UNION_MESSAGE = 'Invalid input';

/** An issue at the value itself saying it is of the wrong kind for a union branch. */
const isKindMismatch = (issue: z.core.$ZodIssue): boolean =>
  issue.path.length === 0 && (issue.code === 'invalid_type' || issue.code === 'invalid_value' || issue.code === 'invalid_union');

/**
 * The issues to report for `issue`, paths made whole. A union whose value is of the kind one branch
 * takes (an object given to `boolean | persona`) is reported by that branch's own problems, deeper
 * down ("persona.dispositions must be an object"), rather than as "matches no branch".
 */
function leafIssues(issue: z.core.$ZodIssue, prefix: readonly PropertyKey[] = []): { path: string[]; issue: z.core.$ZodIssue }[] {
  const path = [...prefix, ...issue.path];
  if (issue.code === 'invalid_union' && issue.message === DEFAULT_UNION_MESSAGE) {
    const fitting = issue.errors.find((branch) => branch.length > 0 && !branch.some(isKindMismatch));
    if (fitting !== undefined) return fitting.flatMap((inner) => leafIssues(inner, path));
  }
  return [{ path: path.map(String), issue }];
}

/** What the branches of a union take, as a message lists them ("a string", "a list", "\"all\""). */
function unionExpectations(issue: z.core.$ZodIssue): string[] {
  // "true, false or an object" rather than "true or false or an object"
  if (issue.code === 'invalid_type')
    return issue.expected === 'boolean' ? ['true', 'false'] : [TYPE_NAMES[issue.expected] ?? issue.expected];
  if (issue.code === 'invalid_value') return issue.values.map((v) => JSON.stringify(v));
  if (issue.code !== 'invalid_union') return [];
  const found = issue.errors.flatMap((branch) => branch.filter(isKindMismatch).flatMap(unionExpectations));
  return [...new Set(found)];
}

/** "a", "a or b", "a, b or c". */
function oneOf(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/** ", not null" for a value given, " (it is missing)" for none. */
function given(issue: z.core.$ZodIssue): string {
  return issue.input === undefined ? ' (it is missing)' : `, not ${describeValue(issue.input)}`;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'too_big':
      if (issue.origin === 'string') return `must be at most ${String(issue.maximum)} characters long`;
      if (issue.origin === 'array' || issue.origin === 'set') return `must have at most ${String(issue.maximum)} items`;
      return `is too large (maximum ${String(issue.maximum)})`;
    case 'too_small':
      if (issue.origin === 'string')
        return issue.minimum === 1 ? 'must not be empty' : `must be at least ${String(issue.minimum)} characters long`;
      if (issue.origin === 'array' || issue.origin === 'set')
        return issue.minimum === 1 ? 'must have at least one item' : `must have at least ${String(issue.minimum)} items`;
      return issue.inclusive === false
        ? `must be greater than ${String(issue.minimum)}`
        : `is too small (minimum ${String(issue.minimum)})`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'unrecognized_keys': {
      const listed = issue.keys.slice(0, MAX_LISTED_KEYS).map(echoed).join(', ');
      const more = issue.keys.length - MAX_LISTED_KEYS;
      return `has unknown field(s) ${listed}${more > 0 ? ` and ${more} more` : ''}`;
    }
    case 'invalid_type':
      return `must be ${TYPE_NAMES[issue.expected] ?? issue.expected}${given(issue)}`;
    case 'invalid_union': {
      if (issue.message !== DEFAULT_UNION_MESSAGE) return issue.message;
      const expected = unionExpectations(issue);
      return expected.length > 0 ? `must be ${oneOf(expected)}${given(issue)}` : `is not of an accepted form${given(issue)}`;
    }
    case 'invalid_format':
      // a schema's own wording (a regex with a message) is kept; zod's own starts "Invalid"
      if (!issue.message.startsWith('Invalid')) return issue.message;
      return issue.format === 'regex' && issue.pattern !== undefined ? `must match ${issue.pattern}` : `must be a valid ${issue.format}`;
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`;
    case 'invalid_key':
      return `is not an accepted key: ${issue.issues[0] !== undefined ? describeIssue(issue.issues[0]) : issue.message}`;
    case 'invalid_element':
      return `has an item that is not accepted: ${issue.issues[0] !== undefined ? describeIssue(issue.issues[0]) : issue.message}`;
    default:
      return issue.message;
  }
}
