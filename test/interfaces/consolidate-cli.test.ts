import { afterEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PHASES } from '../../src/consolidation/config.js';
import { binBuilt, json, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

interface Report {
  scope: string;
  trigger: string;
  phases: { name: string; examined: number; created: number; updated: number; durationMs: number; note: string }[];
}

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

function db(): string {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  return join(dir, 'engram.db');
}

/** A database that exists (consolidate does not create one), with one memory outside the tested scopes. */
function existingDb(): string {
  const path = db();
  const created = runCli(['remember', 'elsewhere', '--db', path, '--embedder', 'hash', '--scope', 'acme/elsewhere']);
  expect(created.status, created.stderr).toBe(0);
  return path;
}

describe.skipIf(!binBuilt)('engram consolidate (CLI, needs `npm run build`)', () => {
  it('runs the cycle and prints the report as JSON, each phase with examined/created/updated/durationMs/note', () => {
    const path = db();
    const episodes = [true, true, false, true, true, true, true, true].map((success, i) =>
      JSON.stringify({
        scope: 'acme/robot',
        content: `grasp coffee mug try ${i}`,
        action: { tool: 'grasp' },
        perception: { objects: ['coffee_mug'] },
        outcome: { success },
      }),
    );
    const file = join(path, '..', 'episodes.jsonl');
    writeFileSync(file, `${episodes.join('\n')}\n`);
    const imported = runCli(['remember', '--db', path, '--embedder', 'hash', '--file', file, '--json']);
    expect(imported.status, imported.stderr).toBe(0);
    const result = runCli(['consolidate', '--db', path, '--scope', 'acme/robot', '--json']);
    expect(result.status, result.stderr).toBe(0);
    const report = json<Report>(result);
    expect(report.scope).toBe('acme/robot');
    // the order itself is pinned in test/consolidation/cycle.test.ts
    expect(report.phases.map((p) => p.name)).toEqual([...PHASES]);
    for (const p of report.phases) {
      expect(Object.keys(p)).toEqual(expect.arrayContaining(['name', 'examined', 'created', 'updated', 'durationMs', 'note']));
      expect(p.note.length).toBeGreaterThan(0);
    }
    const ground = report.phases.find((p) => p.name === 'ground');
    expect(ground?.created).toBeGreaterThan(0);
  });

  it('--phase runs only the named phases, in cycle order; the text form is a table', () => {
    const path = existingDb();
    const result = runCli([
      'consolidate',
      '--db',
      path,
      '--embedder',
      'hash',
      '--scope',
      'acme/empty',
      '--phase',
      'decay',
      '--phase',
      'dedup',
      '--json',
    ]);
    expect(result.status, result.stderr).toBe(0);
    const report = json<Report>(result);
    expect(report.phases.map((p) => p.name)).toEqual(['dedup', 'decay']);
    for (const p of report.phases) expect(p.note).toMatch(/examined nothing/);
    const text = runCli(['consolidate', '--db', path, '--scope', 'acme/empty', '--phase', 'decay']);
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/phase\s+examined\s+created\s+updated\s+time\s+note/);
    expect(text.stdout).toMatch(/decay\s+0\s+0\s+0/);
  });

  it('rejects a missing scope, several scopes and unknown phases with exit code 2 and a clear message', () => {
    const path = existingDb();
    const none = runCli(['consolidate', '--db', path, '--embedder', 'hash', '--json']);
    expect(none.status).toBe(2);
    expect(JSON.parse(none.stderr).error.message).toMatch(/exactly one --scope/);
    const bad = runCli(['consolidate', '--db', path, '--scope', 'acme/a', '--phase', 'nap', '--json']);
    expect(bad.status).toBe(2);
    expect(JSON.parse(bad.stderr).error.code).toBe('INVALID_INPUT');
  });
});
