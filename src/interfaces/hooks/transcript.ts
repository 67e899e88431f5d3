/**
 * Reads a Claude Code session transcript (JSONL, one entry per line) into conversation turns: the
 * user's messages and the assistant's text, without tool calls, tool results, meta entries or
 * sub-agent (sidechain) traffic. Each turn keeps the entry's `uuid`, the message id used for
 * idempotent ingestion.
 */
import { readFile } from 'node:fs/promises';

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
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let entry: TranscriptEntry;
    try {
      entry = JSON.parse(line) as TranscriptEntry;
    } catch {
      continue; // a partially written last line, or noise
    }
    const turn = toTurn(entry);
    if (turn !== null) turns.push(turn);
  }
  return turns;
}

/** Reads and parses the transcript at `path`; a missing file has no turns. */
export async function readTranscript(path: string): Promise<Turn[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return parseTranscript(text);
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
