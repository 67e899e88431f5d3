/**
 * Durability under SIGKILL and concurrency, on a SQLite file and (when ENGRAM_TEST_PG_URL is set) the
 * PostgreSQL server: an import (`remember --file`) and a consolidation cycle killed at seeded moments
 * lose no acknowledged write and leave no duplicate; 4 processes each running concurrent writers and
 * key creators on one database lose nothing and report no error.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { generateEpisodeStream } from '../../src/consolidation/synthetic-stream.js';
import { ApiKeys } from '../../src/interfaces/http/index.js';
import { Engram } from '../../src/index.js';
import { BIN, binBuilt } from '../helpers/cli.js';
import { freshPgSchema, pgTestUrl, PG_SKIP_REASON } from '../helpers/postgres.js';
import { tempDir } from '../helpers/temp.js';
import { count, printFigures } from './figures.js';

const CONSOLIDATE = fileURLToPath(new URL('./fixtures/consolidate-once.mjs', import.meta.url));
const WRITER = fileURLToPath(new URL('./fixtures/writer.mjs', import.meta.url));
const T0 = Date.UTC(2026, 2, 1);
const LOCK_TTL_MS = 700;

interface Db {
  /** `--db` value: a file path or a postgres:// URL. */
  location: string;
  drop: () => Promise<void>;
}

interface Backend {
  name: string;
  kills: number;
  fresh(name: string): Db;
}

const tmp = tempDir('engram-reliability-');
const backends: Backend[] = [
  { name: 'SQLite file', kills: 6, fresh: (name) => ({ location: join(tmp.dir, `${name}.db`), drop: async () => undefined }) },
];
const pgUrl = pgTestUrl();
if (pgUrl !== undefined) {
  backends.push({
    name: 'PostgreSQL server',
    kills: 4,
    fresh: () => {
      const schema = freshPgSchema('dur');
      return { location: schema.url, drop: schema.drop };
    },
  });
} else {
  describe.skip(`durability on the PostgreSQL server (${PG_SKIP_REASON})`, () => {
    it('survives kills and concurrent writers on PostgreSQL', () => undefined);
  });
}

afterAll(() => {
  tmp.cleanup();
  printFigures('durability');
});

/** Runs a child; kills it with SIGKILL after `killAfterMs` (or on the `killAfterLines`-th stdout line). */
/**
 * Runs a child and SIGKILLs it `killAfterMs` after it starts — or, with `fromFirstLine`, after its first
 * line of output (so the kill lands in the work, not in Node's start-up, however fast the machine) —
 * or after `killAfterLines` lines.
 */
function runUntilKilled(
  args: string[],
  options: { killAfterMs: number; killAfterLines?: number; fromFirstLine?: boolean },
): Promise<{ lines: string[]; killed: boolean; status: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const lines: string[] = [];
    let buffer = '';
    let stderr = '';
    let killed = false;
    const kill = () => {
      if (child.exitCode === null && !killed) {
        killed = true;
        child.kill('SIGKILL');
      }
    };
    let timer = options.fromFirstLine === true ? undefined : setTimeout(kill, options.killAfterMs);
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      for (let i = buffer.indexOf('\n'); i !== -1; i = buffer.indexOf('\n')) {
        timer ??= setTimeout(kill, options.killAfterMs);
        lines.push(buffer.slice(0, i));
        buffer = buffer.slice(i + 1);
        if (options.killAfterLines !== undefined && lines.length >= options.killAfterLines) kill();
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      resolve({ lines, killed: killed && signal === 'SIGKILL', status, stderr });
    });
  });
}

async function withEngram<T>(location: string, run: (engram: Engram) => Promise<T>): Promise<T> {
  const engram = await Engram.open({ path: location, embedder: 'hash' });
  try {
    return await run(engram);
  } finally {
    await engram.close();
  }
}

