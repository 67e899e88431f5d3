/**
 * Lookup tables keyed by user text. A plain object literal inherits `constructor`, `toString`,
 * `__proto__`… from Object.prototype, so `TABLE[word]` finds a function for those words; a table made
 * here has no prototype and answers `undefined` for every key it was not given.
 */

/**
 * A frozen, null-prototype copy of `entries`: safe to index with any string.
 *
 * @example
 * ```ts
 * const MONTHS = dictionary({ jan: 1, feb: 2 });
 * MONTHS['constructor']; // undefined
 * ```
 */
export function dictionary<T>(entries: Readonly<Record<string, T>>): Readonly<Record<string, T>> {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, T>, entries));
}
