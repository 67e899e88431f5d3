/**
 * `engram export jsonl` / `import jsonl` through the built bin: an import killed with SIGKILL midway and
 * run again gives the same store as an uninterrupted one; each reader refuses the other's files.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { canonicalJson, DUMP_FORMAT, DUMP_VERSION } from '../../src/core/dump/index.js';
import { newId, newRecord } from '../../src/core/record-factory.js';
import { homedir } from 'node:os';
import { DEFAULT_ONNX_MODEL, hasModelFiles, resolveModelCacheDir } from '../../src/embeddings/onnx/index.js';
import { BIN, binBuilt, json, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const T0 = Date.UTC(2026, 0, 1);
const haveDefault = hasModelFiles(resolveModelCacheDir(process.env, homedir()), DEFAULT_ONNX_MODEL);
const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

function dir(): string {
  const t = tempDir('engram-dump-cli-');
  cleanups.push(t.cleanup);
  return t.dir;
}

/** A dump of `n` episodes over two scopes, written directly in the format (fast to make, large to import). */
function syntheticDump(n: number): string {
  const lines = [
    `{"format":"${DUMP_FORMAT}","version":1,"embedder":{"dimension":256,"name":"hash:256"},"embeddings":false,"scopes":["acme/a","acme/b"]}`,
  ];
  const records = Array.from({ length: n }, (_, i) => {
    const record = newRecord({
      now: T0 + i,
      scope: i % 2 === 0 ? 'acme/a' : 'acme/b',
      layer: 'episodic',
      content: `event ${i}: the robot moved crate ${i % 97} to shelf ${i % 13}`,
    });
    return { ...record, id: newId(T0 + i) };
  });
  records.sort((x, y) => (x.scope < y.scope ? -1 : x.scope > y.scope ? 1 : x.id < y.id ? -1 : 1));
  for (const record of records) lines.push(`{"kind":"record",${canonicalJson({ record }).slice(1)}`);
  lines.push(`{"kind":"end","counts":{"audit":0,"conceptRef":0,"edge":0,"record":${n},"relationType":0,"state":0}}`);
  return `${lines.join('\n')}\n`;
}

function countRecords(db: string): number {
  try {
    const connection = new Database(db, { readonly: true, fileMustExist: true });
    try {
      return (connection.prepare('SELECT count(*) AS n FROM memories').get() as { n: number }).n;
    } finally {
      connection.close();
    }
  } catch {
    return 0;
  }
}

