/**
 * Splits long texts into chunks for parent/child storage, so a chunk can be recalled alone.
 * Boundaries fall at paragraph ends when a whole paragraph does not fit, otherwise at sentence ends;
 * a sentence longer than the limit is cut at whitespace, and a single word longer than the limit (a URL,
 * a base64 blob) is cut inside, where a grapheme ends. Each chunk repeats the last sentence(s) of the
 * one before for context.
 */
import { EngramError, messages } from '../../errors.js';
import { splitSentences } from '../../text/sentences.js';
import { cutText } from '../../text/cut-text.js';

/** One chunk: its position and its exact text, `text === source.slice(start, end)`. */
export interface TextChunk {
  index: number;
  start: number;
  end: number;
  text: string;
}

/** How to chunk. */
export interface ChunkOptions {
  /** Upper bound on a chunk's length in UTF-16 code units; default 2000. */
  maxChars?: number;
  /** Sentences of the previous chunk repeated at the start of the next one; default 1. */
  overlapSentences?: number;
}

/** Default upper bound on a chunk's length. */
export const DEFAULT_CHUNK_CHARS = 2000;

interface Unit {
  start: number;
  end: number;
  paragraph: number;
}

const PARAGRAPH_BREAK = /\n[ \t]*\n\s*/g;
/** A paragraph boundary wins over packing more sentences once a chunk is at least this full. */
const PARAGRAPH_FILL = 0.5;

function paragraphsOf(text: string): { start: number; end: number }[] {
  const paragraphs: { start: number; end: number }[] = [];
  let start = 0;
  for (const match of text.matchAll(PARAGRAPH_BREAK)) {
    paragraphs.push({ start, end: match.index });
    start = match.index + match[0].length;
  }
  paragraphs.push({ start, end: text.length });
  return paragraphs;
}

/** Cuts an over-long sentence at whitespace into pieces of at most `maxChars`. */
function splitLongSentence(text: string, unit: Unit, maxChars: number, units: Unit[]): void {
  let start = unit.start;
  while (start < unit.end) {
    if (unit.end - start <= maxChars) {
      units.push({ start, end: unit.end, paragraph: unit.paragraph });
      return;
    }
    let cut = start + maxChars;
    while (cut > start && !/\s/u.test(text[cut] ?? '')) cut--;
    let end = cut;
    while (end > start && /\s/u.test(text[end - 1] ?? '')) end--;
    if (end === start) {
      // one word longer than the limit: cut inside it where a grapheme ends (within one only when it alone is longer)
      end = start + cutText(text.slice(start, unit.end), maxChars).length;
      if (end === start) end = start + maxChars;
      if (/[\uDC00-\uDFFF]/u.test(text[end] ?? '') && end - 1 > start) end--;
    }
    units.push({ start, end, paragraph: unit.paragraph });
    start = end;
    while (start < unit.end && /\s/u.test(text[start] ?? '')) start++;
  }
}

function unitsOf(text: string, maxChars: number): { units: Unit[]; paragraphEnds: number[] } {
  const units: Unit[] = [];
  const paragraphEnds: number[] = [];
  paragraphsOf(text).forEach((paragraph, index) => {
    const body = text.slice(paragraph.start, paragraph.end);
    for (const sentence of splitSentences(body)) {
      const unit = { start: paragraph.start + sentence.start, end: paragraph.start + sentence.end, paragraph: index };
      if (unit.end - unit.start > maxChars) splitLongSentence(text, unit, maxChars, units);
      else units.push(unit);
    }
    paragraphEnds.push(paragraph.end);
  });
  return { units, paragraphEnds };
}

function validated(options: ChunkOptions): { maxChars: number; overlapSentences: number } {
  const maxChars = options.maxChars ?? DEFAULT_CHUNK_CHARS;
  const overlapSentences = options.overlapSentences ?? 1;
  if (!Number.isInteger(maxChars) || maxChars < 1) {
    throw new EngramError('INVALID_INPUT', messages.invalidInput(`chunk maxChars must be a positive integer, got ${String(maxChars)}.`));
  }
  if (!Number.isInteger(overlapSentences) || overlapSentences < 0) {
    throw new EngramError(
      'INVALID_INPUT',
      messages.invalidInput(`chunk overlapSentences must be a non-negative integer, got ${String(overlapSentences)}.`),
    );
  }
  return { maxChars, overlapSentences };
}

/**
 * Splits `text` into ordered chunks of at most `maxChars` that together cover every non-whitespace
 * character, ending at paragraph or sentence boundaries and overlapping by `overlapSentences`.
 * @example chunkText('First sentence. Second one.', { maxChars: 20, overlapSentences: 0 }).map((chunk) => chunk.text) // ['First sentence.', 'Second one.']
 */
export function chunkText(text: string, options: ChunkOptions = {}): TextChunk[] {
  const { maxChars, overlapSentences } = validated(options);
  const { units, paragraphEnds } = unitsOf(text, maxChars);
  const chunks: TextChunk[] = [];
  const emit = (members: readonly Unit[]): void => {
    const start = members[0]?.start ?? 0;
    const end = members[members.length - 1]?.end ?? start;
    chunks.push({ index: chunks.length, start, end, text: text.slice(start, end) });
  };
  let current: Unit[] = [];
  for (const unit of units) {
    const first = current[0];
    const last = current[current.length - 1];
    if (first !== undefined && last !== undefined) {
      let close = unit.end - first.start > maxChars;
      if (!close && unit.paragraph !== last.paragraph && last.end - first.start >= maxChars * PARAGRAPH_FILL) {
        close = (paragraphEnds[unit.paragraph] ?? unit.end) - first.start > maxChars;
      }
      if (close) {
        emit(current);
        let overlap = Math.min(overlapSentences, current.length - 1);
        while (overlap > 0 && unit.end - (current[current.length - overlap]?.start ?? 0) > maxChars) overlap--;
        current = overlap > 0 ? current.slice(current.length - overlap) : [];
      }
    }
    current.push(unit);
  }
  if (current.length > 0) emit(current);
  return chunks;
}

/**
 * Whether `text` (trimmed) is longer than `maxChars` and so should be stored as chunks.
 * @example shouldChunk('short note', 2000) // false
 */
export function shouldChunk(text: string, maxChars: number = DEFAULT_CHUNK_CHARS): boolean {
  return text.trim().length > maxChars;
}