/** Every record of a scope, any status. */
async function allRecords(engram: Engram, scope: string) {
  const all = [];
  let afterId: string | undefined;
  for (;;) {
    const page = await engram.store.listMemories({ scopes: [scope], limit: 500, ...(afterId !== undefined ? { afterId } : {}) });
    all.push(...page);
    if (page.length < 500) break;
    afterId = page[page.length - 1]?.id;
  }
  return all;
}

/** Seeded kill moments: how many acknowledged transactions, and a timer as the fallback. */
function killPlan(seed: number, kills: number): { lines: number; ms: number }[] {
  return fc.sample(fc.record({ lines: fc.integer({ min: 1, max: 12 }), ms: fc.integer({ min: 300, max: 4_000 }) }), {
    seed,
    numRuns: kills,
  });
}

for (const backend of backends) {
  describe.skipIf(!binBuilt)(`durability (${backend.name}; needs npm run build)`, () => {
    it('remember --file killed with SIGKILL at seeded moments: every acknowledged id present, no duplicates after the re-run', async () => {
      const db = backend.fresh('import');
      const scope = 'acme/import';
      const file = join(tmp.dir, `import-${backend.kills}.jsonl`);
      const total = 300;
      writeFileSync(
        file,
        Array.from({ length: total }, (_, i) =>
          JSON.stringify({ content: `imported line ${i} about invoice ${i * 7}`, layer: i % 3 === 0 ? 'semantic' : 'episodic' }),
        ).join('\n'),
      );
      const acknowledged = new Set<string>();
      try {
        for (const plan of killPlan(7, backend.kills)) {
          const run = await runUntilKilled(
            [BIN, 'remember', '--db', db.location, '--embedder', 'hash', '--json', '--scope', scope, '--file', file, '--batch-size', '6'],
            {
              killAfterMs: plan.ms,
              killAfterLines: plan.lines,
            },
          );
          for (const line of run.lines)
            for (const id of (JSON.parse(line) as { committed?: string[] }).committed ?? []) acknowledged.add(id);
          if (run.killed) count(`${backend.name}: kills survived (import)`);
          else expect(run.status, run.stderr).toBe(0);
          const present = await withEngram(db.location, (engram) => engram.store.getMemories([...acknowledged], [scope]));
          expect(present.length, 'acknowledged writes missing after a kill').toBe(acknowledged.size);
        }
        const final = await runUntilKilled(
          [BIN, 'remember', '--db', db.location, '--embedder', 'hash', '--json', '--scope', scope, '--file', file, '--batch-size', '6'],
          { killAfterMs: 120_000 },
        );
        expect(final.status, final.stderr).toBe(0);
        const records = await withEngram(db.location, (engram) => allRecords(engram, scope));
        const contents = records.map((r) => r.content);
        expect(new Set(contents).size, 'duplicates after the re-run').toBe(contents.length);
        expect(contents.length).toBe(total);
        count(`${backend.name}: acknowledged writes verified`, acknowledged.size + total);
      } finally {
        await db.drop();
      }
    }, 240_000);

    it('consolidate killed with SIGKILL at seeded moments: nothing seeded lost, and the finished store equals an uninterrupted run', async () => {
      const scope = 'acme/robot';
      const seed = async (location: string) =>
        withEngram(location, async (engram) => {
          const { episodes } = generateEpisodeStream({ seed: 5, start: T0 - 5 * 86_400_000 });
          const results = await engram.remember(episodes.slice(0, 120).map((e) => ({ ...e, scope })));
          await engram.remember(
            Array.from({ length: 8 }, (_, i) => ({
              scope,
              content: `Deploy ${i} failed because the migration timed out`,
              importance: 0.9,
            })),
          );
          return results.map((r) => r.id);
        });
      const interrupted = backend.fresh('consolidate-killed');
      const reference = backend.fresh('consolidate-reference');
      try {
        const seeded = await seed(interrupted.location);
        await seed(reference.location);
        // the cycle itself takes ~100-200 ms here, so the kill is timed from the fixture's "started" line
        const run = (location: string, killAfterMs: number) =>
          runUntilKilled([CONSOLIDATE, location, scope, String(T0), String(LOCK_TTL_MS)], { killAfterMs, fromFirstLine: true });
        let finished = false;
        let kills = 0;
        for (const plan of killPlan(11, backend.kills)) {
          const result = await run(interrupted.location, Math.round(plan.ms / 40));
          if (result.killed) {
            kills += 1;
            count(`${backend.name}: kills survived (consolidate)`);
          } else if (result.status === 0) finished = true;
          else expect(result.stderr, 'a killed cycle left a lock the next run could not take after its lease').toMatch(/LOCKED|lease/);
          const present = await withEngram(interrupted.location, (engram) => engram.store.getMemories(seeded, [scope]));
          expect(present.length, 'seeded records lost after a killed consolidation').toBe(seeded.length);
          count(`${backend.name}: acknowledged writes verified`, seeded.length);
          // the dead holder's lease must run out before the next cycle may start
          await new Promise((r) => setTimeout(r, LOCK_TTL_MS + 100));
          if (finished) break;
        }
        expect(kills, 'no cycle was killed while it ran, so this run proved nothing').toBeGreaterThan(0);
        if (!finished) {
          const last = await run(interrupted.location, 120_000);
          expect(last.status, last.stderr).toBe(0);
        }
        const straight = await run(reference.location, 120_000);
        expect(straight.status, straight.stderr).toBe(0);
        const [left, right] = await Promise.all(
          [interrupted, reference].map((db) => withEngram(db.location, (engram) => allRecords(engram, scope))),
        );
        const shape = (records: NonNullable<typeof left>) => records.map((r) => `${r.layer}|${r.status}|${r.content}`).sort();
        expect(shape(left as NonNullable<typeof left>)).toEqual(shape(right as NonNullable<typeof right>));
      } finally {
        await interrupted.drop();
        await reference.drop();
      }
    }, 240_000);

    it('4 processes × 3 concurrent writers and a key creator on one database: every acknowledged memory and key present, no error', async () => {
      const db = backend.fresh('concurrent');
      const scope = 'acme/ledger';
      const perWriter = 15;
      const keysPerProcess = 5;
      try {
        // Create the database first, so the processes race on writes, not on the schema.
        await withEngram(db.location, async () => undefined);
        const runs = await Promise.all(
          [0, 1, 2, 3].map((p) =>
            runUntilKilled([WRITER, db.location, scope, `p${p}`, '3', String(perWriter), String(keysPerProcess)], { killAfterMs: 180_000 }),
          ),
        );
        const memories: string[] = [];
        const keys: { key: string; keyId: string }[] = [];
        for (const run of runs) {
          expect(run.status, run.stderr).toBe(0);
          const parsed = run.lines.map(
            (l) => JSON.parse(l) as { memory?: string; key?: string; keyId?: string; done?: boolean; errors?: string[] },
          );
          expect(parsed.at(-1)?.errors, 'a writer reported errors').toEqual([]);
          for (const line of parsed) {
            if (line.memory !== undefined) memories.push(line.memory);
            if (line.key !== undefined && line.keyId !== undefined) keys.push({ key: line.key, keyId: line.keyId });
          }
        }
        expect(memories.length).toBe(4 * 3 * perWriter);
        expect(keys.length).toBe(4 * keysPerProcess);
        await withEngram(db.location, async (engram) => {
          const present = await engram.store.getMemories(memories, [scope]);
          expect(present.length, 'acknowledged memories missing').toBe(memories.length);
          const ring = new ApiKeys(engram.store);
          const listed = new Set((await ring.list()).map((k) => k.id));
          const lost = keys.filter((k) => !listed.has(k.keyId));
          expect(
            lost.map((k) => k.keyId),
            'created keys missing from keys list',
          ).toEqual([]);
          for (const k of keys) expect(await ring.verify(k.key), `key ${k.keyId} does not verify`).not.toBeNull();
        });
        count(`${backend.name}: concurrent writes verified`, memories.length);
        count(`${backend.name}: concurrent keys verified`, keys.length);
      } finally {
        await db.drop();
      }
    }, 240_000);
  });
}
