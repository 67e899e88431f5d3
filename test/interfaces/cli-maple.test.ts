/**
 * `engram surface`, `engram decay [--dry-run]`, `engram expire [--dry-run | --apply]` and
 * `engram recall --chains`, spawned as a user runs them, on a database planted through the library
 * with a clock weeks in the past (the CLI runs on the wall clock).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { ManualClock } from '../../src/core/ports/clock.js';
import { Engram } from '../../src/index.js';
import { binBuilt, json, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const SCOPE = 'acme/agent';
const DAY = 86_400_000;
const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

/** A store written 50 days ago: one idle minor note decayed 35 days ago, one idle fresh-decay candidate, one important fact, one chain. */
async function planted(): Promise<{ path: string; ids: Record<string, string> }> {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  const path = join(dir, 'engram.db');
  const clock = new ManualClock(Date.now() - 50 * DAY);
  const engram = await Engram.open({ path, embedder: 'hash', clock });
  try {
    const [stale] = await engram.remember([{ scope: SCOPE, content: 'The stale note about the old printer.', importance: 0.2 }]);
    clock.set(Date.now() - 35 * DAY);
    await engram.decay({ scope: SCOPE });
    const [idle, fact] = await engram.remember([
      { scope: SCOPE, content: 'An idle remark about the weather.', importance: 0.2 },
      { scope: SCOPE, content: 'Deploys to production need two approvals.', importance: 0.95, layer: 'semantic', pinned: true },
    ]);
    clock.set(Date.now());
    const decision = await engram.remember({
      scope: SCOPE,
      content: 'Decided to ship the billing service on Fridays only.',
      importance: 0.9,
      pinned: true,
      decision: { intent: 'release day' },
      rejected: ['Ship billing any day'],
    });
    return { path, ids: { stale: stale!.id, idle: idle!.id, fact: fact!.id, decision: decision.id, rejected: decision.rejected![0]! } };
  } finally {
    await engram.close();
  }
}

const cli = (path: string, ...args: string[]) => runCli([...args, '--db', path, '--json']);

describe.skipIf(!binBuilt)('MAPLE maintenance commands (CLI, needs `npm run build`)', () => {
  it('surface, decay --dry-run then decay, expire as a dry run by default and with --apply', async () => {
    const { path, ids } = await planted();
    const surfaced = cli(path, 'surface', '--scope', SCOPE, '--limit', '2');
    expect(surfaced.status, surfaced.stderr).toBe(0);
    expect(json<{ hits: { id: string }[] }>(surfaced).hits.map((h) => h.id)).toEqual([ids.fact, ids.decision]);
    expect(runCli(['surface', '--db', path, '--scope', SCOPE, '--context', 'printer']).stdout).toContain('importance');

    const preview = cli(path, 'decay', '--scope', SCOPE, '--dry-run');
    expect(preview.status, preview.stderr).toBe(0);
    expect(json(preview)).toMatchObject({ dryRun: true, decayed: [ids.idle], expired: [ids.stale], counts: { decayed: 1, expired: 1 } });
    const human = runCli(['decay', '--db', path, '--scope', SCOPE, '--dry-run']);
    expect(human.stdout).toMatch(/dry run: decay of acme\/agent: 1 decayed, 1 expired/);

    const expirePreview = cli(path, 'expire', '--scope', SCOPE);
    expect(json(expirePreview)).toMatchObject({ dryRun: true, expired: 1, ids: [ids.stale] });
    const applied = cli(path, 'expire', '--scope', SCOPE, '--apply');
    expect(applied.status, applied.stderr).toBe(0);
    expect(json<{ expired: number; auditIds: string[] }>(applied)).toMatchObject({ dryRun: false, expired: 1 });
    const expired = json<{ items: Record<string, unknown>[] }>(cli(path, 'list', '--scope', SCOPE, '--status', 'expired'));
    expect(expired.items).toEqual([expect.objectContaining({ id: ids.stale, status: 'expired', content: '' })]);

    const run = cli(path, 'decay', '--scope', SCOPE);
    expect(json(run)).toMatchObject({ dryRun: false, decayed: [ids.idle] });
    expect(json<{ items: { id: string }[] }>(cli(path, 'list', '--scope', SCOPE, '--status', 'decayed')).items.map((i) => i.id)).toEqual([
      ids.idle,
    ]);

    const both = cli(path, 'expire', '--scope', SCOPE, '--apply', '--dry-run');
    expect(both.status).not.toBe(0);
    expect(both.stderr).toMatch(/not both/);
    const noScope = cli(path, 'decay');
    expect(noScope.status).not.toBe(0);
    expect(noScope.stderr).toMatch(/exactly one --scope/);
  });

  it('recall --chains prints the decision chain of a hit', async () => {
    const { path, ids } = await planted();
    const result = cli(path, 'recall', 'billing', 'release', 'Fridays', '--scope', SCOPE, '--chains');
    expect(result.status, result.stderr).toBe(0);
    const hit = json<{ hits: { id: string; chain?: { id: string; role: string }[] }[] }>(result).hits.find((h) => h.id === ids.decision);
    expect(hit?.chain?.map((m) => [m.id, m.role])).toEqual([
      [ids.decision, 'decision'],
      [ids.rejected, 'rejected'],
    ]);
    expect(runCli(['recall', 'billing', 'Fridays', '--db', path, '--scope', SCOPE, '--chains']).stdout).toContain(
      'rejected: Ship billing any day',
    );
  });
});
