#!/usr/bin/env node
// PostgreSQL at scale: `npm run bench:postgres-scale [-- --sizes 100000 --servers 1,2,4 --connections 8,32 --duration 15 --name postgres-scale]`.
//
// For each corpus size (bench/pg-corpus.mjs: one schema per size on the server named by
// $ENGRAM_BENCH_PG_URL, else $ENGRAM_TEST_PG_URL; static-table vectors, built once and cached):
//  1. where the time goes, in-process: engine recalls against the store (k = 10, default weights, query
//     embedding included) with every store method and every SQL statement timed, then EXPLAIN ANALYZE of
//     the costliest statements;
//  2. throughput: N `engram serve` processes over the one schema (`--servers 1,2,4`), each with its own
//     pool, and autocannon in a separate process on loopback spreading `--connections` (total) over
//     them round-robin. Per row: requests/s, requests/s per core, p50/p95/p99, errors (any non-2xx,
//     socket error or timeout fails the run), and the CPU each party used during the run (the servers,
//     their PostgreSQL backends, the load generator, everything else on the machine), from /proc.
// A separate script rather than a mode of bench/http.mjs: that one compares backends one server at a
// time with UI-read baselines; this one varies the number of servers and accounts CPU per process.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CORPUS_SEED, MAIN_SCOPE, assertBuilt } from './corpus-db.mjs';
import {
  REPO_DIR,
  RESULTS_DIR,
  environment,
  log,
  makeQueries,
  newEngineCore,
  percentiles,
  printTable,
  since,
  startServer,
  writeResult,
} from './lib.mjs';
import { writeChartOf } from './charts.mjs';
import { ensurePostgresCorpus, redact } from './pg-corpus.mjs';

const SCRIPT = new URL(import.meta.url).pathname;
const QUERY_SEED = 4_242;
/** The application_name of every session the serve processes open, so their backends can be found. */
const APPLICATION = `engram-bench-scale-${process.pid}`;
const TICK_MS = 1000 / 100; // /proc/<pid>/stat counts CPU in clock ticks (CLK_TCK = 100 on Linux)

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '100000' },
    servers: { type: 'string', default: '1,2,4' },
    // total connections of the load generator, spread over the servers
    connections: { type: 'string', default: '8,32' },
    duration: { type: 'string', default: '15' },
    // result files bench/results/<name>.{json,md} (e.g. a 1M run kept beside the 100k one)
    name: { type: 'string', default: 'postgres-scale' },
    queries: { type: 'string', default: '500' },
    'profile-queries': { type: 'string', default: '200' },
    k: { type: 'string', default: '10' },
    // internal: run as the load generator with this JSON job and print its result
    drive: { type: 'string' },
  },
});

/** @type {any} A client of the server for pg_stat_activity (opened on first use). */
let admin;
const k = Number(args.k);
const recallBody = (query) => JSON.stringify({ scopes: [MAIN_SCOPE], query, k, trackAccess: false });

if (args.drive !== undefined) await drive(JSON.parse(args.drive));
else await main();

async function main() {
  assertBuilt();
  const cores = availableParallelism();
  const results = [];
  for (const size of args.sizes.split(',').map((s) => Number(s.replace(/k$/i, '000').replace(/m$/i, '000000')))) {
    const corpus = await ensurePostgresCorpus(size, { application_name: APPLICATION });
    if (corpus === null) throw new Error('no PostgreSQL server configured: set ENGRAM_BENCH_PG_URL (or ENGRAM_TEST_PG_URL)');
    log(`${size} memories in ${redact(corpus.url)}`);
    const profile = await profileRecall(corpus.url, size);
    // printed now, so a later failure (a server that does not warm up) does not lose it
    log(`${size}: store methods per recall ${JSON.stringify(profile.byMethod)}`);
    const rows = [];
    for (const servers of args.servers
      .split(',')
      .map(Number)
      .filter((n) => n > 0)) {
      const started = await Promise.all(Array.from({ length: servers }, () => startServer(corpus.url)));
      try {
        // together: each loads the scope's vectors into its own cache on its first recall
        await Promise.all(started.map((server) => warmUp(server.url, size)));
        const rssMb = started.map((s) => Math.round(rssKb(s.pid) / 1024));
        for (const connections of args.connections.split(',').map(Number)) {
          log(`${size} memories, ${servers} server(s), ${connections} connection(s), ${args.duration} s`);
          const row = await loadRun({ servers: started, connections, size });
          rows.push({
            size,
            servers,
            connections,
            serverRssMb: rssMb,
            ...row,
            requestsPerSecondPerCore: round1(row.requestsPerSecond / cores),
          });
        }
      } finally {
        await Promise.all(started.map((s) => s.stop()));
      }
    }
    results.push({ size, build: corpus.build, profile, rows });
  }
  report(results, cores);
}

