/**
 * The framework examples run as a user runs them (`node examples/<framework>/chat.mjs`, against the
 * built package, offline with their scripted models): the agent keeps what it is told and answers a
 * later question from it, also across runs on the same memory file.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const built =
  existsSync(join(root, 'dist', 'adapters', 'ai-sdk', 'index.js')) && existsSync(join(root, 'dist', 'adapters', 'langchain', 'index.js'));

function runExample(framework: string, args: string[], db: string): { status: number | null; stdout: string; stderr: string } {
  const child = spawnSync(process.execPath, [join(root, 'examples', framework, 'chat.mjs'), ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, ENGRAM_DB: db },
  });
  return { status: child.status, stdout: child.stdout, stderr: child.stderr };
}

describe.skipIf(!built)(`the chat examples${built ? '' : ' (skipped: run npm run build first)'}`, () => {
  for (const framework of ['ai-sdk', 'langchain']) {
    it(`${framework}: remembers a statement in one run and answers from it in the next`, () => {
      const temp = tempDir();
      try {
        const db = join(temp.dir, 'memory.db');
        const first = runExample(framework, ['I am allergic to peanuts.'], db);
        expect(first.status, first.stderr).toBe(0);
        expect(first.stdout).toContain('agent: Noted');
        const second = runExample(framework, ['What am I allergic to?'], db);
        expect(second.status, second.stderr).toBe(0);
        expect(second.stdout).toMatch(/agent: From what I remember:[\s\S]*I am allergic to peanuts\./);
      } finally {
        temp.cleanup();
      }
    }, 240_000);
  }
});