/** Starts an import and SIGKILLs it once some, not all, records are committed; resolves with how many were. */
async function killMidway(db: string, file: string, total: number): Promise<number> {
  const child = spawn(process.execPath, [BIN, 'import', 'jsonl', '--db', db, '--embedder', 'hash', file], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  let committed = 0;
  for (let i = 0; i < 3000 && child.exitCode === null; i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    committed = countRecords(db);
    if (committed > 0) break;
  }
  child.kill('SIGKILL');
  await exited;
  committed = countRecords(db);
  expect(committed, 'the import was killed before it finished').toBeLessThan(total);
  return committed;
}

describe.skipIf(!binBuilt)('engram export jsonl / import jsonl', () => {
  it('an import killed with SIGKILL and run again gives the same store as an uninterrupted import', { timeout: 240_000 }, async () => {
    const d = dir();
    const total = 4000;
    const file = join(d, 'dump.jsonl');
    writeFileSync(file, syntheticDump(total));

    const whole = join(d, 'whole.db');
    const uninterrupted = runCli(['import', 'jsonl', '--db', whole, '--embedder', 'hash', '--json', file]);
    expect(uninterrupted.status, uninterrupted.stderr).toBe(0);
    expect(json<{ counts: { record: { created: number } } }>(uninterrupted).counts.record.created).toBe(total);

    const resumed = join(d, 'resumed.db');
    const committed = await killMidway(resumed, file, total);
    expect(committed).toBeGreaterThan(0);
    const rerun = runCli(['import', 'jsonl', '--db', resumed, '--json', file]);
    expect(rerun.status, rerun.stderr).toBe(0);
    const report = json<{ complete: boolean; counts: { record: { created: number; skipped: number; conflicting: number } } }>(rerun);
    expect(report.complete).toBe(true);
    expect(report.counts.record).toEqual({ created: total - committed, skipped: committed, conflicting: 0 });

    const dumpOf = (db: string): string => {
      const out = `${db}.out.jsonl`;
      const result = runCli(['export', 'jsonl', '--db', db, '--all-scopes', '--embeddings', out]);
      expect(result.status, result.stderr).toBe(0);
      return readFileSync(out, 'utf8');
    };
    const a = dumpOf(whole);
    expect(a.split('\n').length).toBe(total + 3);
    expect(dumpOf(resumed)).toBe(a);
  });

  it.skipIf(!haveDefault)(
    `a new store adopts the dump's model when installed, else takes the default and re-embeds (the real default model)${haveDefault ? '' : ` (skipped: ${DEFAULT_ONNX_MODEL} is not installed: engram models pull)`}`,
    { timeout: 240_000 },
    () => {
      const d = dir();
      const source = join(d, 'source.db');
      expect(
        runCli(['remember', '--db', source, '--embedder', 'hash:64', '--scope', 'acme/a', 'The coffee machine is on the third floor.'])
          .status,
      ).toBe(0);
      const dump = join(d, 'dump.jsonl');
      expect(runCli(['export', 'jsonl', '--db', source, '--scope', 'acme/a', '--embeddings', dump]).status).toBe(0);
      // installed (the hash embedder always is): adopted, and the dump's vectors are used as they are
      const adopted = runCli(['import', 'jsonl', '--db', join(d, 'adopted.db'), '--json', dump], { env: { ENGRAM_EMBEDDER: '' } });
      expect(adopted.status, adopted.stderr).toBe(0);
      expect(json<{ embedder: { store: string; vectors: string } }>(adopted).embedder).toMatchObject({ store: 'hash:64', vectors: 'dump' });

      // a model this machine cannot make: the default model, which embeds every record again
      const foreign = join(d, 'foreign.jsonl');
      writeFileSync(
        foreign,
        readFileSync(dump, 'utf8')
          .replace('"name":"hash:64"', '"name":"openai:text-embedding-3-small:1536"')
          .replace('"dimension":64', '"dimension":1536'),
      );
      const defaulted = runCli(['import', 'jsonl', '--db', join(d, 'default.db'), '--json', foreign], { env: { ENGRAM_EMBEDDER: '' } });
      expect(defaulted.status, defaulted.stderr).toBe(0);
      const report = json<{ embedder: { store: string; vectors: string }; embedded: number }>(defaulted);
      expect(report.embedder.store).toMatch(/^onnx:blend-e5-minilm:768:/);
      expect(report.embedder.vectors).toBe('embedded');
      expect(report.embedded).toBe(1);
      const recalled = runCli(['recall', '--db', join(d, 'default.db'), '--scope', 'acme/a', '--json', 'where is the espresso maker?']);
      expect(recalled.status, recalled.stderr).toBe(0);
      expect(JSON.stringify(JSON.parse(recalled.stdout))).toContain('third floor');
    },
  );

  it('refuses a remember-input file, and remember --file refuses a dump, each with a hint', () => {
    const d = dir();
    const inputs = join(d, 'inputs.jsonl');
    writeFileSync(inputs, '{"scope":"acme/a","content":"Alice likes tea"}\n');
    const refused = runCli(['import', 'jsonl', '--db', join(d, 'x.db'), '--embedder', 'hash', inputs]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('engram remember --file');
    // refused before the missing database was created, so the right dump imported next still picks its model
    expect(existsSync(join(d, 'x.db'))).toBe(false);
    for (const [name, text, said] of [
      ['empty.jsonl', '', 'the file is empty'],
      ['notes.txt', 'just some notes\n', 'line 1 is not JSON'],
      ['newer.jsonl', `${syntheticDump(1).split('\n')[0]!.replace('"version":1', '"version":99')}\n`, 'newer than this Engram reads'],
    ] as const) {
      writeFileSync(join(d, name), text);
      const wrong = runCli(['import', 'jsonl', '--db', join(d, `${name}.db`), join(d, name)]);
      expect(wrong.status, name).toBe(2);
      expect(wrong.stderr, name).toContain(said);
      expect(existsSync(join(d, `${name}.db`)), name).toBe(false);
    }
    // a folder is bad input naming it, not an internal error
    const folder = runCli(['import', 'jsonl', '--db', join(d, 'folder.db'), d]);
    expect(folder.status).toBe(2);
    expect(folder.stderr).toContain('it is a folder, not a dump file');
    expect(existsSync(join(d, 'folder.db'))).toBe(false);
    // stdin cannot be read twice: the store is opened first, and the import says the same
    const piped = runCli(['import', 'jsonl', '--db', join(d, 'piped.db'), '--embedder', 'hash', '-'], {
      input: readFileSync(inputs, 'utf8'),
    });
    expect(piped.status).toBe(2);
    expect(piped.stderr).toContain('engram remember --file');

    const dump = join(d, 'dump.jsonl');
    writeFileSync(dump, syntheticDump(3));
    const back = runCli(['remember', '--db', join(d, 'y.db'), '--embedder', 'hash', '--file', dump]);
    expect(back.status).not.toBe(0);
    expect(back.stderr).toContain('engram import jsonl');
  });

  it('a cut-off dump imports what it holds, says so, and the full file finishes the job', () => {
    const d = dir();
    const text = syntheticDump(10);
    const cut = join(d, 'cut.jsonl');
    writeFileSync(cut, text.split('\n').slice(0, 6).join('\n'));
    const db = join(d, 'z.db');
    const partial = runCli(['import', 'jsonl', '--db', db, '--embedder', 'hash', cut]);
    expect(partial.status).not.toBe(0);
    expect(partial.stderr).toContain('cut off');
    expect(countRecords(db)).toBe(5);
    const full = join(d, 'full.jsonl');
    writeFileSync(full, text);
    const done = runCli(['import', 'jsonl', '--db', db, '--json', full]);
    expect(json<{ counts: { record: { created: number; skipped: number } } }>(done).counts.record).toMatchObject({
      created: 5,
      skipped: 5,
    });
  });

  it('a dump written without redaction is redacted on import into a store that redacts, and says how many secrets went', () => {
    const d = dir();
    const token = 'ghp_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';
    const file = join(d, 'secret.jsonl');
    writeFileSync(file, syntheticDump(4).replace('event 0: the robot moved crate 0 to shelf 0', `event 0: the robot pushes with ${token}`));
    const db = join(d, 'r.db');
    const imported = runCli(['import', 'jsonl', '--db', db, '--embedder', 'hash', file]);
    expect(imported.status, imported.stderr).toBe(0);
    expect(imported.stdout).toMatch(/^ {2}1 secret redacted$/m);
    const connection = new Database(db, { readonly: true });
    try {
      const contents = connection.prepare('SELECT content FROM memories').pluck().all() as string[];
      expect(contents).toContain('event 0: the robot pushes with [redacted:github-token]');
      expect(contents.join('\n')).not.toContain(token);
    } finally {
      connection.close();
    }
  });

  it('export jsonl needs scopes, writes FILE whole or not at all, and - streams to stdout', () => {
    const d = dir();
    const db = join(d, 'w.db');
    expect(runCli(['remember', '--db', db, '--embedder', 'hash', '--scope', 'acme/a', 'Alice likes tea']).status).toBe(0);
    const none = runCli(['export', 'jsonl', '--db', db, join(d, 'none.jsonl')]);
    expect(none.status).not.toBe(0);
    expect(none.stderr).toContain('--all-scopes');
    const nowhere = runCli(['export', 'jsonl', '--db', db, '--scope', 'acme/a', join(d, 'missing', 'x.jsonl')]);
    expect(nowhere.status).toBe(2);
    expect(nowhere.stderr).toContain('Check that its folder exists');
    const stdout = runCli(['export', 'jsonl', '--db', db, '--scope', 'acme/a', '-']);
    expect(stdout.status).toBe(0);
    const lines = stdout.stdout.trim().split('\n');
    expect(JSON.parse(lines[0]!)).toMatchObject({
      format: 'engram-dump',
      version: DUMP_VERSION,
      embedder: { name: 'hash:256' },
      scopes: ['acme/a'],
    });
    expect(lines).toHaveLength(3);
    const imported = runCli(['import', 'jsonl', '--db', join(d, 'v.db'), '--json', '-'], { input: stdout.stdout });
    expect(imported.status, imported.stderr).toBe(0);
  });
});
