/**
 * `engram reembed` as a user runs it (the built bin against temp databases): killed with SIGKILL
 * mid-run and run again (it resumes), a second run and a consolidation while one runs (LOCKED, exit
 * 7), nothing to do, unknown and missing models (nothing changed), the PostgreSQL server, and one move
 * to the real bge-small-en-v1.5 model after which a paraphrase finds its memory.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { homedir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engram } from '../../src/index.js';
import { hasModelFiles, resolveModelCacheDir } from '../../src/embeddings/onnx/index.js';
import { triples } from '../fixtures/paraphrase-triples.js';
import { BIN, binBuilt, json, runCli, runCliAsync } from '../helpers/cli.js';
import { dropPgSchema, pgTestUrl, PG_SKIP_REASON, uniqueSchema, withSchema } from '../helpers/postgres.js';
import { tempDir } from '../helpers/temp.js';

interface Report {
  from: string;
  to: string;
  changed: boolean;
  records: number;
  vectors: number;
  embedded: number;
  resumed: boolean;
}

const ENV = { ENGRAM_EMBEDDER: '' };

async function fillStore(path: string, count: number): Promise<void> {
  const engram = await Engram.open({ path, embedder: 'hash' });
  for (let i = 0; i < count; i += 500) {
    await engram.remember(
      Array.from({ length: Math.min(500, count - i) }, (_, j) => ({
        scope: `acme/s${(i + j) % 3}`,
        content: `Record ${i + j}: the courier left parcel ${i + j} at gate ${(i + j) % 11}.`,
      })),
    );
  }
  await engram.close();
}

/** Staged vectors in the file (read-only, as another process would see them). */
function stagedCount(path: string): number {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM embedding_staging').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

async function waitFor(condition: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Stops `child` (SIGSTOP) at a moment it holds no write transaction, so others only meet its lease. */
async function pauseOutsideTransaction(child: ChildProcess, path: string): Promise<void> {
  const probe = new Database(path, { timeout: 0 });
  try {
    for (let attempt = 0; attempt < 500; attempt++) {
      child.kill('SIGSTOP');
      try {
        probe.exec('BEGIN IMMEDIATE');
        probe.exec('ROLLBACK');
        return;
      } catch {
        child.kill('SIGCONT');
        await new Promise((resolve) => setTimeout(resolve, 3));
      }
    }
    throw new Error('the run never left its write transaction');
  } finally {
    probe.close();
  }
}

function spawnReembed(args: readonly string[]): { child: ChildProcess; exited: Promise<number | null>; stderr: () => string } {
  const child = spawn(process.execPath, [BIN, 'reembed', ...args], { env: { ...process.env, ...ENV } });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout?.resume();
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, stderr: () => stderr };
}

describe.skipIf(!binBuilt)('engram reembed (CLI)', { timeout: 180_000 }, () => {
  let dir: string;
  let cleanup: () => void;
  beforeAll(() => ({ dir, cleanup } = tempDir()));
  afterAll(() => cleanup());

  it('killed with SIGKILL mid-run leaves the store on its old model; a second run and a consolidation meanwhile get LOCKED; a rerun resumes and completes', async () => {
    const db = join(dir, 'big.db');
    await fillStore(db, 3000);
    const first = spawnReembed(['--embedder', 'hash:64', '--db', db, '--batch', '1']);
    await waitFor(() => stagedCount(db) >= 50, 'the first staged vectors');
    first.child.kill('SIGKILL');
    expect(await first.exited).toBeNull();
    const killedAt = stagedCount(db);
    expect(killedAt).toBeGreaterThanOrEqual(50);
    expect(killedAt).toBeLessThan(3000);

    // fully usable on the old model: reads and writes
    const recalled = runCli(['recall', 'parcel 17 gate', '--scope', 'acme/s2', '--db', db, '--json'], { env: ENV });
    expect(recalled.status, recalled.stderr).toBe(0);
    expect(json<{ hits: Array<{ content: string }> }>(recalled).hits[0]?.content).toContain('parcel 17 ');
    expect(runCli(['remember', 'the night shift locked gate 4', '--scope', 'acme/s1', '--db', db], { env: ENV }).status).toBe(0);
    expect(json<{ embedder: string }>(runCli(['stats', '--scope', 'acme/s1', '--db', db, '--json'], { env: ENV })).embedder).toBe(
      'hash:256',
    );

    // while a run holds the lease (paused between transactions), another reembed and a consolidation get LOCKED, exit 7
    const second = spawnReembed(['--embedder', 'hash:64', '--db', db, '--batch', '1']);
    await waitFor(() => stagedCount(db) >= killedAt + 20, 'the second run to continue');
    await pauseOutsideTransaction(second.child, db);
    const third = await runCliAsync(['reembed', '--embedder', 'hash:64', '--db', db, '--json'], { env: ENV });
    expect(third.status, third.stderr).toBe(7);
    expect(JSON.parse(third.stderr.trim().split('\n').pop() as string).error.code).toBe('LOCKED');
    const cycle = await runCliAsync(['consolidate', '--scope', 'acme/s0', '--db', db], { env: ENV });
    expect(cycle.status, cycle.stderr).toBe(7);
    expect(cycle.stderr).toContain('reembed');
    second.child.kill('SIGKILL');
    expect(await second.exited).toBeNull();
    const before = stagedCount(db);
    expect(before).toBeGreaterThan(killedAt);

    // the rerun takes over the dead run's lease at once and continues from the staged vectors
    const rerun = runCli(['reembed', '--embedder', 'hash:64', '--db', db, '--batch', '50', '--json'], { env: ENV });
    expect(rerun.status, rerun.stderr).toBe(0);
    const report = json<Report>(rerun);
    expect(report).toMatchObject({ from: 'hash:256', to: 'hash:64', changed: true, resumed: true, vectors: 3001 });
    expect(report.embedded).toBe(3001 - before);
    expect(rerun.stderr).toMatch(/engram reembed: embedding \d+\/3001 records/);

    const after = runCli(['recall', 'who locked gate 4?', '--scope', 'acme/s1', '--db', db, '--json'], { env: ENV });
    expect(json<{ hits: Array<{ content: string }> }>(after).hits[0]?.content).toContain('night shift');
    expect(json<{ embedder: string }>(runCli(['stats', '--scope', 'acme/s1', '--db', db, '--json'], { env: ENV })).embedder).toBe(
      'hash:64',
    );
    expect(stagedCount(db)).toBe(0);
  });

  it('says there is nothing to do for the current model, and refuses unknown or missing models with a hint, changing nothing', () => {
    const db = join(dir, 'small.db');
    expect(
      runCli(['remember', 'the spare key is under the blue pot', '--scope', 'me/home', '--db', db, '--embedder', 'hash'], { env: ENV })
        .status,
    ).toBe(0);
    const same = runCli(['reembed', '--embedder', 'hash', '--db', db], { env: ENV });
    expect(same.status, same.stderr).toBe(0);
    expect(same.stdout).toContain('already uses hash:256: nothing to do');

    const unknown = runCli(['reembed', '--embedder', 'bge-large-xx', '--db', db], { env: ENV });
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('engram models pull NAME');
    const missing = runCli(['reembed', '--embedder', 'e5-small-v2', '--db', db, '--cache-dir', join(dir, 'no-cache')], { env: ENV });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('engram models pull e5-small-v2');
    const badBatch = runCli(['reembed', '--embedder', 'hash:64', '--db', db, '--batch', 'many'], { env: ENV });
    expect(badBatch.status).toBe(2);

    const stats = json<{ embedder: string }>(runCli(['stats', '--scope', 'me/home', '--db', db, '--json'], { env: ENV }));
    expect(stats.embedder).toBe('hash:256');
    expect(stagedCount(db)).toBe(0);
  });

  const url = pgTestUrl();
  it.skipIf(url === undefined)(`moves a PostgreSQL store${url === undefined ? ` (${PG_SKIP_REASON})` : ''}`, async () => {
    const schema = uniqueSchema('cr');
    const db = withSchema(url as string, schema);
    try {
      expect(
        runCli(['remember', 'the boiler is serviced every October', '--scope', 'me/home', '--db', db, '--embedder', 'hash'], { env: ENV })
          .status,
      ).toBe(0);
      const moved = runCli(['reembed', '--embedder', 'hash:64', '--db', db, '--json'], { env: ENV });
      expect(moved.status, moved.stderr).toBe(0);
      expect(json<Report>(moved)).toMatchObject({ changed: true, to: 'hash:64', vectors: 1 });
      const recalled = json<{ hits: Array<{ content: string }> }>(
        runCli(['recall', 'boiler service', '--scope', 'me/home', '--db', db, '--json'], { env: ENV }),
      );
      expect(recalled.hits[0]?.content).toContain('boiler');
    } finally {
      await dropPgSchema(url as string, schema);
    }
  });
});

const cacheDir = resolveModelCacheDir(process.env, homedir());
const bgeMissing = hasModelFiles(cacheDir, 'bge-small-en-v1.5')
  ? ''
  : ` (skipped: bge-small-en-v1.5 is not in ${cacheDir}; run "engram models pull bge-small-en-v1.5")`;

it('has the default model in the cache when CI=true', () => {
  if (process.env.CI === 'true') expect(bgeMissing, 'bge-small-en-v1.5 must be in the cache on CI').toBe('');
});

describe.skipIf(!binBuilt || bgeMissing !== '')(
  `engram reembed --embedder bge-small-en-v1.5 (real model)${bgeMissing}`,
  { timeout: 180_000 },
  () => {
    it('after moving a hash store to bge-small, paraphrases find their memories', async () => {
      const { dir, cleanup } = tempDir();
      try {
        const db = join(dir, 'notes.db');
        const engram = await Engram.open({ path: db, embedder: 'hash' });
        // one scope per triple: the paraphrase against its distractor
        await engram.remember(
          triples.flatMap((t, i) => [
            { scope: `me/t${i}`, content: t.right },
            { scope: `me/t${i}`, content: t.wrong },
          ]),
        );
        await engram.close();
        const moved = runCli(['reembed', '--embedder', 'bge-small-en-v1.5', '--db', db, '--json'], { env: ENV });
        expect(moved.status, moved.stderr).toBe(0);
        expect(json<Report>(moved)).toMatchObject({ from: 'hash:256', changed: true, vectors: triples.length * 2 });
        expect(json<Report>(moved).to).toMatch(/^onnx:bge-small-en-v1\.5:384:[0-9a-f]{8}$/);

        const reopened = await Engram.open({ path: db });
        try {
          expect(reopened.embedder.name).toMatch(/^onnx:bge-small-en-v1\.5:384:/);
          let found = 0;
          for (const [i, t] of triples.entries()) {
            const { hits } = await reopened.recall(t.query, { scopes: [`me/t${i}`], weights: { lexical: 0 }, trackAccess: false });
            if (hits[0]?.content === t.right) found++;
          }
          expect(found).toBeGreaterThanOrEqual(Math.ceil(triples.length * 0.85));
          const { hits } = await reopened.recall('my flight got cancelled', {
            scopes: [`me/t${triples.findIndex((t) => t.query === 'my flight got cancelled')}`],
          });
          expect(hits[0]?.content).toBe('the airline called off the plane trip');
        } finally {
          await reopened.close();
        }
      } finally {
        cleanup();
      }
    });
  },
);
