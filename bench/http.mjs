#!/usr/bin/env node
// HTTP recall throughput and latency: `npm run bench:http [-- --size 100000 --duration 15 --connections 1,8]`.
//
// For each backend (SQLite file, PostgreSQL server) it starts `engram serve` over a corpus of `size`
// memories in one scope, then drives `POST /v1/recall` (k = 10, default weights, varied queries) with
// autocannon over loopback and reports requests/s and p50/p99 latency per concurrency level.
//
// Corpora are built once and cached: SQLite under bench/.cache (bench/corpus-db.mjs), PostgreSQL in a
// schema of the server named by $ENGRAM_BENCH_PG_URL (else $ENGRAM_TEST_PG_URL), with a marker in its
// metadata and in bench/.cache. Both hold the same generated memories; their vectors come from the
// static embedder (the distilled table of the default model: fast ingest) and queries are embedded by
// the same static embedder in the server. Reads pass `trackAccess: false` so the cached corpora stay as
// built (access tracking is batched off the read path anyway).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { CORPUS_SEED, MAIN_SCOPE, assertBuilt, ensureCorpus } from './corpus-db.mjs';
import { ensurePostgresCorpus } from './pg-corpus.mjs';
import { REPO_DIR, RESULTS_DIR, environment, fmt, log, makeQueries, printTable, since, startServer, writeResult } from './lib.mjs';

const QUERY_SEED = 4_242;

const { values: args } = parseArgs({
  options: {
    size: { type: 'string', default: '100000' },
    duration: { type: 'string', default: '15' },
    connections: { type: 'string', default: '1,8' },
    backends: { type: 'string', default: 'sqlite,postgres' },
    queries: { type: 'string', default: '500' },
    k: { type: 'string', default: '10' },
    // build (or check) the cached corpora and stop
    'build-only': { type: 'boolean', default: false },
  },
});

async function main() {
  assertBuilt();
  const size = Number(args.size.replace(/k$/i, '000'));
  const connections = args.connections.split(',').map(Number);
  const queries = makeQueries({ seed: QUERY_SEED, count: Number(args.queries), corpusSeed: CORPUS_SEED, corpusSize: size }).map(
    (q) => q.text,
  );
  const cases = [];
  const skipped = [];
  const baselines = [];
  for (const backend of args.backends.split(',')) {
    const db =
      backend === 'sqlite'
        ? (await ensureCorpus({ size, vectorSource: 'static' })).path
        : ((await ensurePostgresCorpus(size))?.url ?? null);
    if (db === null) {
      skipped.push({
        backend,
        reason: 'no PostgreSQL server configured: set ENGRAM_BENCH_PG_URL (or ENGRAM_TEST_PG_URL) to postgres://user:pw@host/db',
      });
      log(`skipping ${backend}: ${skipped[skipped.length - 1].reason}`);
      continue;
    }
    if (args['build-only']) {
      log(`${backend}: corpus ready (${db.replace(/\/\/[^@/]*@/, '//***@')})`);
      continue;
    }
    const library = await libraryBaseline(db, queries);
    const server = await startServer(db);
    try {
      await warmUp(server.url, queries);
      const health = await loadHealth(server.url);
      for (const c of connections) {
        log(`${backend}: ${size} memories, ${c} connection(s), ${args.duration} s`);
        cases.push({ backend, size, connections: c, ...(await load(server.url, queries, c)) });
      }
      // after the recall load, so the server's background index builds are not what is measured, and
      // once the recalls still queued from it have drained
      await settle(server.url);
      const list = await listLatency(server.url, size);
      const explore = await exploreLatency(server.url, size);
      baselines.push({ backend, library, health, list, explore });
    } finally {
      await server.stop();
    }
  }
  if (!args['build-only']) report({ size, cases, skipped, baselines });
}

/** The same recalls in-process through the library (no HTTP), sequentially: what HTTP adds is the difference. */
async function libraryBaseline(db, queries) {
  const { Engram } = await import(join(REPO_DIR, 'dist/index.js'));
  const engram = await Engram.open({ path: db, embedder: 'static' });
  try {
    const times = [];
    const began = performance.now();
    // 10 warm-up + 50 measured, or fewer on a slow backend (at most ~60 s, at least 5 measured)
    for (let i = 0; i < 60 && (since(began) < 60_000 || times.length < 5); i++) {
      const start = performance.now();
      await engram.recall(queries[(i * 7) % queries.length], { scopes: [MAIN_SCOPE], k: Number(args.k), trackAccess: false });
      if (i >= 10 || (i >= 2 && since(began) > 20_000)) times.push(since(start));
    }
    times.sort((a, b) => a - b);
    const at = (p) => Math.round(times[Math.min(times.length - 1, Math.floor(p * times.length))] * 10) / 10;
    log(`library recall (in-process, ${times.length} queries): p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`);
    return { queries: times.length, p50: at(0.5), p99: at(0.99) };
  } finally {
    await engram.close();
  }
}

