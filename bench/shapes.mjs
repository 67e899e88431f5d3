#!/usr/bin/env node
// Store shapes the other benchmarks do not make: one long threaded conversation whose concepts have been
// extracted (many refs), and many small scopes (one per user), written user by user and interleaved (each
// batch spanning many scopes). Each is where a read or a layout that is linear in the scope, the thread
// or the store shows; the embedder is the hash one, since what is measured is the store. Recall is
// measured as a long-running process sees it (indexes prepared).
//   node bench/shapes.mjs [--turns 100000] [--users 1000] [--per-user 20] [--queries 60] [--out DIR]
//     [--db postgres://…]   (PostgreSQL: each shape in its own schema, dropped first; sizes are the
//                           schema's tables with their indexes; writes shapes-postgres.*)
// ENGRAM_DIST=/path/to/dist/index.js measures another build (e.g. an older commit's) the same way.
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { writeChartOf } from './charts.mjs';
import { CACHE_DIR, dropSchema, environment, log, mb, percentiles, printTable, RESULTS_DIR } from './lib.mjs';

const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const at = argv.indexOf(name);
  return at === -1 ? fallback : argv[at + 1];
};
const turns = Number(option('--turns', 100_000));
const users = Number(option('--users', 1000));
const perUser = Number(option('--per-user', 20));
const queries = Number(option('--queries', 60));
const outDir = option('--out', RESULTS_DIR);
const pgUrl = option('--db', undefined);
const backend = pgUrl === undefined ? 'sqlite' : 'postgres';
const dist = process.env.ENGRAM_DIST ?? join(import.meta.dirname, '../dist/index.js');
const { Engram } = await import(pathToFileURL(dist).href);

const START = Date.UTC(2026, 0, 1);
const fileMb = (path) => mb(['', '-wal'].reduce((sum, suffix) => sum + (statSync(path + suffix, { throwIfNoEntry: false })?.size ?? 0), 0));

function vectorChunkMb(path) {
  const db = new Database(path, { readonly: true });
  sqliteVec.load(db);
  try {
    const row = /** @type {{ b: number | null } | undefined} */ (
      db.prepare('SELECT sum(length(vectors)) AS b FROM memory_vectors_vector_chunks00').get()
    );
    return mb(row?.b ?? 0);
  } finally {
    db.close();
  }
}

/** Where a shape's store lives: a fresh SQLite file, or a fresh schema of the PostgreSQL database. */
async function freshStore(name) {
  if (pgUrl !== undefined) {
    const schema = `shapes_${name}`;
    await dropSchema(pgUrl, schema);
    const url = new URL(pgUrl);
    url.searchParams.set('schema', schema);
    return { path: url.toString(), sizes: async () => ({ fileMb: await schemaMb(schema), vectorMb: null }) };
  }
  mkdirSync(CACHE_DIR, { recursive: true });
  const path = join(CACHE_DIR, `shapes-${name}.db`);
  for (const suffix of ['', '-wal', '-shm', '.lexical']) rmSync(path + suffix, { force: true });
  rmSync(`${path}.ann`, { recursive: true, force: true });
  return { path, sizes: async () => ({ fileMb: fileMb(path), vectorMb: vectorChunkMb(path) }) };
}

/**
 * @param {string} sql
 * @param {unknown[]} [params]
 * @returns {Promise<Array<Record<string, any>>>}
 */
async function pgQuery(sql, params = []) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** The schema's tables, their indexes and TOAST, in MB. */
async function schemaMb(schema) {
  const [row = { bytes: 0 }] = await pgQuery(
    `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::float8 AS bytes
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind IN ('r', 'm')`,
    [schema],
  );
  return mb(row.bytes);
}

async function ingest(engram, inputs) {
  const started = performance.now();
  for await (const _ of engram.rememberBatches(inputs, { batchSize: 512 })) void _;
  return inputs.length / ((performance.now() - started) / 1000);
}

/** A long-running process's view: the lexical index and the scopes' vector indexes are ready. */
async function warm(engram, scopes) {
  await engram.store.prepareLexicalIndex?.();
  if (scopes.length > 0) await engram.store.prepareVectorIndex?.(scopes);
}

async function recallTimes(engram, scopeOf) {
  const ask = (i) => `what did Ana say about topic ${(i * 7) % 97} at place ${i % 31}`;
  for (let i = 0; i < 10; i++) await engram.recall(ask(i), { scopes: [scopeOf(i)], k: 10, trackAccess: false });
  const times = [];
  for (let i = 0; i < queries; i++) {
    const started = performance.now();
    await engram.recall(ask(i), { scopes: [scopeOf(i)], k: 10, trackAccess: false });
    times.push(performance.now() - started);
  }
  return percentiles(times);
}

