/**
 * Reads a Claude Code session transcript (JSONL, one entry per line) into conversation turns: the
 * user's messages and the assistant's text, without tool calls, tool results, meta entries,
 * sub-agent (sidechain) traffic, or what Claude Code itself puts in the user's name (the summary of a
 * compacted conversation, bash-mode commands and their output, IDE blocks). Each turn keeps the
 * entry's `uuid`, the message id used for idempotent ingestion.
 */
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { EngramError } from '../../core/errors.js';
import { decodeUtf8 } from '../../core/text/utf8.js';
import { cleanText, splitsSurrogatePair } from './clean-text.js';

/** The longest turn kept (the write path's MAX_CONTENT_CHARS; not imported, to keep zod out of the hook client). */
const MAX_CONTENT_CHARS = 200_000;
/** The longest uuid and timestamp the hook routes accept (server-routes.ts). */
const MAX_UUID_CHARS = 500;
const MAX_TIMESTAMP_CHARS = 100;

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
  /** The summary Claude Code writes (as a user entry) when it compacts the conversation. */
  isCompactSummary?: unknown;
  isVisibleInTranscriptOnly?: unknown;
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
  let rest: Buffer = Buffer.alloc(0);
  try {
    for await (const piece of createReadStream(path, { highWaterMark: 1 << 20 })) {
      const bytes = rest.length === 0 ? (piece as Buffer) : Buffer.concat([rest, piece as Buffer]);
      const end = bytes.lastIndexOf(NEWLINE);
      addByteLines(turns, bytes.subarray(0, end + 1));
      rest = Buffer.from(bytes.subarray(end + 1));
    }
  } catch (error) {
    throw notReadable(path, (error as NodeJS.ErrnoException).code ?? 'error');
  }
  addByteLines(turns, rest);
  return turns;
}

const NEWLINE = 0x0a;

/**
 * Adds the turns of the lines of `bytes`, split at `\n` (a byte no other UTF-8 character contains). A
 * line that is not UTF-8 is skipped like one that is not JSON: decoded leniently, its bad bytes would
 * be stored as U+FFFD, other text than the session held.
 */
function addByteLines(turns: Turn[], bytes: Buffer): void {
  for (let start = 0; start < bytes.length;) {
    const found = bytes.indexOf(NEWLINE, start);
    const end = found === -1 ? bytes.length : found;
    const { text } = decodeUtf8(bytes.subarray(start, end));
    if (text !== undefined) addLine(turns, text);
    start = end + 1;
  }
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
  // The compaction summary retells the conversation in the model's words: not something the user said.
  if (entry.isCompactSummary === true || entry.isVisibleInTranscriptOnly === true) return null;
  if (typeof entry.uuid !== 'string' || entry.uuid.length === 0 || entry.uuid.length > MAX_UUID_CHARS) return null;
  const content = textOf(entry.message?.content);
  // A captured NUL or a broken emoji would make the write path refuse the whole batch, at every later hook.
  const text = cleanText(entry.type === 'user' ? withoutInsertedBlocks(content) : content).trim();
  if (text.length === 0 || isCommandNoise(text)) return null;
  return {
    uuid: entry.uuid,
    role: entry.type,
    text: cut(text),
    ...(typeof entry.timestamp === 'string' && entry.timestamp.length <= MAX_TIMESTAMP_CHARS ? { timestamp: entry.timestamp } : {}),
  };
}

/** A text longer than a memory may be, cut (at a code point, never inside a surrogate pair) and marked with "…". */
function cut(text: string): string {
  if (text.length <= MAX_CONTENT_CHARS - 20) return text;
  const end = MAX_CONTENT_CHARS - 21;
  return `${text.slice(0, splitsSurrogatePair(text, end) ? end - 1 : end)}…`;
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

/**
 * Blocks Claude Code puts into a user message that the user did not write: a bash-mode command and
 * its output (`! cmd`), what the IDE shows (the open file, the selection, its diagnostics), reminders
 * and notices for the model. Stored as the user's words, their sentences would become the user's claims.
 */
const INSERTED_BLOCK =
  /<(bash-input|bash-stdout|bash-stderr|ide_opened_file|ide_selection|ide_diagnostics|system-reminder|local-command-caveat|task-notification)(?:\s[^>]*)?>[\s\S]*?(?:<\/\1>|$)/g;

/** A user message without the blocks Claude Code inserted (an unclosed one runs to the end). */
function withoutInsertedBlocks(text: string): string {
  return text.includes('<') ? text.replace(INSERTED_BLOCK, '') : text;
}

/** How much of the transcript's start is read for the session's first working directory. */
const HEAD_BYTES = 64 * 1024;

/**
 * The working directory the session started in: the `cwd` of the first transcript entry that has one
 * (Claude Code records it on every entry; a later one differs after a `cd`). Undefined when the
 * transcript is missing, unreadable or names none in its first 64 KiB.
 */
export async function readSessionCwd(path: string): Promise<string | undefined> {
  let head: string;
  try {
    if (!(await stat(path)).isFile()) return undefined; // a folder, a device or a pipe (opening one could block)
    const file = await open(path, 'r');
    try {
      const buffer = Buffer.alloc(HEAD_BYTES);
      const { bytesRead } = await file.read(buffer, 0, HEAD_BYTES, 0);
      head = buffer.toString('utf8', 0, bytesRead);
    } finally {
      await file.close();
    }
  } catch {
    return undefined; // no transcript yet (a new session) or not a file: the hook's cwd is used
  }
  const lines = head.split('\n');
  for (const [index, line] of lines.entries()) {
    let cwd: unknown;
    try {
      cwd = (JSON.parse(line) as { cwd?: unknown }).cwd;
    } catch {
      // The last line may be cut by the read (a long first prompt): its top-level keys, cwd among them, come first.
      if (index === lines.length - 1) cwd = cwdKeyOf(line);
    }
    if (typeof cwd === 'string' && cwd !== '') return cwd;
  }
  return undefined;
}

/** The value of the first `"cwd"` key in the start of a JSON line (a quote inside a string is always escaped). */
function cwdKeyOf(partialLine: string): string | undefined {
  const match = /[{,]\s*"cwd"\s*:\s*("(?:[^"\\]|\\.)*")/.exec(partialLine);
  if (match === null) return undefined;
  try {
    return JSON.parse(match[1] as string) as string;
  } catch {
    return undefined;
  }
}
