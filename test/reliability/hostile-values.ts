/**
 * Hostile inputs for the fuzzers: wrong types, huge and deep values, non-finite numbers, dates out of
 * range, prototype names, control characters, lone surrogates and full-text-search syntax.
 */
import fc from 'fast-check';

/** Raw JSON literals that JSON.parse turns into non-finite or unsafe numbers (no JSON value spells them). */
export const RAW_NUMBERS = ['1e999', '-1e999', '1e-400', '-0', '9007199254740993', '123456789012345678901234567890'] as const;

/** A marker replaced by a raw literal after JSON.stringify (see `toJsonText`). */
const RAW = (literal: string) => `\u0000RAW:${literal}\u0000`;

export const PROTOTYPE_NAMES = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__defineGetter__',
] as const;

export const BAD_DATES = [
  '2024-13-45',
  '2024-02-30T25:61:61Z',
  '+275760-09-13T00:00:00.001Z',
  '-271821-04-19T23:59:59.999Z',
  '0000-00-00',
  '9999999-01-01',
  'yesterday at noon',
  'Invalid Date',
  '',
  ' ',
  '1e309',
  '2024-01-01T00:00:00\u0000Z',
] as const;

export const BAD_NUMBERS = [8.64e15 + 1, -8.64e15 - 1, Number.MAX_SAFE_INTEGER + 2, -1, 1.0000001, 2, 1e308, -1e308, 5e-324, 0.5] as const;

export const CONTROL_STRINGS = [
  '\u0000',
  'a\u0000b',
  '\u0001\u0002\u0003',
  '\u001b[31mred',
  '\u007f',
  '\u2028\u2029',
  '\u202eevil',
  '\ufeff',
  '\uffff',
  '\r\n\t',
] as const;

export const LONE_SURROGATES = ['\ud800', '\udfff', 'a\ud83d', '\udc00b', '\ud83d\ud83d'] as const;

export const FTS_SYNTAX = [
  'NEAR(a b)',
  '"unterminated',
  'a AND OR NOT',
  '*',
  'content:term',
  '^start',
  '(((',
  'a -b',
  "'; DROP TABLE memories; --",
  '\\',
  '%_%',
  'MATCH',
  'a OR',
  '"" ""',
  '{a b}',
  ':memory:',
  '$1',
] as const;

export const SCOPE_LIKE = [
  'acme',
  'acme/',
  '/acme',
  'acme//x',
  '../acme',
  'acme/*',
  'ACME/x',
  'globex/a',
  'acme/\u0000',
  'acme/__proto__',
  'a'.repeat(300),
  'acme/a b',
] as const;

/** A string of one of the hostile families, or a random one with awkward code units. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...PROTOTYPE_NAMES, ...BAD_DATES, ...CONTROL_STRINGS, ...LONE_SURROGATES, ...FTS_SYNTAX, ...SCOPE_LIKE),
  fc.string({
    unit: fc
      .oneof(fc.integer({ min: 0, max: 0x1f }), fc.integer({ min: 0xd800, max: 0xdfff }), fc.integer({ min: 0x20, max: 0x7e }))
      .map((c) => String.fromCharCode(c)),
    maxLength: 40,
  }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(1_000, 10_001, 100_000).map((n) => 'x'.repeat(n)),
);

/** A long array that prints as its length in a counterexample (not as thousands of elements). */
function bigArray(n: number): string[] {
  const array = Array.from({ length: n }, () => 'x');
  return Object.defineProperty(array, fc.toStringMethod, { value: () => `Array(${n}).fill("x")`, enumerable: false });
}

/** Any hostile JSON-able value (raw markers included, see `toJsonText`). */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    fc.constantFrom(...BAD_NUMBERS, ...RAW_NUMBERS.map(RAW), null, true, false, 0, [], {}),
    fc.double(),
    fc.integer(),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.constantFrom(...PROTOTYPE_NAMES), fc.string({ maxLength: 8 })), tie('value'), { maxKeys: 4 }),
    fc.integer({ min: 1_000, max: 20_000 }).map(bigArray),
  ),
})).value;

/** JSON nested `depth` levels deep, as text (too deep to build as a value cheaply). */
export function deepJson(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

/** Whole request bodies that are not a JSON value at all, or pathologically shaped. */
export const RAW_BODIES = [
  '',
  ' ',
  'not json',
  '{',
  '{"a":1,}',
  "{'a':1}",
  'NaN',
  'Infinity',
  '-Infinity',
  'undefined',
  '\u0000',
  '"\\ud800"',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  deepJson(5_000, 'array'),
  deepJson(5_000, 'object'),
  deepJson(100_000, 'array'),
  '[' + '1,'.repeat(200_000) + '1]',
] as const;

/**
 * JSON text of a value, with each `__proto__` own key kept (JSON.stringify keeps it when it is an own
 * property) and each raw marker replaced by its literal.
 */
export function toJsonText(value: unknown): string {
  const text = JSON.stringify(value) ?? 'null';
  return text.replace(/"\\u0000RAW:([^"\\]*)\\u0000"/g, (_m, literal: string) => literal);
}

/** Replaces (or adds) one top-level field of an example object with a hostile value. */
export function mutateField(example: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...example };
  Object.defineProperty(copy, key, { value, enumerable: true, configurable: true, writable: true });
  return copy;
}