/**
 * `GET /v1/memories` (browse, a page of 50), one request at a time: the default order, other sorts,
 * filters, and pages further in by cursor, with and without naming the scope (keyless: every scope).
 */
async function listLatency(url, size) {
  const variants = [
    '',
    '&sort=importance',
    '&sort=validFrom&order=asc',
    '&sort=accessedAt',
    '&layer=semantic',
    '&status=active',
    '&layer=episodic&status=active&sort=importance&order=asc',
    '&text=the',
  ];
  const times = [];
  for (let round = 0; round < 25; round++) {
    for (const [index, variant] of variants.entries()) {
      const scope = (round + index) % 2 === 0 ? `&scope=${encodeURIComponent(MAIN_SCOPE)}` : '';
      let cursor = '';
      // the first page, then one or two further by cursor
      for (let page = 0; page < 1 + ((round + index) % 3); page++) {
        const start = performance.now();
        const response = await fetch(`${url}/v1/memories?limit=50${scope}${variant}${cursor}`);
        const body = /** @type {{ items?: unknown[]; nextCursor?: string | null }} */ (await response.json());
        const elapsed = since(start);
        if (response.status !== 200 || !Array.isArray(body.items))
          throw new Error(`GET /v1/memories answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
        if (round > 0) times.push(elapsed);
        if (body.nextCursor === null || body.nextCursor === undefined) break;
        cursor = `&cursor=${body.nextCursor}`;
      }
    }
  }
  times.sort((a, b) => a - b);
  const at = (p) => Math.round(times[Math.min(times.length - 1, Math.floor(p * times.length))] * 10) / 10;
  log(
    `GET /v1/memories (page of 50, ${size} memories, ${times.length} requests): p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, p99 ${at(0.99)} ms`,
  );
  return { requests: times.length, p50: at(0.5), p95: at(0.95), p99: at(0.99) };
}

/** Waits (at most two minutes) until `GET /health` answers within 50 ms three times in a row: the server is idle. */
async function settle(url) {
  const started = performance.now();
  let fast = 0;
  while (fast < 3 && since(started) < 120_000) {
    const start = performance.now();
    await (await fetch(`${url}/health`)).json();
    fast = since(start) < 50 ? fast + 1 : 0;
    if (fast === 0) await new Promise((resolve) => setTimeout(resolve, 250));
  }
  log(`server idle after ${Math.round(since(started))} ms`);
}

/**
 * The exploring reads of the web UI, one request at a time over the corpus scope: `GET /v1/overview`
 * (aggregates, growth, decay candidates) and `GET /v1/graph` (concepts and their relations).
 */
async function exploreLatency(url, size) {
  const result = {};
  for (const [name, path] of [
    ['overview', `/v1/overview?scope=${encodeURIComponent(MAIN_SCOPE)}`],
    ['graph', `/v1/graph?scope=${encodeURIComponent(MAIN_SCOPE)}&limit=200`],
  ]) {
    const times = [];
    for (let round = 0; round < 21; round++) {
      const start = performance.now();
      const response = await fetch(url + path);
      await response.json();
      const elapsed = since(start);
      if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}`);
      if (round > 0) times.push(elapsed);
    }
    times.sort((a, b) => a - b);
    const at = (p) => Math.round(times[Math.min(times.length - 1, Math.floor(p * times.length))] * 10) / 10;
    result[name] = { requests: times.length, p50: at(0.5), p95: at(0.95) };
    log(`GET ${path.split('?')[0]} (${size} memories, ${times.length} requests): p50 ${at(0.5)} ms, p95 ${at(0.95)} ms`);
  }
  return result;
}

/** `GET /health` under load: the ceiling the HTTP stack itself allows on this machine. */
async function loadHealth(url) {
  const result = await autocannon({ url: `${url}/health`, connections: 8, duration: 5 });
  log(`GET /health: ${Math.round(result.requests.average)} requests/s, p50 ${result.latency.p50} ms`);
  return { requestsPerSecond: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99 };
}

function recallBody(query) {
  return JSON.stringify({ scopes: [MAIN_SCOPE], query, k: Number(args.k), trackAccess: false });
}

async function warmUp(url, queries) {
  const start = performance.now();
  for (let i = 0; i < 20 && since(start) < 30_000; i++) {
    const response = await fetch(`${url}/v1/recall`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: recallBody(queries[i % queries.length]),
    });
    if (response.status !== 200) throw new Error(`warm-up recall answered ${response.status}: ${await response.text()}`);
    const { hits } = /** @type {{ hits: unknown }} */ (await response.json());
    if (!Array.isArray(hits) || hits.length === 0) throw new Error('warm-up recall returned no hits: is the corpus empty?');
  }
  log(`warm-up: recalls for ${fmt(since(start), 0)} ms`);
}