/** Recalls until the server answers fast (its vector cache is loaded); fails on any non-200. */
async function warmUp(url, size) {
  const queries = makeQueries({ seed: QUERY_SEED + 1, count: 20, corpusSeed: CORPUS_SEED, corpusSize: size }).map((q) => q.text);
  const start = performance.now();
  for (const query of queries) {
    // node:http, not fetch: a first recall that loads 1M vectors takes minutes, past fetch's 300 s header timeout
    const response = await postJson(`${url}/v1/recall`, recallBody(query));
    if (response.status !== 200) throw new Error(`warm-up recall answered ${response.status}: ${response.text}`);
    const { hits } = /** @type {{ hits: unknown }} */ (JSON.parse(response.text));
    if (!Array.isArray(hits) || hits.length === 0) throw new Error('warm-up recall returned no hits: is the corpus empty?');
  }
  log(`warm-up of ${url}: ${queries.length} recalls in ${Math.round(since(start))} ms`);
}

/** A POST of a JSON body with no time limit: `{ status, text }`. */
function postJson(url, body) {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** One autocannon run in a child process over every server, with the CPU of each party over the run. */
async function loadRun({ servers, connections, size }) {
  const job = { urls: servers.map((s) => s.url), connections, duration: Number(args.duration), size, queries: Number(args.queries) };
  const before = { servers: servers.map((s) => procCpuMs(s.pid)), machine: machineCpu(), backends: new Map() };
  const backends = new Map(); // pid -> [first seen CPU ms, last seen CPU ms]
  const watch = async () => {
    for (const pid of await backendPids()) {
      const cpu = procCpuMs(pid);
      if (cpu === null) continue;
      const seen = backends.get(pid);
      if (seen === undefined) backends.set(pid, [cpu, cpu]);
      else seen[1] = cpu;
    }
  };
  await watch();
  const initial = new Set(backends.keys());
  const timer = setInterval(() => void watch(), 500);
  const started = performance.now();
  const result = await runChild(job);
  clearInterval(timer);
  await watch();
  const wallMs = since(started);
  const machine = machineCpu();
  const serverCpuMs = servers.reduce((sum, s, i) => sum + ((procCpuMs(s.pid) ?? 0) - (before.servers[i] ?? 0)), 0);
  // a backend opened during the run counts from zero, one open before it from its first reading
  let backendCpuMs = 0;
  for (const [pid, [first, last]] of backends) backendCpuMs += initial.has(pid) ? last - first : last;
  const machineBusyMs = machine.busyMs - before.machine.busyMs;
  const cores = (ms) => Math.round((ms / wallMs) * 100) / 100;
  const { latency } = result;
  return {
    requests: result.requests,
    requestsPerSecond: result.requestsPerSecond,
    latencyMs: latency,
    p50: latency.p50,
    p95: latency.p95,
    p99: latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    cpuCores: {
      servers: cores(serverCpuMs),
      postgres: cores(backendCpuMs),
      loadGenerator: cores(result.cpuMs),
      other: cores(Math.max(0, machineBusyMs - serverCpuMs - backendCpuMs - result.cpuMs)),
      machine: cores(machineBusyMs),
    },
    cpuMsPerRequest: {
      servers: round2(serverCpuMs / result.requests),
      postgres: round2(backendCpuMs / result.requests),
      loadGenerator: round2(result.cpuMs / result.requests),
    },
    postgresBackends: backends.size,
    loadAverage: loadavg().map((x) => Math.round(x * 100) / 100),
  };
}

function runChild(job) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SCRIPT, '--drive', JSON.stringify(job), '--k', String(k)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`load generator exited with ${code}`))));
  });
}

