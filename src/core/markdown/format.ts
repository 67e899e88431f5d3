/**
 * The Markdown entry format (seed 003): one list item per record, dated and human-readable, with the
 * fields a person edits visible and everything else in a compact trailer comment.
 *
 * ```md
 * - [2026-01-15] Rejected Prestige Meridian: too far from school
 *   · importance 0.7 · tags: housing, rejected · pinned
 *   <!-- engram {"id":"01J…","layer":"episodic",…} -->
 * ```
 * Content lines after the first are indented by two spaces. The `·` line (importance, tags, pinned)
 * and the trailer are optional in hand-written entries; an entry without a trailer is a new memory.
 * Every line break of the content (`\r\n`, a lone `\r`, U+2028, U+2029) shows as a new line; when any
 * is not `\n`, the trailer's `lineBreaks` lists them in order and the import puts them back (while the
 * entry has as many lines). A tag a plain list would not give back (a comma, `·`, a line break,
 * surrounding spaces, a leading `"`, or empty) is written as a JSON string: `tags: "Paris, France", travel`.
 */
import { fail } from './trailer-schema.js';
import { parseIsoInstant } from '../instant.js';

/** The visible fields of one entry. */
export interface EntryText {
  date: string | null;
  content: string;
  importance?: string;
  tags?: string[];
  pinned?: boolean;
}

/** A parsed entry: the visible fields and the trailer's JSON, if any. */
export interface ParsedEntry extends EntryText {
  trailer: Record<string, unknown> | null;
  /** File and 1-based line, for error messages. */
  file: string;
  line: number;
  /** The 1-based line of the trailer, when there is one. */
  trailerLine?: number;
}