const turn = (i) => `${i % 2 ? 'Ana' : 'Ben'}: message ${i} about topic ${i % 97} and place ${i % 31}`;
const rows = [];

{
  log(`one threaded conversation of ${turns} turns (sessions of 20), concepts extracted`);
  const { path, sizes } = await freshStore('thread');
  const engram = await Engram.open({ path, embedder: 'hash' });
  const perSecond = await ingest(
    engram,
    Array.from({ length: turns }, (_, i) => ({
      scope: 'shapes/chat',
      content: turn(i),
      occurredAt: new Date(START + i * 60_000).toISOString(),
      context: { sessionId: `s${Math.floor(i / 20)}` },
    })),
  );
  await engram.processJobs({ scopes: ['shapes/chat'] });
  await engram.close();
  const reopened = await Engram.open({ path, embedder: 'hash' });
  await warm(reopened, ['shapes/chat']);
  const recall = await recallTimes(reopened, () => 'shapes/chat');
  await reopened.close();
  rows.push({
    shape: `1 scope, ${turns} threaded turns`,
    records: turns,
    perSecond,
    ...(await sizes()),
    ...prefixed(recall),
  });
}

/**
 * Many small scopes, written user by user (each batch holds one or two scopes) or interleaved (turn j
 * of every user, then turn j + 1: each batch of 512 spans 512 scopes, as an import of a multi-tenant
 * dump or a server taking many users' writes at once does).
 */
async function manyScopes(interleaved) {
  const total = users * perUser;
  log(`${users} scopes of ${perUser} memories (${total} in all), written ${interleaved ? 'interleaved' : 'user by user'}`);
  const { path, sizes } = await freshStore(interleaved ? 'users_mixed' : 'users');
  const engram = await Engram.open({ path, embedder: 'hash' });
  const inputs = [];
  for (let a = 0; a < (interleaved ? perUser : users); a++)
    for (let b = 0; b < (interleaved ? users : perUser); b++) {
      const [u, j] = interleaved ? [b, a] : [a, b];
      const i = u * perUser + j;
      inputs.push({
        scope: `shapes/user-${u}`,
        content: turn(i),
        occurredAt: new Date(START + i * 60_000).toISOString(),
        context: { sessionId: `u${u}` },
      });
    }
  const perSecond = await ingest(engram, inputs);
  await engram.close();
  const reopened = await Engram.open({ path, embedder: 'hash' });
  await warm(reopened, []);
  const recall = await recallTimes(reopened, (i) => `shapes/user-${(i * 37) % users}`);
  await reopened.close();
  rows.push({
    shape: `${users} scopes × ${perUser}${interleaved ? ', interleaved' : ''}`,
    records: total,
    perSecond,
    ...(await sizes()),
    ...prefixed(recall),
  });
}

await manyScopes(false);
await manyScopes(true);

function prefixed(p) {
  return { p50: p.p50, p95: p.p95 };
}

/** @type {Array<[string, string, number?]>} */
const columns = [
  ['shape', 'shape'],
  ['records', 'records', 0],
  ['ingest /s', 'perSecond', 0],
  [backend === 'sqlite' ? 'file MB' : 'schema MB', 'fileMb', 1],
  ...(backend === 'sqlite' ? [/** @type {[string, string, number]} */ (['vector chunks MB', 'vectorMb', 1])] : []),
  ['recall p50 ms', 'p50', 2],
  ['p95', 'p95', 2],
];
printTable(`store shapes on ${backend} (hash embedder, 256-d; ${dist})`, columns, rows);
const name = backend === 'sqlite' ? 'shapes' : 'shapes-postgres';
mkdirSync(outDir, { recursive: true });
writeFileSync(
  join(outDir, `${name}.json`),
  `${JSON.stringify({ name, backend, ...environment(), dist, options: { turns, users, perUser, queries }, rows }, null, 2)}\n`,
);
const header = `| ${columns.map(([h]) => h).join(' | ')} |\n|${columns.map(() => '---').join('|')}|\n`;
const body = rows
  .map((r) => `| ${columns.map(([, key, digits]) => (typeof r[key] === 'number' ? r[key].toFixed(digits ?? 1) : r[key])).join(' | ')} |`)
  .join('\n');
writeFileSync(
  join(outDir, `${name}.md`),
  `# Store shapes on ${backend} (hash embedder)\n\n\`node bench/shapes.mjs --turns ${turns} --users ${users} --per-user ${perUser}${pgUrl === undefined ? '' : ' --db postgres://…'}\`\n\n${header}${body}\n`,
);
log(`wrote ${join(outDir, `${name}.json`)}, ${name}.md and ${writeChartOf(join(outDir, `${name}.json`))}`);