/** The load generator (a child process): autocannon over `job.urls`, round-robin, varied recall queries. */
async function drive(job) {
  const { default: autocannon } = await import('autocannon');
  const queries = makeQueries({ seed: QUERY_SEED, count: job.queries, corpusSeed: CORPUS_SEED, corpusSize: job.size }).map((q) => q.text);
  let next = 0;
  const cpu = process.cpuUsage();
  const instance = autocannon({
    url: job.urls.length === 1 ? job.urls[0] : job.urls,
    connections: job.connections,
    duration: job.duration,
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
  // every response's latency, so p95 is exact (autocannon's summary has p90 and p97.5 but no p95)
  const latencies = [];
  instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  const result = await instance;
  const used = process.cpuUsage(cpu);
  const latency = percentiles(latencies);
  process.stdout.write(
    JSON.stringify({
      requests: result.requests.total,
      requestsPerSecond: round1(result.requests.total / result.duration),
      latency: {
        p50: round1(latency.p50),
        p95: round1(latency.p95),
        p99: round1(latency.p99),
        max: round1(latency.max),
        mean: round1(latency.mean),
      },
      non2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
      cpuMs: (used.user + used.system) / 1000,
    }),
  );
}

/** CPU time (user + system, ms) of a process so far, or null once it is gone. */
function procCpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return null;
  }
}

function rssKb(pid) {
  const match = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match === null ? 0 : Number(match[1]);
}

/** Busy CPU time of the whole machine so far (every core, ms). */
function machineCpu() {
  const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = values.map(Number);
  return { busyMs: (user + nice + system + irq + softirq + steal) * TICK_MS, idleMs: (idle + iowait) * TICK_MS };
}

/** Process ids of the PostgreSQL backends serving this run's `engram serve` processes. */
async function backendPids() {
  if (admin === undefined) {
    const pg = (await import('pg')).default;
    const url = new URL(/** @type {string} */ (process.env.ENGRAM_BENCH_PG_URL ?? process.env.ENGRAM_TEST_PG_URL));
    admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
  }
  const rows = await admin.query('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [APPLICATION]);
  return rows.rows.map((r) => r.pid);
}

/**
 * Engine recalls in this process against the store, with every store method and SQL statement timed,
 * then EXPLAIN (ANALYZE, BUFFERS) of the three statements that cost most in total.
 */
async function profileRecall(url, size) {
  const dist = (path) => join(REPO_DIR, 'dist', path);
  const { openPostgresStore } = await import(dist('storage/postgres/index.js'));
  const { StaticEmbedder } = await import(dist('embeddings/static/index.js'));
  const embedder = StaticEmbedder.create();
  await embedder.warmUp();
  const store = await openPostgresStore({ url, embedding: { name: embedder.name, dimension: embedder.dimension } });
  const methods = new Map();
  const statements = new Map();
  /** @param {(...a: any[]) => string} key */
  const wrap = (target, name, sink, key = () => name) => {
    const original = target[name].bind(target);
    target[name] = (...a) => {
      const t = performance.now();
      const out = original(...a);
      const label = key(...a);
      const done = () => {
        const entry = sink.get(label) ?? { calls: 0, ms: 0, sample: a };
        entry.calls++;
        entry.ms += performance.now() - t;
        sink.set(label, entry);
      };
      return out && typeof out.then === 'function' ? out.finally(done) : (done(), out);
    };
  };
  const storeMethods = ['lexicalSearch', 'vectorSearch', 'temporalSearch', 'getMemories', 'getNeighbours', 'getEdges'];
  for (const name of [...storeMethods, 'getConceptRefs', 'findConceptsByRef', 'findConcepts', 'getRelationTypes', 'findClaims', 'getState'])
    if (typeof store[name] === 'function') wrap(store, name, methods);
  await store.withDriver(async (driver) => wrap(driver, 'query', statements, (sql) => statementKey(sql)));
  wrap(embedder, 'embed', methods);
  const engine = await newEngineCore({ store, embedder });
  const options = { scopes: [MAIN_SCOPE], k, trackAccess: false };
  const texts = makeQueries({ seed: QUERY_SEED, count: Number(args['profile-queries']), corpusSeed: CORPUS_SEED, corpusSize: size }).map(
    (q) => q.text,
  );
  const warmStart = performance.now();
  for (const text of makeQueries({ seed: QUERY_SEED + 1, count: 10, corpusSeed: CORPUS_SEED, corpusSize: size }))
    await engine.recall(text.text, options);
  const warmMs = Math.round(since(warmStart));
  methods.clear();
  statements.clear();
  const times = [];
  const top = createHash('sha256');
  for (const text of texts) {
    const t = performance.now();
    const { hits } = await engine.recall(text, options);
    times.push(since(t));
    top.update(`${hits.map((h) => h.id).join(',')}\n`);
  }
  const n = times.length;
  const perRecall = (map) =>
    [...map]
      .sort((a, b) => b[1].ms - a[1].ms)
      .map(([name, e]) => ({
        name,
        callsPerRecall: round2(e.calls / n),
        msPerRecall: round2(e.ms / n),
        msPerCall: round2(e.ms / e.calls),
        sample: e.sample,
      }));
  const byMethod = perRecall(methods).map(({ sample: _sample, ...rest }) => rest);
  const byStatement = perRecall(statements);
  const explained = [];
  for (const s of byStatement.slice(0, 3)) {
    const [sql, params] = s.sample;
    const plan = await store.withDriver((driver) => driver.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params));
    explained.push({ statement: s.name, plan: plan.rows.map((r) => r['QUERY PLAN']) });
  }
  const pool = await store.withDriver(async (driver) => (await driver.query('SHOW max_connections')).rows[0]);
  await store.close();
  const recall = percentiles(times);
  const topDigest = top.digest('hex').slice(0, 16);
  log(
    `profile: ${n} recalls (top-k digest ${topDigest}), p50 ${recall.p50} ms, p95 ${recall.p95} ms (first 10 recalls, vector cache load included: ${warmMs} ms)`,
  );
  return {
    recalls: n,
    recall,
    // the ranked top-k ids of every query, hashed: equal digests mean identical results (a store change that must not alter them)
    topDigest,
    warmUpMs: warmMs,
    byMethod,
    byStatement: byStatement.map(({ sample: _sample, ...rest }) => rest),
    statementsPerRecall: round2(byStatement.reduce((sum, s) => sum + s.callsPerRecall, 0)),
    statementMsPerRecall: round2(byStatement.reduce((sum, s) => sum + s.msPerRecall, 0)),
    explained,
    serverMaxConnections: Number(pool.max_connections),
  };
}