// `s`: a line is what lies between `\n`s, so `.` must take the other line terminators JavaScript knows
const TRAILER = /^ {2}<!-- engram (\{.*\}) -->$/s;
const HEADER = /^- (?:\[(\d{4}-\d{2}(?:-\d{2})?(?:[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?Z?)?)\] ?)?(.*)$/s;
const ATTRS = /^ {2}· (.*)$/s;
/** A line break: editors split lines at each, and CRLF reads as LF. */
const LINE_BREAK = /\r\n|[\n\r\u2028\u2029]/g;
/** Characters an editor may take for a line break, or that a reader cannot see, escaped in JSON we write. */
const UNSAFE_IN_LINE = /[\u007f-\u009f\u2028\u2029]/g;
/** A tag holding one of these is written as a JSON string. */
const QUOTED_IN_TAG = /[,·\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
/** A tag written as a JSON string, then the `,` after it or the end; `s`: `\s` and `.` take any character. */
const QUOTED_TAG = /^\s*("(?:[^"\\]|\\.)*")\s*(,|$)/s;

/** Renders an instant as the visible date: `YYYY-MM-DD` at UTC midnight, else `YYYY-MM-DD HH:MM:SS` (UTC). */
export function renderDate(ms: number | null): string | null {
  if (ms === null) return null;
  const iso = new Date(ms).toISOString();
  if (iso.endsWith('T00:00:00.000Z')) return iso.slice(0, 10);
  if (iso.endsWith('.000Z')) return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}`;
}

/** Parses a visible date (UTC); NaN unless it is a real calendar date in years 0001-9999. */
export function parseDate(text: string): number {
  const trimmed = text.trim();
  const normalised = /^\d{4}-\d{2}$/.test(trimmed) ? `${trimmed}-01` : trimmed.replace(' ', 'T');
  return parseIsoInstant(/[T ]/.test(trimmed) && !trimmed.endsWith('Z') ? `${normalised}Z` : normalised);
}

/** Renders importance as people read it: up to 3 decimals; `none` while unscored. */
export function renderImportance(value: number | null): string {
  return value === null ? 'none' : String(Number(value.toFixed(3)));
}

/** The content as its entry shows it: each line break a new line. */
export function visibleContent(content: string): string {
  return content.replace(LINE_BREAK, '\n');
}

/** The content's line breaks in order, when any is not `\n` (which the entry's lines cannot show). */
export function lineBreaksOf(content: string): string[] | undefined {
  const breaks = content.match(LINE_BREAK) ?? [];
  return breaks.some((b) => b !== '\n') ? breaks : undefined;
}

/** The shown content with the listed line breaks put back, while it has as many lines as they delimit. */
export function withLineBreaks(shown: string, breaks: readonly string[]): string {
  const lines = shown.split('\n');
  if (lines.length !== breaks.length + 1) return shown;
  return lines.map((line, i) => (i === 0 ? line : `${breaks[i - 1] as string}${line}`)).join('');
}

function escapeUnsafe(json: string): string {
  return json.replace(UNSAFE_IN_LINE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Renders a tag list that `parseTags` reads back exactly. */
function renderTags(tags: readonly string[]): string {
  return tags
    .map((tag) =>
      tag.length === 0 || tag !== tag.trim() || tag.startsWith('"') || QUOTED_IN_TAG.test(tag)
        ? escapeUnsafe(JSON.stringify(tag).replace(/·/g, '\\u00b7'))
        : tag,
    )
    .join(', ');
}

/** Reads `a, b, "c, d"`: plain tags trimmed (empty ones dropped), JSON strings exactly. */
function parseTags(text: string): string[] {
  const tags: string[] = [];
  for (let rest = text; rest.length > 0;) {
    const quoted = QUOTED_TAG.exec(rest);
    const value = quoted !== null ? jsonString(quoted[1] as string) : undefined;
    if (quoted !== null && value !== undefined) {
      tags.push(value);
      rest = quoted[2] === ',' ? rest.slice(quoted[0].length) : '';
      continue;
    }
    const comma = rest.indexOf(',');
    const plain = (comma === -1 ? rest : rest.slice(0, comma)).trim();
    if (plain.length > 0) tags.push(plain);
    rest = comma === -1 ? '' : rest.slice(comma + 1);
  }
  return tags;
}

function jsonString(text: string): string | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Renders one entry. */
export function renderEntry(entry: EntryText, trailer: Record<string, unknown>): string {
  const [first, ...rest] = visibleContent(entry.content).split('\n');
  const lines = [`- ${entry.date !== null ? `[${entry.date}] ` : ''}${first ?? ''}`];
  for (const line of rest) lines.push(`  ${line}`);
  const attrs = [`importance ${entry.importance ?? 'none'}`];
  if (entry.tags !== undefined && entry.tags.length > 0) attrs.push(`tags: ${renderTags(entry.tags)}`);
  if (entry.pinned === true) attrs.push('pinned');
  lines.push(`  · ${attrs.join(' · ')}`);
  // `>` escaped so no string inside can close the comment
  lines.push(`  <!-- engram ${escapeUnsafe(JSON.stringify(trailer).replace(/>/g, '\\u003e'))} -->`);
  return lines.join('\n');
}

function parseAttrs(text: string): Pick<EntryText, 'importance' | 'tags' | 'pinned'> {
  const out: Pick<EntryText, 'importance' | 'tags' | 'pinned'> = { pinned: false };
  for (const part of text.split(' · ')) {
    const item = part.trim();
    if (item.startsWith('importance ')) out.importance = item.slice('importance '.length).trim();
    else if (item.startsWith('tags:')) out.tags = parseTags(item.slice(5));
    else if (item === 'pinned') out.pinned = true;
  }
  return out;
}

/**
 * Parses the entries of one file; headings, prose and blank lines between entries are ignored. CRLF
 * line ends (a file saved on Windows) read as LF, and a leading byte order mark is dropped. A file
 * whose only line ends are lone CRs (classic Mac OS) has its lines split there; an export never writes
 * a raw lone CR (it shows as a line of its own and is listed in the trailer).
 */
export function parseEntries(file: string, text: string): ParsedEntry[] {
  const unmarked = text.replace(/^\uFEFF/, '');
  const lines = unmarked.split(!unmarked.includes('\n') && unmarked.includes('\r') ? '\r' : /\r?\n/);
  const entries: ParsedEntry[] = [];
  let i = 0;
  while (i < lines.length) {
    const header = HEADER.exec(lines[i] as string);
    if (header === null) {
      i++;
      continue;
    }
    const start = i;
    const body: string[] = [];
    let trailer: Record<string, unknown> | null = null;
    let trailerLine: number | undefined;
    i++;
    // an entry runs to its trailer, or (hand-written) to the next item, heading or blank line
    const end = findTrailer(lines, i);
    if (end !== -1) {
      for (; i < end; i++) body.push(lines[i] as string);
      trailerLine = end + 1;
      trailer = parseTrailerJson(file, trailerLine, (TRAILER.exec(lines[end] as string) as RegExpExecArray)[1] as string);
      i = end + 1;
    } else {
      while (i < lines.length && /^ {2}/.test(lines[i] as string)) body.push(lines[i++] as string);
    }
    let attrs: Pick<EntryText, 'importance' | 'tags' | 'pinned'> = {};
    const last = body[body.length - 1];
    if (last !== undefined && ATTRS.test(last)) {
      attrs = parseAttrs((ATTRS.exec(last) as RegExpExecArray)[1] as string);
      body.pop();
    }
    const content = [header[2] ?? '', ...body.map((l) => (l.startsWith('  ') ? l.slice(2) : l))].join('\n');
    entries.push({
      file,
      line: start + 1,
      date: header[1] ?? null,
      content,
      ...attrs,
      trailer,
      ...(trailerLine !== undefined ? { trailerLine } : {}),
    });
  }
  return entries;
}

function parseTrailerJson(file: string, line: number, json: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    value = undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fail(
      file,
      line,
      undefined,
      'the engram comment is not a JSON object; restore it from the export, or delete the line to import the entry as a new memory',
    );
  }
  return value as Record<string, unknown>;
}

/**
 * The line of the trailer closing the entry that starts before `from`, or -1 if the entry has none: the
 * last line reading as a trailer before the next item or heading, so that a line of the content that
 * reads as one (a note about this very format) stays content.
 */
function findTrailer(lines: readonly string[], from: number): number {
  let found = -1;
  for (let j = from; j < lines.length; j++) {
    const line = lines[j] as string;
    if (line.startsWith('- ') || line.startsWith('#')) break;
    if (TRAILER.test(line)) found = j;
  }
  return found;
}
