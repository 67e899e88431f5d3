/**
 * The CLI as docs/cli.md and its help describe it, spawning the built bin: `engram update` (which
 * docs/import-export.md sends users to), `relations list` without a scope, the --scope help of the
 * commands that change one memory, the serve flag table, and how persona versions read.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engram } from '../../src/index.js';
import { binBuilt, json, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const plain = (text: string): string => text.replace(/\u001b\[[0-9;]*m/g, '');

describe.skipIf(!binBuilt)('the CLI as its docs and help describe it', { timeout: 120_000 }, () => {
  const tmp = tempDir('engram-cli-usage-');
  const db = join(tmp.dir, 'usage.db');
  const base = ['--db', db, '--embedder', 'hash'];
  afterAll(() => tmp.cleanup());

  let id: string;
  beforeAll(() => {
    const result = runCli(['remember', ...base, '--scope', 't/a', '--json', '--valid-from', '2024-01-01', 'Alice prefers window seats']);
    expect(result.status, result.stderr).toBe(0);
    id = json<{ id: string }>(result).id;
  });

  it('update changes a memory in place: get shows the new wording, its history keeps the old one', () => {
    const updated = runCli([
      'update',
      id,
      ...base,
      '--scope',
      't/a',
      '--json',
      '--content',
      'Alice prefers aisle seats',
      '--importance',
      '0.9',
      '--tag',
      'travel',
      '--tag',
      'seats',
      '--pin',
    ]);
    expect(updated.status, updated.stderr).toBe(0);
    expect(json(updated)).toMatchObject({
      id,
      content: 'Alice prefers aisle seats',
      importance: 0.9,
      tags: ['travel', 'seats'],
      pinned: true,
    });
    const got = json<{ content: string; history: { content: string }[] }>(runCli(['get', id, ...base, '--scope', 't/a', '--json']));
    expect(got.content).toBe('Alice prefers aisle seats');
    expect(got.history.map((h) => h.content)).toEqual(['Alice prefers window seats']);
    const history = json<{ versions: { content: string; history: { content: string }[] }[] }>(
      runCli(['history', id, ...base, '--scope', 't/a', '--json']),
    );
    expect(history.versions[0]?.history.map((h) => h.content)).toEqual(['Alice prefers window seats']);

    const text = runCli(['update', id, ...base, '--scope', 't/a', '--unpin', '--valid-to', '2030-01-01T00:00:00Z']);
    expect(text.status, text.stderr).toBe(0);
    expect(plain(text.stdout)).toContain('Alice prefers aisle seats');
    const open = json<{ validTo: string | null; pinned: boolean }>(
      runCli(['update', id, ...base, '--scope', 't/a', '--valid-to', 'none', '--json']),
    );
    expect(open).toMatchObject({ validTo: null, pinned: false });
  });

  it('update refuses what the library refuses (exit 2), an id the scope does not hold (exit 3), and no change at all', () => {
    const refused = (args: string[]) => {
      const result = runCli(['update', ...args, ...base, '--json']);
      expect(result.status, result.stdout).toBe(2);
      return JSON.parse(result.stderr) as { error: { code: string; message: string } };
    };
    const interval = refused([id, '--scope', 't/a', '--valid-from', '2024-06-01', '--valid-to', '2024-01-01']);
    expect(interval.error).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(/validTo .* must be after validFrom/) });
    expect(refused([id, '--scope', 't/a', '--valid-to', '2024-02-30']).error.message).toMatch(/validTo/);
    expect(refused([id, '--scope', 't/a', '--importance', '2']).error.message).toMatch(/importance/);
    expect(refused([id, '--scope', 't/a', '--importance', 'high']).error.message).toMatch(/--importance must be a number/);
    expect(refused([id, '--scope', 't/a']).error.message).toMatch(/^update needs a change: --content/);
    expect(refused([id, '--scope', 't/a', '--pin', '--unpin']).error.message).toMatch(/--pin or --unpin, not both/);
    expect(refused([id, '--content', 'x']).error.message).toMatch(/update names exactly one scope/);
    for (const [which, scope] of [
      ['01NOSUCHMEMORY', 't/a'],
      [id, 't/b'],
    ] as const) {
      const missing = runCli(['update', which, ...base, '--scope', scope, '--content', 'x', '--json']);
      expect(missing.status).toBe(3);
      expect(JSON.parse(missing.stderr).error.code).toBe('NOT_FOUND');
    }
    expect(json<{ content: string }>(runCli(['get', id, ...base, '--scope', 't/a', '--json'])).content).toBe('Alice prefers aisle seats');
    const help = runCli(['update', '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: engram update \[options\] <id>/);
    expect(help.stdout).toContain('--valid-to <time>');
  });

  it('relations list without --scope lists the built-ins and says how to see a tenant’s own types', () => {
    const types = runCli(['relations', 'list', '--json']);
    expect(types.status, types.stderr).toBe(0);
    const list = json<{ name: string; builtIn: boolean }[]>(types);
    expect(list.length).toBeGreaterThan(5);
    expect(list.every((t) => t.builtIn)).toBe(true);
    expect(list.map((t) => t.name)).toContain('SUPERSEDES');
    const text = runCli(['relations', 'list']);
    expect(text.status, text.stderr).toBe(0);
    expect(plain(text.stdout)).toMatch(/^SUPERSEDES\s+directed\s+built-in/m);
    expect(plain(text.stdout)).toMatch(/built-ins only: pass --scope S for the types S's tenant registered/);
    // with a scope: the tenant's registered types too
    expect(runCli(['relations', 'register', 'BOOKED_WITH', ...base, '--scope', 't/a']).status).toBe(0);
    const scoped = json<{ name: string }[]>(runCli(['relations', 'list', ...base, '--scope', 't/a', '--json']));
    expect(scoped.map((t) => t.name)).toContain('BOOKED_WITH');
  });

  it('the commands that change one memory describe their --scope as one scope', () => {
    for (const command of ['forget', 'restore', 'unsupersede', 'update']) {
      const help = runCli([command, '--help']).stdout.replace(/\s+/g, ' ');
      expect(help, command).toContain('--scope <scope> the scope the memory was written in (exactly one)');
      expect(help, command).not.toContain('repeatable for get');
    }
    expect(runCli(['get', '--help']).stdout.replace(/\s+/g, ' ')).toMatch(/--scope <scope> a scope to look in \(repeatable/);
  });

  it("docs/cli.md's serve flag table has every option of serve --help but the common ones", () => {
    const help = runCli(['serve', '--help']).stdout;
    const options = [...help.matchAll(/^\s+(?:-\w, )?(--[a-z-]+)/gm)].map((m) => m[1] as string);
    expect(options).toContain('--idle-exit');
    const common = new Set(['--db', '--json', '--embedder', '--workers', '--cache-dir', '--no-redact', '--redact-pattern', '--help']);
    const docs = readFileSync(new URL('../../docs/cli.md', import.meta.url), 'utf8');
    const table = docs.slice(docs.indexOf('## Run it: `npm start` / `engram serve`'));
    const rows = table.split('\n').filter((line) => line.startsWith('| `--'));
    for (const option of options.filter((o) => !common.has(o))) {
      expect(
        rows.some((row) => row.startsWith(`| \`${option} `) || row.startsWith(`| \`${option}\``)),
        option,
      ).toBe(true);
    }
  });

  it('persona show and history name who changed a version once ("reflection: …", not "reflection: reflection: …")', async () => {
    const scope = 'lab/agents/tutor';
    const engram = await Engram.open({ path: db, embedder: 'hash' });
    try {
      await engram.setPersona({ scope, dispositions: { curiosity: 0.5 }, favours: { curiosity: { tags: ['ml'] } } });
      await engram.remember(
        Array.from({ length: 15 }, (_, i) => ({
          scope,
          content: `Deep conversation with Bob about why transformers learn in context; we explored the theory of attention (session ${i + 1}).`,
          importance: 0.8,
          tags: ['ml'],
        })),
      );
      await engram.consolidate({ scope, phases: ['reflect'] });
      expect((await engram.personaHistory({ scope })).map((v) => v.change.by)).toEqual(['user', 'reflection']);
    } finally {
      await engram.close();
    }
    const history = plain(runCli(['persona', 'history', ...base, '--scope', scope]).stdout)
      .trim()
      .split('\n');
    expect(history[0]).toMatch(/ — user: set by a person$/);
    expect(history[1]).toMatch(/ — reflection: \d+ of \d+ reflected memories express curiosity/);
    expect(history[1]).not.toMatch(/reflection: reflection:/);
    const shown = plain(runCli(['persona', 'show', ...base, '--scope', scope]).stdout);
    expect(shown).toMatch(/ — reflection: \d+ of \d+/);
    expect(shown).not.toMatch(/reflection: reflection:/);
  });
});
