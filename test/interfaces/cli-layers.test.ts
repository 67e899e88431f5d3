/**
 * CLI of the layers issue: relate, relations list/register, activate, jobs, export/import markdown,
 * by spawning the built bin against a temp database.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { binBuilt, invalidInputOf, json, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

describe.skipIf(!binBuilt)('engram CLI: layers (skipped when dist/ is missing: run npm run build)', () => {
  const tmp = tempDir('engram-cli-layers-');
  const db = join(tmp.dir, 'layers.db');
  const base = ['--db', db, '--json', '--embedder', 'hash'];
  const S = 'acme/users/robot';
  afterAll(() => tmp.cleanup());

  const ok = <T>(args: string[], input?: string): T => {
    const result = runCli(args, input !== undefined ? { input } : {});
    expect(result.status, result.stderr).toBe(0);
    return json<T>(result);
  };
  const remember = (args: string[]): string => ok<{ id: string }>(['remember', ...base, '--scope', S, ...args]).id;

  it('relate, relations list and register, activate, jobs', () => {
    const mug = remember(['--layer', 'semantic', 'coffee mug']);
    const container = remember(['--layer', 'semantic', 'container']);
    const related = ok<{ action: string; edge: { type: string; weight: number } }>([
      'relate',
      ...base,
      mug,
      'is_a',
      container,
      '--scope',
      S,
      '--weight',
      '0.7',
    ]);
    expect(related).toMatchObject({ action: 'created', edge: { type: 'IS_A', weight: 0.7 } });

    const bad = runCli(['relate', ...base, mug, 'LOVES', container, '--scope', S]);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain('LOVES is not registered');

    const registered = ok<{ name: string; builtIn: boolean; proposedBy: string; symmetric: boolean }>([
      'relations',
      'register',
      ...base,
      'NEAR',
      '--symmetric',
      '--scope',
      S,
    ]);
    expect(registered).toMatchObject({ name: 'NEAR', builtIn: false, proposedBy: 'cli', symmetric: true });
    const list = ok<Array<{ name: string; builtIn: boolean }>>(['relations', 'list', ...base, '--scope', S]);
    expect(list.map((t) => t.name)).toEqual(expect.arrayContaining(['IS_A', 'RELATED_TO', 'NEAR']));
    expect(list.find((t) => t.name === 'NEAR')?.builtIn).toBe(false);
    ok(['relate', ...base, container, 'NEAR', mug, '--scope', S]);
    const edges = ok<Array<{ direction: string; type: string; other: string }>>(['edges', ...base, mug, '--scope', S]);
    expect(edges.map((e) => [e.type, e.direction, e.other])).toEqual([
      ['IS_A', 'out', container],
      ['NEAR', 'both', container],
    ]);

    // an episode queues concept extraction; activate drains the queue first
    const failed = remember(['failed to reach the kitchen', '--occurred-at', '2026-01-02']);
    const pending = ok<{ total: number; mentionedTimesPending: number }>(['stats', ...base, '--scope', S]);
    expect(pending.mentionedTimesPending).toBe(pending.total);
    const drained = ok<{ drained: { jobs: number; mentionedTimes: number }; backlog: { pending: number } }>([
      'jobs',
      ...base,
      '--scope',
      S,
      '--drain',
    ]);
    expect(drained.drained.jobs).toBeGreaterThan(0);
    expect(drained.drained.mentionedTimes).toBeGreaterThanOrEqual(pending.total);
    expect(drained.backlog.pending).toBe(0);
    expect(ok<{ mentionedTimesPending: number }>(['stats', ...base, '--scope', S]).mentionedTimesPending).toBe(0);
    const statsText = runCli(['stats', '--db', db, '--scope', S]);
    expect(statsText.stdout).toContain('waiting for the dates their text names to be stored: 0');
    const activated = ok<{ seeds: string[]; ranked: Array<{ id: string; hops: number }> }>(['activate', ...base, mug, '--scope', S]);
    expect(activated.seeds).toEqual([mug]);
    expect(activated.ranked.map((r) => r.id)).toContain(container);
    expect(failed).toMatch(/^[0-9A-Z]{26}$/);
    const text = runCli(['activate', '--db', db, mug, '--scope', S]);
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toContain('semantic');
    expect(text.stdout).toContain('container');
    expect(text.stdout).toContain('hop 1');
  }, 180_000); // a dozen process spawns; slow on a loaded 2-core machine

  it('export markdown writes five files that import markdown reads back into another store', () => {
    remember(['--layer', 'procedural', 'Always confirm before moving furniture.', '--tag', 'rules', '--pin']);
    remember(['Dropped the mug', '--occurred-at', '2026-01-03']);
    const dir = join(tmp.dir, 'md');
    const exported = ok<{ files: string[]; entries: Record<string, number> }>(['export', 'markdown', ...base, '--scope', S, dir]);
    expect(exported.files.sort()).toEqual(['concepts.md', 'log.md', 'procedural.md', 'profile.md', 'semantic.md']);
    expect(readdirSync(dir).sort()).toEqual(['concepts.md', 'log.md', 'procedural.md', 'profile.md', 'semantic.md']);
    expect(readFileSync(join(dir, 'procedural.md'), 'utf8')).toContain('Always confirm before moving furniture.\n  · importance');
    expect(readFileSync(join(dir, 'log.md'), 'utf8')).toContain('- [2026-01-03] Dropped the mug');

    writeFileSync(join(dir, 'log.md'), `${readFileSync(join(dir, 'log.md'), 'utf8')}\n- [2026-01-04] Picked it up again\n`);
    const other = join(tmp.dir, 'other.db');
    const report = ok<{ created: number; added: number }>([
      'import',
      'markdown',
      '--db',
      other,
      '--json',
      '--embedder',
      'hash',
      dir,
      '--scope',
      S,
    ]);
    expect(report.created).toBe(Object.values(exported.entries).reduce((a, b) => a + b, 0));
    expect(report.added).toBe(1);
    const stats = ok<{ total: number }>(['stats', '--db', other, '--json', '--scope', S]);
    expect(stats.total).toBe(report.created + 1);

    const missing = runCli(['import', 'markdown', ...base, join(tmp.dir, 'nope'), '--scope', S]);
    expect(missing.status).not.toBe(0);
    expect(missing.stderr).toContain('Cannot read directory');
  }, 180_000);

  it('export markdown and export mcp-memory to a path that cannot be written say so (exit 2), and never spin', () => {
    remember(['A note to export']);
    const file = join(tmp.dir, 'a-file.txt');
    writeFileSync(file, 'in the way\n');
    const cases: [string[], RegExp][] = [
      [['export', 'markdown', ...base, '--scope', S, file], /Cannot write .*a-file\.txt: EEXIST\. It must be a folder that can be created/],
      [['export', 'markdown', ...base, '--scope', S, join(file, 'below')], /Cannot write .*below: ENOTDIR/],
      [['export', 'mcp-memory', ...base, '--scope', S, tmp.dir], /Cannot write .*: EISDIR\. It must be a file/],
      [
        ['export', 'mcp-memory', ...base, '--scope', S, join(tmp.dir, 'no-such-folder', 'memory.jsonl')],
        /Cannot write .*memory\.jsonl: ENOENT/,
      ],
    ];
    // procfs answers ENOENT for a folder whose parent exists: Node's recursive mkdir retried that for ever
    if (existsSync('/proc/self'))
      cases.push([['export', 'markdown', ...base, '--scope', S, '/proc/engram-export'], /Cannot write \/proc\/engram-export: ENOENT/]);
    for (const [args, message] of cases) expect(invalidInputOf(args).message, args.join(' ')).toMatch(message);
  }, 180_000);
});
