// Shared helpers of the benchmarks: statistics, the synthetic corpus, an aligned table printer, RSS
// sampling and JSON results under bench/results/. Import from bench scripts only.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export { CORPUS_END, GENERATOR_VERSION, corpusRecord, makeQueries, memoryAt, mulberry32 } from './corpus.mjs';

export const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
export const REPO_DIR = dirname(BENCH_DIR);
export const RESULTS_DIR = join(BENCH_DIR, 'results');
/** Built corpora and scratch databases; not committed. Made here, since a fresh clone has none. */
export const CACHE_DIR = join(BENCH_DIR, '.cache');
mkdirSync(CACHE_DIR, { recursive: true });

/**
 * Removes a SQLite database and everything the store keeps beside it: the WAL and shared-memory files,
 * the HNSW folder (`.ann`) and the lexical index file (`.lexical`), so no stale derived file outlives it.
 */
export function removeDatabaseFiles(path) {
  for (const suffix of ['', '-wal', '-shm', '.ann', '.lexical', '.lexical.seal']) rmSync(path + suffix, { force: true, recursive: true });
}

/** The `p`-quantile (0..1) of ascending `sorted` values, linearly interpolated (numpy's default). */
export function quantile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const position = (sorted.length - 1) * p;
  const below = Math.floor(position);
  const above = Math.min(sorted.length - 1, below + 1);
  return sorted[below] + (sorted[above] - sorted[below]) * (position - below);
}

/**
 * An embedder that embeds each text once per purpose and hands back the same vector afterwards: repeated
 * recalls of one question then time the engine, not the model. Same name, dimension and cosine scale as
 * `inner`; closing it leaves `inner` open.
 */
export function memoisedEmbedder(inner) {
  const memo = new Map();
  const key = (text, options) => `${options?.purpose ?? 'passage'}\u0000${text}`;
  return {
    name: inner.name,
    dimension: inner.dimension,
    cosineScale: inner.cosineScale,
    async embed(texts, options) {
      const missing = texts.filter((t) => !memo.has(key(t, options)));
      if (missing.length > 0) (await inner.embed(missing, options)).forEach((v, j) => memo.set(key(missing[j], options), v));
      return texts.map((t) => memo.get(key(t, options)));
    },
    warmUp: () => inner.warmUp?.(),
    close: async () => undefined,
  };
}

/** n, mean, min, p50, p95, p99, max of `values` (unsorted), rounded to 3 decimals. */
export function percentiles(values) {
  const sorted = Float64Array.from(values).sort();
  const round = (x) => Math.round(x * 1000) / 1000;
  const sum = sorted.reduce((a, b) => a + b, 0);
  return {
    n: sorted.length,
    mean: round(sum / sorted.length),
    min: round(sorted[0]),
    p50: round(quantile(sorted, 0.5)),
    p95: round(quantile(sorted, 0.95)),
    p99: round(quantile(sorted, 0.99)),
    max: round(sorted[sorted.length - 1]),
  };
}

/** Milliseconds since `start` (a `performance.now()` value). */
export const since = (start) => performance.now() - start;

/** Formats a number for a table: `digits` decimals, thousands separated when large. */
export function fmt(value, digits = 1) {
  if (value === undefined || value === null || Number.isNaN(value)) return '–';
  if (typeof value !== 'number') return String(value);
  if (Math.abs(value) >= 1000) return Math.round(value).toLocaleString('en-US');
  return value.toFixed(digits);
}

/** Megabytes, one decimal. */
export const mb = (bytes) => Math.round((bytes / 1048576) * 10) / 10;

/**
 * Prints rows as an aligned plain-text table: text columns left-aligned, numbers right-aligned.
 * `columns` are `[header, key]` or `[header, key, digits]`; `rows` are objects.
 */
