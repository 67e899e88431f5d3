/**
 * `engram list | scopes | purge` as a user runs them (the built bin against a temp database): the CLI
 * sees every scope of its file, filters as flags, and a purge needs --yes (exit 2, nothing removed).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Engram } from '../../src/index.js';
import { binBuilt, runCli } from '../helpers/cli.js';
import { tempEngram } from '../helpers/temp.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function seeded(): Promise<{ path: string; ids: string[] }> {
  const t = await tempEngram();
  const results = await t.engram.remember([
    { scope: 'acme/a', content: 'Deployed the billing service.', tags: ['deploy'] },
    { scope: 'acme/a', layer: 'semantic', content: 'The billing service runs in eu-west.' },
    { scope: 'globex/x', content: 'Globex rotated the keys.' },
  ]);
  await t.engram.close();
  cleanups.push(t.cleanup);
  return { path: t.path, ids: results.map((r) => r.id) };
}

describe.skipIf(!binBuilt)('engram list, scopes, purge', () => {
  it('list sees every scope of the file, filters by flags, pages by --cursor', async () => {
    const { path } = await seeded();
    const all = runCli(['list', '--db', path, '--json']);
    expect(all.status, all.stderr).toBe(0);
    expect(
      JSON.parse(all.stdout)
        .items.map((i: { scope: string }) => i.scope)
        .sort(),
    ).toEqual(['acme/a', 'acme/a', 'globex/x']);
    const semantic = JSON.parse(runCli(['list', '--db', path, '--json', '--scope', 'acme/a', '--layer', 'semantic']).stdout);
    expect(semantic.items.map((i: { content: string }) => i.content)).toEqual(['The billing service runs in eu-west.']);
    expect(JSON.parse(runCli(['list', '--db', path, '--json', '--text', 'BILLING', '--tag', 'deploy']).stdout).items).toHaveLength(1);
    const first = JSON.parse(runCli(['list', '--db', path, '--json', '--limit', '2', '--order', 'asc']).stdout);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = JSON.parse(
      runCli(['list', '--db', path, '--json', '--limit', '2', '--order', 'asc', '--cursor', first.nextCursor]).stdout,
    );
    expect(second.items).toHaveLength(1);
    expect(second.nextCursor).toBeNull();
    const human = runCli(['list', '--db', path, '--limit', '1']);
    expect(human.stdout).toMatch(/more: repeat with --cursor/);
    // the time shown is UTC and says so; typed back into --recorded-from (under any TZ) it finds the record again
    const shown = /(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}Z)/.exec(human.stdout)?.[1];
    expect(shown).toBeDefined();
    const again = runCli(['list', '--db', path, '--json', '--recorded-from', shown as string], { env: { TZ: 'America/New_York' } });
    expect(JSON.parse(again.stdout).items.length).toBeGreaterThan(0);
    const bad = runCli(['list', '--db', path, '--limit', '900']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/limit/);
    expect(runCli(['list', '--db', path, '--cursor', 'garbage']).stderr).toMatch(/cursor/);
  });

  it('list --as-of / --known-at shows what was true then, as believed then', async () => {
    const { ManualClock } = await import('../../src/core/ports/clock.js');
    const clock = new ManualClock(Date.parse('2024-03-01T09:00:00Z'));
    const t = await tempEngram({ clock });
    cleanups.push(t.cleanup);
    const old = await t.engram.remember({ scope: 'acme/a', layer: 'semantic', content: 'The deploy target is staging.' });
    clock.set(Date.parse('2024-03-11T09:00:00Z'));
    const fix = await t.engram.remember({
      scope: 'acme/a',
      layer: 'semantic',
      content: 'The deploy target moved from staging to production.',
    });
    await t.engram.close();
    const ids = (...flags: string[]) => {
      const result = runCli(['list', '--db', t.path, '--json', ...flags]);
      expect(result.status, result.stderr).toBe(0);
      return JSON.parse(result.stdout).items.map((i: { id: string }) => i.id);
    };
    expect(ids()).toEqual([fix.id, old.id]);
    expect(ids('--as-of', '2024-03-05')).toEqual([old.id]);
    expect(ids('--known-at', '2024-03-05T00:00:00Z')).toEqual([old.id]);
    expect(ids('--as-of', '2024-03-12', '--known-at', String(Date.parse('2024-03-12')))).toEqual([fix.id]);
    const bad = runCli(['list', '--db', t.path, '--as-of', 'last week']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/asOf/);
  });

  it('scopes lists every scope with counts', async () => {
    const { path } = await seeded();
    const result = runCli(['scopes', '--db', path, '--json']);
    expect(result.status, result.stderr).toBe(0);
    const { scopes } = JSON.parse(result.stdout);
    expect(scopes.map((s: { scope: string; total: number }) => [s.scope, s.total])).toEqual([
      ['acme/a', 2],
      ['globex/x', 1],
    ]);
    // CI=true turns colours on in the CLI's colour library; the text is what counts
    const human = runCli(['scopes', '--db', path]).stdout.replace(/\x1b\[[0-9;]*m/g, '');
    expect(human).toMatch(/acme\/a\s+2 memories · episodic 1, semantic 1 · active 2/);
  });

  it('purge needs --yes and one scope; removes for good by ids, filters or --all', async () => {
    const { path, ids } = await seeded();
    const refused = runCli(['purge', ids[0]!, '--scope', 'acme/a', '--db', path]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/--yes/);
    expect(runCli(['get', ids[0]!, '--scope', 'acme/a', '--db', path]).status).toBe(0);
    expect(runCli(['purge', ids[0]!, '--db', path, '--yes']).status).toBe(2);
    expect(runCli(['purge', '--scope', 'acme/a', '--db', path, '--yes']).stderr).toMatch(/--all/);
    expect(runCli(['purge', ids[0]!, '--all', '--scope', 'acme/a', '--db', path, '--yes']).status).toBe(2);
    const done = runCli(['purge', ids[0]!, '--scope', 'acme/a', '--db', path, '--yes', '--json']);
    expect(done.status, done.stderr).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({ purged: 1, removed: { records: 1, indexEntries: 2 }, restored: [] });
    expect(runCli(['get', ids[0]!, '--scope', 'acme/a', '--db', path]).status).toBe(3);
    const byText = runCli(['purge', '--scope', 'acme/a', '--text', 'eu-west', '--db', path, '--yes']);
    expect(byText.stdout).toMatch(/Purged 1 memory from acme\/a for good/);
    const all = runCli(['purge', '--scope', 'globex/x', '--all', '--db', path, '--yes', '--json']);
    expect(JSON.parse(all.stdout).purged).toBe(1);
    expect(JSON.parse(runCli(['scopes', '--db', path, '--json']).stdout).scopes).toEqual([]);
  });

  it('purge of ids none of which the scope holds is NOT_FOUND (exit 3, no audit entry); ids it lacks are named', async () => {
    const { path, ids } = await seeded();
    const audit = async (): Promise<number> => {
      const engram = await Engram.open({ path, embedder: 'hash' });
      try {
        return (await engram.store.listAudit({ scope: 'acme/a', limit: 100 })).length;
      } finally {
        await engram.close();
      }
    };
    // an unknown id, and a real one of another scope
    for (const missing of [['01NOSUCHMEMORY'], [ids[2]!], ['01NOSUCHMEMORY', ids[2]!]]) {
      const refused = runCli(['purge', ...missing, '--scope', 'acme/a', '--db', path, '--yes', '--json']);
      expect(refused.status, refused.stdout).toBe(3);
      expect(JSON.parse(refused.stderr).error).toMatchObject({ code: 'NOT_FOUND', message: expect.stringMatching(/Nothing was purged/) });
    }
    expect(runCli(['purge', '01NOSUCHMEMORY', '--scope', 'acme/a', '--db', path, '--yes']).stdout).toBe('');
    expect(await audit()).toBe(0);
    expect(runCli(['get', ids[2]!, '--scope', 'globex/x', '--db', path]).status).toBe(0);

    const partial = runCli(['purge', ids[0]!, '01NOSUCHMEMORY', '--scope', 'acme/a', '--db', path, '--yes', '--json']);
    expect(partial.status, partial.stderr).toBe(0);
    expect(JSON.parse(partial.stdout)).toMatchObject({ purged: 1, notFound: ['01NOSUCHMEMORY'] });
    const text = runCli(['purge', ids[1]!, ids[2]!, '--scope', 'acme/a', '--db', path, '--yes']);
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout.replace(/\x1b\[[0-9;]*m/g, '')).toMatch(
      new RegExp(`^Purged 1 memory from acme/a for good\\.\\nnot found in acme/a \\(nothing purged for them\\): ${ids[2]}$`, 'm'),
    );
    expect(await audit()).toBe(2);
    // the id of the other scope was left alone
    expect(runCli(['get', ids[2]!, '--scope', 'globex/x', '--db', path]).status).toBe(0);
  });
});
