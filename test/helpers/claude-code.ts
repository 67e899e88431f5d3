/** Claude Code hook fixtures (test/fixtures/claude-code/) placed in a temp directory. */
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const FIXTURES = fileURLToPath(new URL('../fixtures/claude-code/', import.meta.url));

/** The session id used by every fixture. */
export const SESSION_ID = '6f1c2a9e-3b7d-4e21-9a0c-5d8e7f6a1b2c';

/** Copies `transcript` (a fixture name) to `dir/transcript.jsonl` and returns its path. */
export function placeTranscript(dir: string, transcript = 'transcript.jsonl'): string {
  const path = join(dir, 'transcript.jsonl');
  copyFileSync(join(FIXTURES, transcript), path);
  return path;
}

/** A hook's stdin JSON (`user-prompt-submit`, `stop`, `session-end`) pointing at `transcriptPath`. */
export function hookStdin(event: 'user-prompt-submit' | 'stop' | 'session-end', transcriptPath: string): string {
  return readFileSync(join(FIXTURES, `${event}.json`), 'utf8').replace('TRANSCRIPT_PATH', transcriptPath);
}