async function load(url, queries, connections) {
  let next = 0;
  const result = await autocannon({
    url,
    connections,
    duration: Number(args.duration),
    // a slow answer is latency, not an error
    timeout: 120,
    requests: [
      {
        method: 'POST',
        path: '/v1/recall',
        headers: { 'content-type': 'application/json' },
        setupRequest: (request) => ({ ...request, body: recallBody(queries[next++ % queries.length]) }),
      },
    ],
  });
  return {
    requests: result.requests.total,
    requestsPerSecond: Math.round(result.requests.average * 10) / 10,
    latencyMs: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
      mean: Math.round(result.latency.average * 10) / 10,
    },
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    durationSeconds: result.duration,
  };
}

function report({ size, cases, skipped, baselines }) {
  const columns = [
    ['backend', 'backend'],
    ['memories', 'size', 0],
    ['connections', 'connections', 0],
    ['requests/s', 'requestsPerSecond', 1],
    ['p50 ms', 'p50', 0],
    ['p99 ms', 'p99', 0],
    ['max ms', 'max', 0],
    ['requests', 'requests', 0],
    ['non-2xx', 'non2xx', 0],
    ['errors', 'errors', 0],
  ];
  const flat = cases.map((c) => ({ ...c, ...c.latencyMs }));
  printTable(`POST /v1/recall over loopback (k=${args.k}, ${args.duration} s per row, autocannon)`, columns, flat);
  const rows = flat.map((c) => columns.map(([, key, digits]) => fmt(c[key], /** @type {number | undefined} */ (digits) ?? 1)));
  for (const b of baselines) {
    process.stdout.write(
      `${b.backend}: library recall in-process p50 ${b.library.p50} ms / p99 ${b.library.p99} ms; GET /health ${b.health.requestsPerSecond} requests/s (8 connections)\n`,
    );
    process.stdout.write(
      `${b.backend}: list (GET /v1/memories, page of 50, ${size} memories) p50 ${b.list.p50} ms / p95 ${b.list.p95} ms / p99 ${b.list.p99} ms over ${b.list.requests} requests\n`,
    );
    process.stdout.write(
      `${b.backend}: overview (GET /v1/overview) p50 ${b.explore.overview.p50} ms / p95 ${b.explore.overview.p95} ms; graph (GET /v1/graph, limit 200) p50 ${b.explore.graph.p50} ms / p95 ${b.explore.graph.p95} ms\n`,
    );
  }
  for (const s of skipped) process.stdout.write(`skipped ${s.backend}: ${s.reason}\n`);
  const env = environment();
  const path = writeResult('http', {
    size,
    k: Number(args.k),
    durationSeconds: Number(args.duration),
    embedder: 'static (distilled table of the default USE model) for corpus vectors and queries',
    trackAccess: false,
    cases,
    baselines,
    skipped,
  });
  const md = [
    '# HTTP API: recall over loopback',
    '',
    `\`npm run bench:http\` — ${size.toLocaleString('en')} memories in one scope, \`POST /v1/recall\` with k=${args.k}, default weights,`,
    `${args.queries} varied queries, autocannon for ${args.duration} s per row against \`engram serve\` on 127.0.0.1 (separate process).`,
    'Vectors and queries: static embedder (the distilled table of the default model).',
    `Machine: ${env.cpuCount} cores (${env.cpuModel}), Node ${env.node}, load average ${env.loadAverage.join(' / ')} at the end (shared machine).`,
    '',
    `| ${columns.map(([header]) => header).join(' | ')} |`,
    `|${columns.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
    '',
    'Baselines (same corpus): the same recall in-process through the library, sequential (what HTTP adds is the difference), and `GET /health` with 8 connections (the HTTP stack alone).',
    '',
    '| backend | library recall p50 ms | library recall p99 ms | GET /health requests/s |',
    '|---|---|---|---|',
    ...baselines.map((b) => `| ${b.backend} | ${b.library.p50} | ${b.library.p99} | ${b.health.requestsPerSecond} |`),
    '',
    'Reads of the web UI, one request at a time: a browse page of 50 (`GET /v1/memories`, every sort and filter, pages by cursor), the overview and the concept graph.',
    '',
    '| backend | list p50 ms | list p95 ms | list p99 ms | overview p50 ms | overview p95 ms | graph p50 ms | graph p95 ms |',
    '|---|---|---|---|---|---|---|---|',
    ...baselines.map(
      (b) =>
        `| ${b.backend} | ${b.list.p50} | ${b.list.p95} | ${b.list.p99} | ${b.explore.overview.p50} | ${b.explore.overview.p95} | ${b.explore.graph.p50} | ${b.explore.graph.p95} |`,
    ),
    '',
    ...skipped.map((s) => `Skipped ${s.backend}: ${s.reason}.`),
  ].join('\n');
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(join(RESULTS_DIR, 'http.md'), `${md}\n`);
  log(`wrote ${path} and bench/results/http.md`);
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
