/**
 * The CLI contract of the core issue, exercised by spawning the built bin against a temp database.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binBuilt, invalidInputOf, json, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

interface Hit {
  id: string;
  scope: string;
  layer: string;
  content: string;
  score: number;
  status: string;
  validFrom: string;
  validTo: string | null;
  recordedAt: string;
  invalidatedAt: string | null;
  why: { channels: Record<string, { rank: number; score: number }> };
}

describe.skipIf(!binBuilt)('engram CLI (skipped when dist/ is missing: run npm run build)', () => {
  const tmp = tempDir('engram-cli-');
  const db = join(tmp.dir, 'cli.db');
  const base = ['--db', db, '--json', '--embedder', 'hash'];
  const ids: Record<string, string> = {};

  afterAll(() => tmp.cleanup());

  beforeAll(() => {
    const facts: [string, string, string][] = [
      ['coffee', 't/a', 'Alice drinks her coffee black with no sugar every morning.'],
      ['dog', 't/a', 'The team dog Biscuit is a golden retriever who loves tennis balls.'],
      ['deploy', 't/a', 'Deploys to production happen on Tuesdays after the standup.'],
      ['secret', 't/b', 'Alice drinks her coffee black with no sugar, says the t/b scope.'],
    ];
    for (const [key, scope, text] of facts) {
      const result = runCli(['remember', ...base, '--scope', scope, '--layer', 'semantic', text]);
      expect(result.status, result.stderr).toBe(0);
      const out = json<{ id: string; action: string }>(result);
      expect(out.action).toBe('created');
      expect(out.id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
      ids[key] = out.id;
    }
  });

  it('recall ranks the relevant fact first and never returns another scope', () => {
    const result = runCli(['recall', ...base, '--scope', 't/a', 'how does Alice take her coffee?']);
    expect(result.status, result.stderr).toBe(0);
    const { hits } = json<{ hits: Hit[] }>(result);
    expect(hits[0]?.id).toBe(ids.coffee);
    expect(hits.every((h) => h.scope === 't/a')).toBe(true);
    expect(hits.map((h) => h.id)).not.toContain(ids.secret);
    const hit = hits[0] as Hit;
    for (const field of [
      'id',
      'scope',
      'layer',
      'content',
      'score',
      'status',
      'validFrom',
      'validTo',
      'recordedAt',
      'invalidatedAt',
      'why',
    ]) {
      expect(hit).toHaveProperty(field);
    }
    expect(hit.why.channels.lexical?.rank).toBe(1);
  });

  it('recall without --scope fails with a clear message and no stack trace', () => {
    const result = runCli(['recall', '--db', db, '--embedder', 'hash', 'coffee']);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/scope/i);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    const jsonResult = runCli(['recall', ...base, 'coffee']);
    const error = JSON.parse(jsonResult.stderr.trim()) as { error: { code: string; message: string } };
    expect(error.error.code).toBe('INVALID_INPUT');
    expect(error.error.message).toMatch(/--scope/);
  });

  it('a numeric flag given something else names the flag and what was typed', () => {
    const before = json<{ total: number }>(runCli(['stats', ...base, '--scope', 't/a'])).total;
    const lines = join(tmp.dir, 'two-lines.jsonl');
    writeFileSync(lines, `${JSON.stringify({ content: 'first line' })}\n${JSON.stringify({ content: 'second line' })}\n`);
    const cases: [string[], RegExp][] = [
      [['recall', ...base, '--scope', 't/a', '--k', 'ten', 'coffee'], /--k must be a number, e\.g\. --k 10; got "ten"/],
      [['remember', ...base, '--scope', 't/a', '--importance', 'high', 'a note'], /--importance must be a number.*got "high"/],
      [['surface', ...base, '--scope', 't/a', '--limit', ''], /--limit must be a number.*got ""/],
      [
        ['context', ...base, '--scope', 't/a', '--budget-ms', 'soon', 'coffee'],
        /--budget-ms must be a number, e\.g\. --budget-ms 50; got "soon"/,
      ],
      [['activate', '01ARZ3NDEKTSV4RRFFQ69G5FAV', ...base, '--scope', 't/a', '--hops', 'many'], /--hops must be a number.*got "many"/],
      [['list', ...base, '--scope', 't/a', '--limit', 'all'], /--limit must be a number, e\.g\. --limit 50; got "all"/],
      // a number out of range is the API's to refuse, with its own message
      [['recall', ...base, '--scope', 't/a', '--k', '0', 'coffee'], /k is too small \(minimum 1\)/],
      [['list', ...base, '--scope', 't/a', '--limit', '-5'], /limit is too small \(minimum 1\)/],
      [['remember', ...base, '--scope', 't/a', '--file', lines, '--batch-size', 'big'], /--batch-size must be a number.*got "big"/],
      [['remember', ...base, '--scope', 't/a', '--file', lines, '--batch-size', '0'], /--batch-size must be a whole number ≥ 1.*got "0"/],
    ];
    for (const [args, message] of cases) expect(invalidInputOf(args).message, args.join(' ')).toMatch(message);
    expect(json<{ total: number }>(runCli(['stats', ...base, '--scope', 't/a'])).total).toBe(before);
  });

  it('get, forget and restore respect the scope', () => {
    const wrong = runCli(['get', ids.coffee as string, ...base, '--scope', 't/b']);
    expect(wrong.status).toBe(3);
    expect(JSON.parse(wrong.stderr).error.code).toBe('NOT_FOUND');
    const got = json<{ id: string; content: string }>(runCli(['get', ids.coffee as string, ...base, '--scope', 't/a']));
    expect(got.content).toMatch(/coffee black/);

    expect(runCli(['forget', ids.coffee as string, ...base, '--scope', 't/b']).status).toBe(3);
    const forgotten = json<{ status: string }>(runCli(['forget', ids.coffee as string, ...base, '--scope', 't/a']));
    expect(forgotten.status).toBe('deleted');
    const after = json<{ hits: Hit[] }>(runCli(['recall', ...base, '--scope', 't/a', 'coffee']));
    expect(after.hits.map((h) => h.id)).not.toContain(ids.coffee);
    const restored = json<{ status: string }>(runCli(['restore', ids.coffee as string, ...base, '--scope', 't/a']));
    expect(restored.status).toBe('active');
    const again = json<{ hits: Hit[] }>(runCli(['recall', ...base, '--scope', 't/a', 'coffee']));
    expect(again.hits[0]?.id).toBe(ids.coffee);
  });

  it('edges of an id no named scope holds is NOT_FOUND (exit 3) like every read by id; a memory without edges is []', () => {
    for (const [id, scope] of [
      ['01NOSUCHMEMORY0000000000000', 't/a'],
      [ids.coffee as string, 't/b'],
    ] as const) {
      const missing = runCli(['edges', id, ...base, '--scope', scope]);
      expect(missing.status, missing.stdout).toBe(3);
      expect(JSON.parse(missing.stderr).error.code).toBe('NOT_FOUND');
      const text = runCli(['edges', id, '--db', db, '--scope', scope]);
      expect(text.status).toBe(3);
      expect(text.stdout).toBe('');
    }
    const none = runCli(['edges', ids.coffee as string, ...base, '--scope', 't/a']);
    expect(none.status, none.stderr).toBe(0);
    expect(json(none)).toEqual([]);
  });

  it('stats counts only the named scopes', () => {
    const a = json<{ total: number; byLayer: Record<string, number> }>(runCli(['stats', ...base, '--scope', 't/a']));
    expect(a.total).toBe(3);
    expect(a.byLayer.semantic).toBe(3);
    const b = json<{ total: number }>(runCli(['stats', ...base, '--scope', 't/b']));
    expect(b.total).toBe(1);
  });

  it('invalid writes return INVALID_INPUT and change nothing', () => {
    const before = json<{ total: number }>(runCli(['stats', ...base, '--scope', 't/a'])).total;
    const cases: string[][] = [
      ['--scope', 't/a', ' '],
      ['--scope', '../etc', 'bad scope'],
      ['--scope', 't/a', '--importance', '7', 'too important'],
      ['--scope', 't/a', '--layer', 'dreams', 'unknown layer'],
      ['--scope', 't/a', '--occurred-at', 'yesterday-ish', 'bad date'],
      ['text without a scope'],
    ];
    for (const args of cases) {
      const result = runCli(['remember', ...base, ...args]);
      expect(result.status, args.join(' ')).toBe(2);
      expect(JSON.parse(result.stderr).error.code).toBe('INVALID_INPUT');
    }
    const huge = join(tmp.dir, 'huge.jsonl');
    writeFileSync(huge, `${JSON.stringify({ content: 'x'.repeat(2 * 1024 * 1024) })}\n`);
    const big = runCli(['remember', ...base, '--scope', 't/a', '--file', huge]);
    expect(big.status).toBe(2);
    expect(JSON.parse(big.stderr).error.message).toMatch(/longer than/);
    expect(json<{ total: number }>(runCli(['stats', ...base, '--scope', 't/a'])).total).toBe(before);
  });

  it('imports a JSONL file with per-transaction acknowledgements, idempotently', () => {
    const file = join(tmp.dir, 'batch.jsonl');
    const lines = Array.from({ length: 25 }, (_, i) => JSON.stringify({ content: `Batch memory number ${i} about topic ${i % 5}` }));
    lines.splice(3, 0, '');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const first = runCli(['remember', ...base, '--scope', 't/import', '--file', file, '--batch-size', '10']);
    expect(first.status, first.stderr).toBe(0);
    const out = first.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const acks = out.filter((o) => 'committed' in o) as { committed: string[] }[];
    expect(acks).toHaveLength(3);
    expect(acks.flatMap((a) => a.committed)).toHaveLength(25);
    expect((out.at(-1) as { summary: { created: number } }).summary.created).toBe(25);
    const second = runCli(['remember', ...base, '--scope', 't/import', '--file', file]);
    const summary = (JSON.parse(second.stdout.trim().split('\n').at(-1) as string) as { summary: { created: number; unchanged: number } })
      .summary;
    expect(summary).toMatchObject({ created: 0, unchanged: 25 });
    expect(json<{ total: number }>(runCli(['stats', ...base, '--scope', 't/import'])).total).toBe(25);
  });

  it('a file with one bad line writes nothing and names the line', () => {
    const file = join(tmp.dir, 'bad.jsonl');
    writeFileSync(file, [JSON.stringify({ content: 'fine' }), '{not json', JSON.stringify({ content: 'ok', importance: 3 })].join('\n'));
    const result = runCli(['remember', ...base, '--scope', 't/bad', '--file', file]);
    expect(result.status).toBe(2);
    expect(JSON.parse(result.stderr).error.message).toMatch(/line 2.*line 3/s);
    expect(json<{ total: number }>(runCli(['stats', ...base, '--scope', 't/bad'])).total).toBe(0);
  });

  it('refuses to open a database with a different embedder', () => {
    const result = runCli(['recall', '--db', db, '--json', '--embedder', 'use', '--scope', 't/a', 'coffee']);
    expect(result.status).toBe(2);
    expect(JSON.parse(result.stderr).error.code).toBe('EMBEDDING_MODEL_MISMATCH');
  });

  it('supersession, --as-of, --known-at, --include-superseded, history and unsupersede', () => {
    const scope = ['--scope', 't/claims'];
    const old = json<{ id: string; action: string }>(
      runCli([
        'remember',
        ...base,
        ...scope,
        '--layer',
        'semantic',
        '--valid-from',
        '2024-01-01T00:00:00Z',
        'The deploy target is staging.',
      ]),
    );
    const t0 = new Date().toISOString();
    const fix = json<{ id: string; action: string; superseded: string[] }>(
      runCli(['remember', ...base, ...scope, '--layer', 'semantic', 'The deploy target moved from staging to production.']),
    );
    expect(fix.action).toBe('superseded');
    expect(fix.superseded).toEqual([old.id]);
    const ids = (args: string[]) =>
      json<{ hits: Hit[] }>(runCli(['recall', ...base, ...scope, ...args, 'deploy target'])).hits.map((h) => h.id);
    expect(ids([])).toEqual([fix.id]);
    expect(ids(['--as-of', '2024-06-01T00:00:00Z'])).toEqual([old.id]);
    expect(ids(['--known-at', t0])).toEqual([old.id]);
    expect(ids(['--include-superseded']).sort()).toEqual([old.id, fix.id].sort());
    const history = json<{ versions: { id: string }[] }>(runCli(['history', fix.id, ...base, ...scope]));
    expect(history.versions.map((v) => v.id)).toEqual([old.id, fix.id]);
    const undone = json<{ status: string }>(runCli(['unsupersede', old.id, ...base, ...scope]));
    expect(undone.status).toBe('active');
  });

  it('reopens an existing database with its own embedder when none is named', () => {
    const result = runCli(['stats', '--db', db, '--json', '--scope', 't/a']);
    expect(result.status, result.stderr).toBe(0);
    expect(json<{ embedder: string }>(result).embedder).toMatch(/^hash/);
  });
});
