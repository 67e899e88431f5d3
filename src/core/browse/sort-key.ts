/**
 * The order of a browse: each record's sort key, the id tie-break in code-point order, and the merge of
 * per-scope pages. Stores order by the same keys in SQL, so a page can resume from its last record.
 */
import type { MemoryRecord } from '../memory.js';
import type { BrowseSort } from '../ports/store.js';

/** The sort key of a record never accessed (below every instant): such records come first ascending. */
export const NEVER_ACCESSED = -8_640_000_000_000_000;
/** The sort key of an importance still pending (null): ranked as 1.0, as recall ranks it. */
export const UNSCORED_IMPORTANCE = 1;

/**
 * A record's key under `sort`.
 *
 * @example
 * ```ts
 * browseSortKey(record, 'importance'); // record.importance ?? 1
 * ```
 */
export function browseSortKey(record: MemoryRecord, sort: BrowseSort): number {
  switch (sort) {
    case 'recordedAt':
      return record.recordedAt;
    case 'validFrom':
      return record.validFrom;
    case 'importance':
      return record.importance ?? UNSCORED_IMPORTANCE;
    case 'accessedAt':
      return record.lastAccessedAt ?? NEVER_ACCESSED;
  }
}

/** Compares two strings by Unicode code points (as SQLite's BINARY and PostgreSQL's "C" collation do for UTF-8). */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const surrogateX = x >= 0xd800 && x <= 0xdfff;
    const surrogateY = y >= 0xd800 && y <= 0xdfff;
    // a surrogate starts a code point above U+FFFF, so it sorts after any other UTF-16 unit
    if (surrogateX !== surrogateY) return surrogateX ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

/** Orders records by (key, id) in `order`. */
export function browseComparator(sort: BrowseSort, order: 'asc' | 'desc'): (a: MemoryRecord, b: MemoryRecord) => number {
  const sign = order === 'asc' ? 1 : -1;
  return (a, b) => {
    const ka = browseSortKey(a, sort);
    const kb = browseSortKey(b, sort);
    return sign * (ka !== kb ? (ka < kb ? -1 : 1) : compareCodePoints(a.id, b.id));
  };
}

/** A page position: a record's sort key and id. */
export interface BrowseKey {
  key: number;
  id: string;
}

/** The first `limit` positions of several per-scope pages, in `order` (stores then read only those rows). */
export function mergeBrowseKeys<T extends BrowseKey>(pages: readonly (readonly T[])[], order: 'asc' | 'desc', limit: number): T[] {
  const sign = order === 'asc' ? 1 : -1;
  return pages
    .flat()
    .sort((a, b) => sign * (a.key !== b.key ? (a.key < b.key ? -1 : 1) : compareCodePoints(a.id, b.id)))
    .slice(0, limit);
}

/** The first `limit` of several per-scope pages, each already in order. */
export function mergeBrowsePages(
  pages: readonly (readonly MemoryRecord[])[],
  sort: BrowseSort,
  order: 'asc' | 'desc',
  limit: number,
): MemoryRecord[] {
  if (pages.length === 1) return (pages[0] as MemoryRecord[]).slice(0, limit);
  return pages.flat().sort(browseComparator(sort, order)).slice(0, limit);
}

/** ASCII-only lower-casing, the folding both stores apply in SQL (SQLite `lower`, PostgreSQL `translate`). */
export function asciiLower(text: string): string {
  return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/** The needle that finds `value` as an element of a stored JSON string array (`["a","b"]`), ASCII-folded. */
export function jsonElementNeedle(value: string): string {
  return asciiLower(JSON.stringify(value));
}

/**
 * `text` as it reads inside a JSON string of a stored column (quotes, backslashes and control characters
 * escaped as JSON.stringify writes them), ASCII-lowered: the needle a `text` filter looks for in a
 * record's `data` (its past wordings, episode fields and claim).
 */
export function jsonTextNeedle(text: string): string {
  return asciiLower(JSON.stringify(text).slice(1, -1));
}
