/**
 * The text the detectors read: invisible characters removed (format characters such as U+200B, U+200D,
 * U+2060, U+00AD, U+FEFF and the other default-ignorable ones), every other character in its
 * compatibility form (NFKC: `ｐａｓｓｗｏｒｄ：` reads `password:`, a no-break space a space) and secret
 * names spelled with look-alike letters in Latin ({@link foldNames}: `pаssword` with a Cyrillic `а`), with
 * the span of the original each of its characters came from. A secret found in the view is replaced in the
 * original, the invisible characters inside it included, and the rest of the original stays as it is.
 */

import { foldNames } from './confusables.js';

/** Characters the view leaves out: they show nothing, so they can sit inside a secret unseen. */
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/u;
/** Any UTF-16 unit past ASCII, which the view never changes. */
const NON_ASCII = /[\u0080-\uffff]/;

/** Code points past ASCII already read, and what the view makes of each (null: itself). */
const viewOfCodePoint = new Map<number, string | null>();
/** Past this many, the memo starts again (it holds what the texts read lately). */
const MEMO_LIMIT = 4096;

/** What the view makes of a code point past ASCII: nothing (invisible), its NFKC, or null (itself). */
function viewOf(code: number): string | null {
  let view = viewOfCodePoint.get(code);
  if (view === undefined) {
    // normalising one character costs far more than a lookup, and a text repeats its characters
    const char = String.fromCodePoint(code);
    const normal = INVISIBLE.test(char) ? '' : char.normalize('NFKC');
    view = normal === char ? null : normal;
    if (viewOfCodePoint.size >= MEMO_LIMIT) viewOfCodePoint.clear();
    viewOfCodePoint.set(code, view);
  }
  return view;
}

/** A text as the detectors read it, and where each of its characters is in the original. */
export interface TextView {
  /** What the detectors read. */
  readonly text: string;
  /**
   * The characters the view normalised or left out, in order: where each is in the view (empty for an
   * invisible one) and in the original. Between them each character of the view is the original's, or a
   * look-alike letter of a name folded to Latin (one for one); with none, the offsets are the original's.
   */
  readonly changes: readonly Change[];
}

interface Change {
  readonly viewStart: number;
  readonly viewEnd: number;
  readonly start: number;
  readonly end: number;
}

/**
 * The view of `original`. Most texts (every ASCII text, and most others) read as they are, at the cost
 * of a scan and no copy; only a text holding a character the view changes is mapped.
 */
export function textView(original: string): TextView {
  const first = original.search(NON_ASCII);
  if (first < 0) return { text: original, changes: [] };
  const { text, changes } = normalView(original, first);
  // folding keeps every character in its place, so the changes stay true
  return { text: foldNames(text), changes };
}

/** The view of `original` before names are folded: `first` is where its first non-ASCII unit is. */
function normalView(original: string, first: number): TextView {
  const pieces: string[] = [];
  const changes: Change[] = [];
  let done = 0;
  let viewLength = 0;
  for (let at = first; at < original.length;) {
    const code = original.codePointAt(at) as number;
    const end = at + (code > 0xffff ? 2 : 1);
    const normal = code < 0x80 ? null : viewOf(code);
    if (normal !== null) {
      pieces.push(original.slice(done, at), normal);
      viewLength += at - done;
      changes.push({ viewStart: viewLength, viewEnd: viewLength + normal.length, start: at, end });
      viewLength += normal.length;
      done = end;
    }
    at = end;
  }
  if (changes.length === 0) return { text: original, changes };
  pieces.push(original.slice(done));
  return { text: pieces.join(''), changes };
}

/** The last change at or before view offset `at` (-1: none). */
function changeBefore(changes: readonly Change[], at: number): number {
  let low = 0;
  let high = changes.length - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if ((changes[mid] as Change).viewStart <= at) {
      found = mid;
      low = mid + 1;
    } else high = mid - 1;
  }
  return found;
}

/** The original span [start, end) of view character `at`: a changed one's whole code point. */
function originalOf(changes: readonly Change[], at: number): [number, number] {
  const index = changeBefore(changes, at);
  if (index < 0) return [at, at + 1];
  const change = changes[index] as Change;
  if (at < change.viewEnd) return [change.start, change.end];
  const start = change.end + (at - change.viewEnd);
  return [start, start + 1];
}

/**
 * The span of the original that view characters `start` to `end` (exclusive) came from: from the first
 * one's code point to the last one's, so the invisible characters between them are in it.
 */
export function originalSpan(view: TextView, start: number, end: number): [number, number] {
  if (view.changes.length === 0) return [start, end];
  const [from] = originalOf(view.changes, start);
  return end > start ? [from, originalOf(view.changes, end - 1)[1]] : [from, from];
}
