/**
 * What a purge removes from the scope's state documents: copies of the purged records' text. Several
 * parts keep such a copy beside the records: the question an assistant turn left open (its text, until a
 * later turn answers it), the cautions and mood of the last consolidation (their text and the concept
 * they are about). A document that quotes a purged record is deleted; a list item that quotes one, or
 * names a purged record by id, is dropped from its list. Ids elsewhere (a cursor, a report's sample of
 * ids) are left: an id holds no text, and the audit entry of the purge names none either.
 */
import type { MemoryRecord } from '../memory.js';
import type { StateEntry, StoreTransaction } from '../ports/store.js';
import type { Scope } from '../scope.js';
import { isConcept } from '../record-kinds.js';
import { QUOTE_CHARS, QUOTE_MIN_CHARS } from './plan-purge.js';

/** State documents read per page. */
const PAGE = 500;
/** A string this long or longer that a purged record's text holds is a copy of it (as a quote in a derived record). */
const COPY_MIN_CHARS = QUOTE_MIN_CHARS;
/** A concept's name is short: a string equal to it (in any case) is a copy from this length. */
const NAME_MIN_CHARS = 3;

/**
 * Removes what quotes `removed` from the state documents of `scope`; returns how many documents changed
 * or went. With `wholeScope` every record of the scope is gone, so every piece of prose left in its state
 * came from one of them.
 */
export async function scrubPurgedState(
  tx: StoreTransaction,
  scope: Scope,
  removed: readonly MemoryRecord[],
  options: { now: number; wholeScope: boolean },
): Promise<number> {
  if (removed.length === 0) return 0;
  const copyOf = options.wholeScope ? isProse : copyTest(removed);
  const ids = new Set(removed.map((r) => r.id));
  const updates: { key: string; value: unknown }[] = [];
  let after: string | undefined;
  for (;;) {
    const page: StateEntry[] = await tx.listState(scope, '', PAGE, after !== undefined ? { after } : {});
    for (const entry of page) {
      const { value, copies } = withoutCopies(entry.value, copyOf, ids);
      if (copies) updates.push({ key: entry.key, value: undefined });
      else if (value !== entry.value) updates.push({ key: entry.key, value });
    }
    if (page.length < PAGE) break;
    after = (page[page.length - 1] as StateEntry).key;
  }
  for (const { key, value } of updates) {
    if (value === undefined) await tx.deleteState(scope, key);
    else await tx.setState(scope, key, value, options.now);
  }
  return updates.length;
}

/** An id, a timestamp or a number as text: no record's words. */
const NOT_WORDS =
  /^(?:[0-9A-HJKMNP-TV-Z]{26}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d{4}-\d{2}-\d{2}T[\d:.]+Z?|[\d.:-]+)$/i;

/** A string that could hold a record's words (with `wholeScope`, any such string is a copy). */
function isProse(text: string): boolean {
  return text.trim().length >= NAME_MIN_CHARS && /\p{L}/u.test(text) && !NOT_WORDS.test(text.trim());
}

/**
 * Whether a string of a state document is a copy of a removed record's text: the name of a removed
 * concept, a piece of 16 characters or more of a removed text, or a string holding the opening of one.
 * Both searches are linear in what was removed: the texts are searched as one string, and the openings
 * are found through the 16-character windows of the (few, short) state strings.
 */
function copyTest(removed: readonly MemoryRecord[]): (text: string) => boolean {
  const texts = removed.flatMap((r) => [r.content, ...(typeof r.summary === 'string' ? [r.summary] : [])]);
  const haystack = texts.join('\u0000');
  const names = new Set(
    removed
      .filter(isConcept)
      .map((r) => r.content.trim().toLowerCase())
      .filter((name) => name.length >= NAME_MIN_CHARS),
  );
  const openings = texts.map((t) => t.trim().slice(0, QUOTE_CHARS)).filter((t) => t.length >= COPY_MIN_CHARS);
  return (text) => {
    if (!isProse(text)) return false;
    if (names.has(text.trim().toLowerCase())) return true;
    if (text.length < COPY_MIN_CHARS) return false;
    if (haystack.includes(text)) return true;
    const windows = new Set<string>();
    for (let i = 0; i + COPY_MIN_CHARS <= text.length; i++) windows.add(text.slice(i, i + COPY_MIN_CHARS));
    return openings.some((opening) => windows.has(opening.slice(0, COPY_MIN_CHARS)) && text.includes(opening));
  };
}

/**
 * `value` without the list items that hold a copy or name a removed id; `copies` when what remains
 * still holds a copy outside any list (the whole document is then a copy).
 */
function withoutCopies(value: unknown, copyOf: (text: string) => boolean, ids: ReadonlySet<string>): { value: unknown; copies: boolean } {
  if (typeof value === 'string') return { value, copies: copyOf(value) };
  if (Array.isArray(value)) {
    const kept = value.filter((item) => !(typeof item === 'object' && item !== null && namesId(item, ids)) && !holdsCopy(item, copyOf));
    return { value: kept.length === value.length ? value : kept, copies: false };
  }
  if (typeof value === 'object' && value !== null) {
    let changed = false;
    const next: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const inner = withoutCopies(item, copyOf, ids);
      if (inner.copies) return { value, copies: true };
      changed ||= inner.value !== item;
      next[key] = inner.value;
    }
    return { value: changed ? next : value, copies: false };
  }
  return { value, copies: false };
}

/** Does any string inside `value` copy a removed record's text? */
function holdsCopy(value: unknown, copyOf: (text: string) => boolean): boolean {
  if (typeof value === 'string') return copyOf(value);
  if (Array.isArray(value)) return value.some((item) => holdsCopy(item, copyOf));
  if (typeof value === 'object' && value !== null) return Object.values(value).some((item) => holdsCopy(item, copyOf));
  return false;
}

/**
 * Is the list item `value` about a removed record: one of its own fields is that record's id (a
 * caution's `recordId`)? Ids deeper down (a report phase's sample of ids) do not make it so.
 */
function namesId(value: object, ids: ReadonlySet<string>): boolean {
  return Object.values(value).some((field) => typeof field === 'string' && ids.has(field));
}
