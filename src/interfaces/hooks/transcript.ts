/**
 * Reads a Claude Code session transcript (JSONL, one entry per line) into conversation turns: the
 * user's messages and the assistant's text, without tool calls, tool results, meta entries or
 * sub-agent (sidechain) traffic. Each turn keeps the entry's `uuid`, the message id used for
 * idempotent ingestion.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { EngramError } from '../../core/errors.js';

/** The longest turn kept (the write path's MAX_CONTENT_CHARS; not imported, to keep zod out of the hook client). */
const MAX_CONTENT_CHARS = 200_000;

export interface Turn {
  /** The transcript entry's uuid: the message id of the source ref. */
  uuid: string;
  role: 'user' | 'assistant';
  text: string;
  /** ISO timestamp of the entry, when present. */
  timestamp?: string;
}

interface TranscriptEntry {
  type?: unknown;
  uuid?: unknown;
  isSidechain?: unknown;
  isMeta?: unknown;
  timestamp?: unknown;
  message?: { role?: unknown; content?: unknown };
}

/** Parses transcript text; lines that are not JSON or not a turn are skipped. */
export function parseTranscript(text: string): Turn[] {
  const turns: Turn[] = [];
  addLines(turns, text);
  return turns;
}

/**
 * Reads and parses the transcript at `path` in pieces of 1 MiB, whole lines at a time (a long
 * session's file may be larger than one string can hold; as fast as reading it whole: 28 MB in
 * ~0.2 s either way); a missing file has no turns. A path that is not a regular file (a folder, a
 * device) is `INVALID_INPUT` naming it.
 */
export async function readTranscript(path: string): Promise<Turn[]> {
  const stats = await stat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw notReadable(path, error.code ?? 'error');
  });
  if (stats === undefined) return [];
  if (!stats.isFile()) throw notReadable(path, stats.isDirectory() ? 'a folder' : 'not a regular file');
  const turns: Turn[] = [];
  let rest = '';
  try {
    for await (const piece of createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
      const text = rest + (piece as string);
      const end = text.lastIndexOf('\n');
      addLines(turns, text.slice(0, end + 1));
      rest = text.slice(end + 1);
    }
  } catch (error) {
    throw notReadable(path, (error as NodeJS.ErrnoException).code ?? 'error');
  }
  addLines(turns, rest);
  return turns;
}

/** Adds the turns of the lines of `text`. */
function addLines(turns: Turn[], text: string): void {
  for (const line of text.split('\n')) addLine(turns, line);
}

/** Adds the turn of one transcript line, if it holds one; a line that is not JSON is skipped. */
function addLine(turns: Turn[], line: string): void {
  if (line.trim() === '') return;
  let entry: TranscriptEntry;
  try {
    entry = JSON.parse(line) as TranscriptEntry;
  } catch {
    return; // a partially written last line, or noise
  }
  const turn = toTurn(entry);
  if (turn !== null) turns.push(turn);
}

function notReadable(path: string, why: string): EngramError {
  return new EngramError(
    'INVALID_INPUT',
    `The hook's transcript_path ${path} cannot be read (${why}): it should name the session's JSONL transcript file.`,
  );
}

/** The turns after the one with `uuid` (all of them when it is absent or not found). */
export function turnsAfter(turns: readonly Turn[], uuid: string | undefined): Turn[] {
  if (uuid === undefined) return [...turns];
  const index = turns.findIndex((t) => t.uuid === uuid);
  return index === -1 ? [...turns] : turns.slice(index + 1);
}

function toTurn(entry: TranscriptEntry): Turn | null {
  if (entry.type !== 'user' && entry.type !== 'assistant') return null;
  if (entry.isSidechain === true || entry.isMeta === true) return null;
  if (typeof entry.uuid !== 'string' || entry.uuid.length === 0) return null;
  // a captured NUL (pasted binary output) would make the write path refuse the whole batch
  const text = textOf(entry.message?.content).replaceAll('\u0000', '').trim();
  if (text.length === 0 || isCommandNoise(text)) return null;
  return {
    uuid: entry.uuid,
    role: entry.type,
    text: text.length > MAX_CONTENT_CHARS - 20 ? `${text.slice(0, MAX_CONTENT_CHARS - 21)}…` : text,
    ...(typeof entry.timestamp === 'string' ? { timestamp: entry.timestamp } : {}),
  };
}

/** The text of a message: a string, or the `text` blocks of a content array (tool blocks dropped). */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter(
      (block): block is { type: 'text'; text: string } =>
        typeof block === 'object' && block !== null && block.type === 'text' && typeof block.text === 'string',
    )
    .map((block) => block.text)
    .join('\n');
}

/** Slash-command echoes and local command output are not conversation. */
function isCommandNoise(text: string): boolean {
  return (
    /^<(command-name|command-message|local-command-stdout|local-command-stderr)>/.test(text) ||
    text.startsWith('[Request interrupted by user')
  );
}