/** A statement's shape: schema and literals out, whitespace collapsed, cut to 110 characters. */
function statementKey(sql) {
  return sql
    .replace(/"bench_[a-z0-9_]+"\./g, '')
    .replace(/\s+/g, ' ')
    .replace(/\$\d+/g, '$')
    .trim()
    .slice(0, 110);
}

function round1(x) {
  return Math.round(x * 10) / 10;
}

function round2(x) {
  return Math.round(x * 100) / 100;
}

function report(results, cores) {
  const env = environment();
  const columns = [
    ['memories', 'size', 0],
    ['servers', 'servers', 0],
    ['connections', 'connections', 0],
    ['requests/s', 'requestsPerSecond', 1],
    ['req/s per core', 'requestsPerSecondPerCore', 1],
    ['p50 ms', 'p50', 0],
    ['p95 ms', 'p95', 0],
    ['p99 ms', 'p99', 0],
    ['requests', 'requests', 0],
    ['errors', 'failures', 0],
    ['CPU ms/req', 'cpuMsPerRequestTotal', 1],
    ['req per CPU-s', 'requestsPerCpuSecond', 1],
    ['servers CPU', 'cpuServers', 2],
    ['PG CPU', 'cpuPostgres', 2],
    ['loadgen CPU', 'cpuLoadGenerator', 2],
    ['other CPU', 'cpuOther', 2],
    ['load avg', 'load', 1],
  ];
  const flat = results.flatMap((r) =>
    r.rows.map((row) => ({
      ...row,
      failures: row.non2xx + row.errors + row.timeouts,
      // what one core would serve if the servers and their backends had it to themselves
      cpuMsPerRequestTotal: row.requests > 0 ? row.cpuMsPerRequest.servers + row.cpuMsPerRequest.postgres : undefined,
      requestsPerCpuSecond: row.requests > 0 ? round1(1000 / (row.cpuMsPerRequest.servers + row.cpuMsPerRequest.postgres)) : undefined,
      cpuServers: row.cpuCores.servers,
      cpuPostgres: row.cpuCores.postgres,
      cpuLoadGenerator: row.cpuCores.loadGenerator,
      cpuOther: row.cpuCores.other,
      load: row.loadAverage[0],
    })),
  );
  printTable(
    `POST /v1/recall over loopback on PostgreSQL (k=${k}, ${args.duration} s per row, ${cores} cores; CPU in cores busy)`,
    columns,
    flat,
  );
  const failed = flat.filter((row) => row.failures > 0 || row.requests === 0);
  for (const row of failed)
    process.stdout.write(
      `FAILED: ${row.servers} server(s), ${row.connections} connections: ${row.requests} requests answered within the run, ${row.non2xx} non-2xx, ${row.errors} errors, ${row.timeouts} timeouts\n`,
    );
  for (const r of results) {
    printTable(
      `Where a recall's time goes (${r.size} memories, in-process, ${r.profile.recalls} recalls: p50 ${r.profile.recall.p50} ms, p95 ${r.profile.recall.p95} ms)`,
      [
        ['store method', 'name'],
        ['calls/recall', 'callsPerRecall', 2],
        ['ms/recall', 'msPerRecall', 2],
        ['ms/call', 'msPerCall', 2],
      ],
      r.profile.byMethod,
    );
    printTable(
      `SQL statements (${r.profile.statementsPerRecall} per recall, ${r.profile.statementMsPerRecall} ms per recall)`,
      [
        ['statement', 'name'],
        ['calls/recall', 'callsPerRecall', 2],
        ['ms/recall', 'msPerRecall', 2],
        ['ms/call', 'msPerCall', 2],
      ],
      r.profile.byStatement.slice(0, 8),
    );
  }
  const path = writeResult(args.name, {
    cores,
    durationSeconds: Number(args.duration),
    k,
    embedder: 'static (distilled table of the default USE model) for corpus vectors and queries',
    vectorStorage: 'exact real[] (the server has no pgvector): each serve process keeps the scope vectors in memory',
    poolPerServer: 'pg.Pool max 10 (openPostgresStore default), idle timeout 10 s',
    command: `npm run bench:postgres-scale -- --sizes ${args.sizes} --servers ${args.servers} --connections ${args.connections} --duration ${args.duration}`,
    results,
  });
  const table = (cols, rows) => [
    `| ${cols.map(([h]) => h).join(' | ')} |`,
    `|${cols.map(() => '---').join('|')}|`,
    ...rows.map(
      (row) =>
        `| ${cols.map(([, key, digits]) => (typeof row[key] === 'number' ? row[key].toFixed(digits ?? 1) : (row[key] ?? '–'))).join(' | ')} |`,
    ),
  ];
  const md = [
    '# PostgreSQL at scale: several `engram serve` over one database',
    '',
    `\`npm run bench:postgres-scale -- --sizes ${args.sizes} --servers ${args.servers} --connections ${args.connections} --duration ${args.duration}\``,
    '',
    `PostgreSQL 15 on the same machine (no pgvector: exact search over \`real[]\`, each serve process keeps the scope's vectors in memory), static-table vectors and queries, \`POST /v1/recall\` k=${k}, \`trackAccess: false\`; autocannon in a separate process on loopback, connections spread round-robin over the servers. CPU columns: cores busy during the run, from /proc (servers; their PostgreSQL backends; the load generator; everything else on the machine). Machine: ${cores} cores (${env.cpuModel}), Node ${env.node}; load average (1 min) at the end of each row.`,
    '',
    ...table(columns, flat),
    '',
    ...failed.map(
      (row) =>
        `**FAILED**: ${row.servers} server(s), ${row.connections} connections: ${row.requests} requests answered within the run, ${row.non2xx} non-2xx, ${row.errors} errors, ${row.timeouts} timeouts.`,
    ),
    ...results.flatMap((r) => [
      `## Where a recall's time goes, ${r.size.toLocaleString('en')} memories`,
      '',
      `In-process engine recall against the store (${r.profile.recalls} recalls, one at a time): p50 ${r.profile.recall.p50} ms, p95 ${r.profile.recall.p95} ms. Channels run concurrently, so method times overlap. ${r.profile.statementsPerRecall} SQL statements per recall, ${r.profile.statementMsPerRecall} ms of them.`,
      '',
      ...table(
        [
          ['store method', 'name'],
          ['calls/recall', 'callsPerRecall', 2],
          ['ms/recall', 'msPerRecall', 2],
          ['ms/call', 'msPerCall', 2],
        ],
        r.profile.byMethod,
      ),
      '',
      ...table(
        [
          ['SQL statement', 'name'],
          ['calls/recall', 'callsPerRecall', 2],
          ['ms/recall', 'msPerRecall', 2],
          ['ms/call', 'msPerCall', 2],
        ],
        r.profile.byStatement.slice(0, 8).map((s) => ({ ...s, name: `\`${s.name.replaceAll('|', '\\|')}\`` })),
      ),
      '',
      ...(r.build === null
        ? []
        : [`Corpus load: ${r.build.recordsPerSecond} records/s (${r.build.seconds} s), through the store's transaction API.`, '']),
    ]),
  ].join('\n');
  writeFileSync(join(RESULTS_DIR, `${args.name}.md`), `${md}\n`);
  log(`wrote ${path}, bench/results/${args.name}.md and ${writeChartOf(path)}`);
  if (failed.length > 0) process.exitCode = 1;
  void admin?.end();
}
