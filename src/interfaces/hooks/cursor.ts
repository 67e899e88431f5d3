/**
 * The per-session cursor of transcript ingestion: the uuid of the last turn stored, so a Stop hook
 * that fires every turn reads on from there (DESIGN §11.11). Losing it is harmless: re-ingesting a
 * turn from the same source is idempotent in the write path.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface Cursor {
  lastUuid?: string;
  updatedAt?: string;
}

/** Where cursors live: --state-dir, else $ENGRAM_STATE_DIR, else ~/.cache/engram/hooks. */
export function defaultStateDir(): string {
  return process.env.ENGRAM_STATE_DIR ?? join(homedir(), '.cache', 'engram', 'hooks');
}

function cursorPath(stateDir: string, scope: string, sessionId: string): string {
  const safe = (text: string) => text.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 120);
  return join(stateDir, `${safe(scope)}__${safe(sessionId)}.json`);
}

export function readCursor(stateDir: string, scope: string, sessionId: string): Cursor {
  try {
    return JSON.parse(readFileSync(cursorPath(stateDir, scope, sessionId), 'utf8')) as Cursor;
  } catch {
    return {};
  }
}

/** Writes the cursor atomically (temp file + rename). */
export function writeCursor(stateDir: string, scope: string, sessionId: string, cursor: Cursor): void {
  mkdirSync(stateDir, { recursive: true });
  const path = cursorPath(stateDir, scope, sessionId);
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify({ ...cursor, scope, sessionId }));
  renameSync(temp, path);
}
