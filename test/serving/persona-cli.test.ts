/**
 * The CLI of personas and profile schemas, by spawning the built bin against a temp database:
 * `engram persona set|show|history|revert`, `engram profile-schema set|show`, `recall --persona`,
 * `context --persona` and the profile fields in `context --json`.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { binBuilt, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

describe.skipIf(!binBuilt)('engram persona and profile-schema (CLI)', { timeout: 120_000 }, () => {
  const tmp = tempDir();
  afterAll(() => tmp.cleanup());
  const db = join(tmp.dir, 'p.db');
  const common = ['--db', db, '--embedder', 'hash'];
  const json = <T>(args: string[]): T => {
    const result = runCli([...args, ...common, '--json']);
    expect(result.status, result.stderr).toBe(0);
    return JSON.parse(result.stdout) as T;
  };

  it('sets, shows, lists and reverts a persona; recall --persona re-ranks with why.persona', () => {
    const first = json<{ id: string }>(['persona', 'set', '--scope', 'lab/a', '--disposition', 'curiosity=0.5']);
    json([
      'persona',
      'set',
      '--scope',
      'lab/a',
      '--disposition',
      'curiosity=0.9',
      '--favour',
      'curiosity.tags=ml',
      '--reason',
      'more curious',
    ]);
    expect(
      json<{ persona: { dispositions: Record<string, number> } }>(['persona', 'show', '--scope', 'lab/a']).persona.dispositions,
    ).toEqual({ curiosity: 0.9 });
    const history = json<{ change: { reason: string } }[]>(['persona', 'history', '--scope', 'lab/a']);
    expect(history.map((v) => v.change.reason)).toEqual(['set by a person', 'more curious']);
    const reverted = json<{ persona: { dispositions: Record<string, number> }; change: { by: string; revertOf: string } }>([
      'persona',
      'revert',
      '--scope',
      'lab/a',
    ]);
    expect(reverted).toMatchObject({ persona: { dispositions: { curiosity: 0.5 } }, change: { by: 'revert', revertOf: first.id } });
    const bad = runCli(['persona', 'set', '--scope', 'lab/a', '--disposition', 'curiosity=2', ...common]);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toMatch(/curiosity|0 to 1/);

    json(['persona', 'set', '--scope', 'lab/a', '--disposition', 'curiosity=1', '--favour', 'curiosity.tags=ml']);
    for (const [i, tag] of ['ml', 'misc', 'misc', 'ml'].entries())
      json(['remember', `Training note ${i} about the model`, '--scope', 'lab/a', '--tag', tag]);
    const plain = json<{ hits: { tags: string[]; why: { persona?: unknown } }[] }>(['recall', 'training note model', '--scope', 'lab/a']);
    expect(plain.hits.every((h) => h.why.persona === undefined)).toBe(true);
    const lifted = json<{ hits: { tags: string[]; why: { persona?: unknown } }[] }>([
      'recall',
      'training note model',
      '--scope',
      'lab/a',
      '--persona',
    ]);
    expect(lifted.hits.slice(0, 2).every((h) => h.tags.includes('ml'))).toBe(true);
    expect(lifted.hits[0]?.why.persona).toMatchObject({ matched: ['curiosity 1: tag ml'] });
  });

  it('sets and shows a profile schema; context --json lists known and missing fields', () => {
    const set = json<{ fields: { name: string }[] }>([
      'profile-schema',
      'set',
      '--scope',
      'acme/shared',
      '--field',
      'budget range: what the user can spend (example: 80L)',
      '--field',
      'BHK requirement: bedrooms (example: 3 BHK)',
    ]);
    expect(set.fields.map((f) => f.name)).toEqual(['budget range', 'BHK requirement']);
    expect(json<{ fields: unknown[] }>(['profile-schema', 'show', '--scope', 'acme/shared']).fields).toHaveLength(2);
    json(['remember', 'My budget is 80L.', '--scope', 'acme/users/alice', '--layer', 'semantic']);
    const ctx = json<{ parts: { profileFields: { known: { field: string }[]; missing: string[] } }; markdown: string }>([
      'context',
      'any flats?',
      '--scope',
      'acme/shared',
      '--scope',
      'acme/users/alice',
      '--budget-ms',
      '5000',
    ]);
    expect(ctx.parts.profileFields.known.map((k) => k.field)).toEqual(['budget range']);
    expect(ctx.parts.profileFields.missing).toEqual(['BHK requirement']);
    expect(ctx.markdown).toContain('Still unknown — ask when natural: BHK requirement');
    const none = runCli(['profile-schema', 'set', '--scope', 'acme/shared', ...common]);
    expect(none.status).not.toBe(0);
    expect(none.stderr).toContain('profile-schema set needs fields');
  });
});