export function printTable(title, columns, rows, out = process.stdout) {
  const cells = rows.map((row) =>
    columns.map(([, key, digits]) => (typeof row[key] === 'number' ? fmt(row[key], digits ?? 1) : fmt(row[key]))),
  );
  const numeric = columns.map(([, key]) => rows.some((row) => typeof row[key] === 'number'));
  const widths = columns.map(([header], i) => Math.max(header.length, ...cells.map((r) => r[i].length)));
  const line = (values) =>
    values
      .map((v, i) => (numeric[i] ? v.padStart(widths[i]) : v.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  const lines = [title, line(columns.map(([header]) => header)), widths.map((w) => '-'.repeat(w)).join('  ')];
  for (const row of cells) lines.push(line(row));
  out.write(`\n${lines.join('\n')}\n`);
}

/**
 * Starts sampling this process's resident set size every `intervalMs` (worker threads included, they
 * share the process). `sample()` records one reading now (call it after long synchronous work, when
 * the timer could not fire); `stop()` ends sampling and returns the peak in MB.
 */
export function peakRss(intervalMs = 20) {
  let peak = process.memoryUsage.rss();
  const sample = () => {
    const rss = process.memoryUsage.rss();
    if (rss > peak) peak = rss;
    return rss;
  };
  const timer = setInterval(sample, intervalMs);
  timer.unref();
  return {
    sample,
    peakMb: () => mb(Math.max(peak, sample())),
    stop() {
      clearInterval(timer);
      return mb(Math.max(peak, sample()));
    },
  };
}

/** Current RSS and the process-lifetime peak (the kernel's maxrss), in MB. */
export function rssNow() {
  return { rssMb: mb(process.memoryUsage.rss()), maxRssMb: mb(process.resourceUsage().maxRSS * 1024) };
}

/** Size of a database file plus its WAL, in bytes (0 for a missing file). */
export function fileBytes(path) {
  let total = 0;
  for (const suffix of ['', '-wal']) {
    try {
      total += statSync(path + suffix).size;
    } catch {
      // no such file
    }
  }
  return total;
}

function git(args) {
  try {
    return execFileSync('git', args, { cwd: REPO_DIR, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

/** Where and on what a result was measured. */
export function environment() {
  const cpu = cpus();
  const status = git(['status', '--porcelain', '--untracked-files=no']);
  return {
    timestamp: new Date().toISOString(),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    cpuCount: availableParallelism(),
    cpuModel: cpu[0]?.model ?? null,
    totalMemoryMb: mb(totalmem()),
    gitCommit: git(['rev-parse', 'HEAD']),
    gitDirty: status === null ? null : status.length > 0,
    loadAverage: loadavg().map((x) => Math.round(x * 100) / 100),
  };
}

/** Writes `bench/results/<name>.json` (atomically) with the environment and `data`; returns the path. */
export function writeResult(name, data) {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const path = join(RESULTS_DIR, `${name}.json`);
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify({ name, ...environment(), ...data }, null, 2)}\n`);
  renameSync(temporary, path);
  return path;
}

/** Progress on stderr, so stdout keeps only the tables. */
export function log(message) {
  process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

/** Parses `--sizes 10000,100000` style lists of positive integers. */
export function parseSizes(text, fallback) {
  if (text === undefined) return fallback;
  const sizes = String(text)
    .split(',')
    .map((s) => Number(s.replaceAll('_', '').replace(/k$/i, '000')));
  if (sizes.some((n) => !Number.isInteger(n) || n < 1)) throw new Error(`--sizes must be positive integers, got "${text}"`);
  return sizes;
}

/**
 * Runs `script --case <json spec>` in a child process (so each case has its own heap and RSS) and
 * resolves with the JSON object the child prints as its last stdout line; stderr passes through.
 * With `ENGRAM_BENCH_CPU_PROF=DIR` each case writes a V8 CPU profile there (`--cpu-prof` is not
 * allowed in NODE_OPTIONS).
 */
export function runCase(script, spec, label) {
  const profile = process.env.ENGRAM_BENCH_CPU_PROF;
  const flags = profile === undefined || profile === '' ? [] : ['--cpu-prof', `--cpu-prof-dir=${profile}`];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...flags, script, '--case', JSON.stringify(spec)], {
      cwd: REPO_DIR,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`case ${label} exited with ${code}`));
      resolve(JSON.parse(out.trim().split('\n').pop() ?? 'null'));
    });
  });
}

/**
 * `new EngramCore(parts)` from dist/ with the process's clock and system ports, as `Engram.open`
 * injects them, unless `parts` names its own: benchmarks that compose the engine from a store and an
 * embedder of their own.
 * @param {Record<string, unknown>} parts
 */
export async function newEngineCore(parts) {
  const [{ EngramCore }, { systemClock, systemPorts }] = await Promise.all([
    import(join(REPO_DIR, 'dist', 'core', 'engine.js')),
    import(join(REPO_DIR, 'dist', 'system-ports.js')),
  ]);
  return new EngramCore({ clock: systemClock, system: systemPorts, ...parts });
}

/**
 * Starts `engram serve --db DB --embedder EMBEDDER --port 0 --host 127.0.0.1 --auth open [ARGS]` from
 * dist/ (`embedder` default `static`; it must be the database's own if the database exists) and
 * resolves once it listens (with `warmed`, once it has also said it warmed up), with its URL, its pid
 * and `stop()` (SIGTERM, resolves on exit).
 * @param {string} db a SQLite path or a PostgreSQL URL
 * @param {{ embedder?: string, args?: string[], env?: NodeJS.ProcessEnv, warmed?: boolean }} [options]
 * @returns {Promise<{ url: string, pid: number | undefined, stop: () => Promise<unknown> }>}
 */
export function startServer(db, { embedder = 'static', args = [], env = process.env, warmed = false } = {}) {
  const bin = join(REPO_DIR, 'dist/interfaces/cli/main.js');
  return new Promise((resolve, reject) => {
    const argv = [bin, 'serve', '--db', db, '--embedder', embedder, '--port', '0', '--host', '127.0.0.1', '--auth', 'open', ...args];
    const child = spawn(process.execPath, argv, { cwd: REPO_DIR, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const fail = (/** @type {string} */ why) => reject(new Error(`engram serve did not start (${why}): ${err || out}`));
    const timer = warmed ? setTimeout(() => fail('no warm-up within 120 s'), 120_000) : undefined;
    const ready = () => {
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match === null || (warmed && !err.includes('warmed up'))) return;
      clearTimeout(timer);
      resolve({
        url: match[1] ?? '',
        pid: child.pid,
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null) return done(undefined);
            child.once('exit', () => done(undefined));
            child.kill('SIGTERM');
          }),
      });
    };
    child.stdout.on('data', (chunk) => {
      out += chunk;
      ready();
    });
    child.stderr.on('data', (chunk) => {
      err += chunk;
      ready();
    });
    child.once('exit', (code) => fail(`exit ${code}`));
    child.once('error', (error) => fail(error.message));
  });
}

/** The model a new store takes when it is installed (`DEFAULT_ONNX_MODEL`, a blend since stop 28). */
export async function defaultModelName() {
  const { DEFAULT_ONNX_MODEL } = await import(join(REPO_DIR, 'dist/embeddings/onnx/index.js'));
  return DEFAULT_ONNX_MODEL;
}

/**
 * Drops `schema` (and all in it) from the PostgreSQL server of `url` (a `?schema=` in it is ignored).
 * `pg` is loaded only here: most benchmarks never touch PostgreSQL. (The tests' `dropPgSchema` in
 * test/helpers/postgres.ts does the same; plain `node` cannot import TypeScript.)
 * @param {string} url
 * @param {string} schema
 */
export async function dropSchema(url, schema) {
  const pg = (await import('pg')).default;
  const parsed = new URL(url);
  parsed.searchParams.delete('schema');
  const client = new pg.Client({ connectionString: parsed.toString() });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}
