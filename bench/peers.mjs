#!/usr/bin/env node
// Engram and its peers side by side, one run (npm run bench:peers; docs/performance.md).
//   --sets locomo,burst,tech        which conversation sets (default all three, one after another)
//   --conversations N               only the first N conversations of each set (a quick run)
//   --peers engram,mem0,…           which systems (default all; engram is always measured first when listed)
//   --timeout-minutes M             per system and set (default 30); a run past it is killed and reported
//   --out DIR                       where peers.json/.md/.svg go (default bench/results for a full run,
//                                   bench/.cache/peers for a partial one, so a slice never overwrites them)
// Every system gets the same turns (LoCoMo's plain ingest: "Speaker: text" per turn, one scope per
// conversation, bench/locomo-data.mjs) and the same questions (categories 1-4), returns its top 10 for
// each, and is scored by bench/retrieval-metrics.mjs after mapping its items back to dia ids. Each
// (system, set) runs in its own child process, one after another, so heaps, threads and native handles
// never overlap. Peers that embed call a local OpenAI-compatible /v1/embeddings server started inside
// their child (bench/peers/embeddings-server.mjs) with Engram's default model, so the comparison is of
// engines, not models. Peer packages live in bench/peers/package.json (pinned, with a lock file) and are
// installed on the first run with `npm ci --prefix bench/peers`; they are never dependencies of Engram.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { BENCH_DIR, CACHE_DIR, REPO_DIR, environment, log, peakRss, percentiles, printTable } from './lib.mjs';
import { prepareLocomo } from './locomo-data.mjs';
import { scoreRanking, summarizeScores } from './retrieval-metrics.mjs';
import { renderPeersChart } from './peers/chart.mjs';
import { peersMarkdown } from './peers/report.mjs';

const PEERS_DIR = join(BENCH_DIR, 'peers');
const K = 10;
const SETS = {
  locomo: { file: join(REPO_DIR, '../shared/datasets/locomo/locomo10.json'), label: 'LoCoMo (locomo10)' },
  burst: { file: join(BENCH_DIR, 'data/burst-chat.json'), label: 'burst-chat' },
  tech: { file: join(BENCH_DIR, 'data/tech-chat.json'), label: 'tech-chat' },
};
/** System name → module and export; the order is the order of the run and of the tables. */
const SYSTEMS = {
  engram: ['engram.mjs', 'system'],
  mem0: ['mem0.mjs', 'system'],
  orama: ['orama.mjs', 'system'],
  'orama-vector': ['orama.mjs', 'vectorSystem'],
  'server-memory': ['server-memory.mjs', 'system'],
  'server-memory-keywords': ['server-memory.mjs', 'keywordSystem'],
  openmemory: ['openmemory.mjs', 'system'],
};

/**
 * What a system's open() receives.
 * @typedef {{ workDir: string, peersDir: string, k: number, ownVersion: string,
 *   embeddings: { url: string, model: string, dimension: number } | null,
 *   embed: (texts: string[], options?: { purpose?: 'query' | 'passage' }) => Promise<number[][]>, versionOf: (pkg: string) => string }} OpenContext
 */

const { values: args } = parseArgs({
  options: {
    sets: { type: 'string' },
    conversations: { type: 'string' },
    peers: { type: 'string' },
    'timeout-minutes': { type: 'string', default: '30' },
    out: { type: 'string' },
    case: { type: 'string' },
  },
});
if (args.case) await runOneCase(JSON.parse(args.case));
else await main();

async function main() {
  const sets = list(args.sets, Object.keys(SETS), 'sets');
  const systems = list(args.peers, Object.keys(SYSTEMS), 'peers');
  const conversations = args.conversations === undefined ? undefined : Number(args.conversations);
  if (conversations !== undefined && !(Number.isInteger(conversations) && conversations > 0))
    throw new Error(`--conversations must be a positive whole number, got ${args.conversations}`);
  const timeoutMs = Number(args['timeout-minutes']) * 60_000;
  if (!(timeoutMs > 0)) throw new Error(`--timeout-minutes must be a positive number, got ${args['timeout-minutes']}`);
  const partial = conversations !== undefined || args.sets !== undefined || args.peers !== undefined;
  const outDir = args.out ?? (partial ? join(CACHE_DIR, 'peers') : join(BENCH_DIR, 'results'));
  if (!existsSync(join(REPO_DIR, 'dist/index.js'))) throw new Error('dist/ is missing: run `npm run build` first');

  const install = systems.some((s) => s !== 'engram') ? installPeers() : { ok: true };
  const startEnv = environment();
  log(`machine load average at the start: ${startEnv.loadAverage.join(' / ')} (${startEnv.cpuCount} cores)`);
  const runs = [];
  for (const set of sets) {
    for (const system of systems) {
      if (system !== 'engram' && !install.ok) {
        runs.push({ set, system, status: 'skipped', reason: install.reason });
        continue;
      }
      if (!existsSync(SETS[set].file)) {
        runs.push({ set, system, status: 'skipped', reason: `the data file ${SETS[set].file} is not there` });
        continue;
      }
      log(`${set}: ${system}…`);
      // made here and removed here, so a killed run leaves nothing behind either
      const workDir = mkdtempSync(join(tmpdir(), `engram-peers-${system}-`));
      const run = await runChild({ system, set, conversations, k: K, workDir }, timeoutMs);
      rmSync(workDir, { recursive: true, force: true });
      runs.push({ set, system, ...run });
      if (run.status === 'ok')
        log(
          `${set}: ${system} any@10 ${run.metrics['any@10']} frac@10 ${run.metrics['frac@10']} ingest ${run.ingest.perSec.toFixed(1)}/s p50 ${run.query.p50} ms`,
        );
      else log(`${set}: ${system} ${run.status}: ${run.reason}`);
    }
  }
  const endEnv = environment();
  const report = {
    name: 'peers',
    ...endEnv,
    loadAverageAtStart: startEnv.loadAverage,
    k: K,
    conversationsPerSet: conversations ?? 'all',
    embeddingModel: (await import('./peers/embeddings-server.mjs')).PEER_MODEL,
    command: `npm run bench:peers${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
    sets: Object.fromEntries(sets.map((s) => [s, SETS[s].label])),
    runs: runs.map((r) => withRatios(r, runs)),
  };
  for (const set of sets) printSet(set, report.runs);
  const skipped = report.runs.filter((r) => r.status !== 'ok');
  for (const r of skipped) process.stdout.write(`${r.set}: ${r.system} ${r.status}: ${r.reason}\n`);
  process.stdout.write(
    `\nmachine load average: ${startEnv.loadAverage.join(' / ')} at the start, ${endEnv.loadAverage.join(' / ')} at the end\n`,
  );

  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'peers.json'), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(outDir, 'peers.md'), peersMarkdown(report));
  writeFileSync(join(outDir, 'peers.svg'), renderPeersChart(report));
  process.stdout.write(`wrote ${join(outDir, 'peers.json')}, peers.md and peers.svg\n`);
}

/**
 * Installs bench/peers/node_modules from the lock file when it is missing or holds other versions than
 * bench/peers/package.json pins; never touches the root package.
 */
function installPeers() {
  const pinned = Object.entries(JSON.parse(readFileSync(join(PEERS_DIR, 'package.json'), 'utf8')).dependencies);
  const installedVersion = (name) => {
    try {
      return JSON.parse(readFileSync(join(PEERS_DIR, 'node_modules', name, 'package.json'), 'utf8')).version;
    } catch {
      return null;
    }
  };
  const stale = pinned.filter(([name, version]) => installedVersion(name) !== version);
  if (stale.length === 0) return { ok: true };
  log(`installing the peers (${stale.map(([n, v]) => `${n}@${v}`).join(', ')}): npm ci --prefix bench/peers, from its lock file…`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['ci', '--prefix', PEERS_DIR, '--no-audit', '--no-fund'], {
    cwd: REPO_DIR,
    stdio: ['ignore', 2, 2], // npm's output on stderr: stdout keeps only the tables
    timeout: 15 * 60_000,
  });
  if (result.status === 0) return { ok: true };
  const why = result.error ? result.error.message : `exit code ${result.status}${result.signal ? ` (${result.signal})` : ''}`;
  return { ok: false, reason: `npm ci --prefix bench/peers failed (${why}), so no peer could be installed` };
}

/** Runs one (system, set) in a child process; kills its whole process group past the timeout. */
function runChild(spec, timeoutMs) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(BENCH_DIR, 'peers.mjs'), '--case', JSON.stringify(spec)], {
      cwd: REPO_DIR,
      stdio: ['ignore', 'pipe', 'inherit'],
      detached: true,
    });
    let out = '';
    let timedOut = false;
    child.stdout.on('data', (chunk) => (out += chunk));
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        // the whole process group (the peer may have started its own children); never group 0, our own
        if (child.pid === undefined) throw new Error('no pid');
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ status: 'failed', reason: `could not start: ${error.message}` });
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (timedOut) return resolve({ status: 'timeout', reason: `still running after ${timeoutMs / 60_000} minutes; killed` });
      const last = out.trim().split('\n').pop() ?? '';
      try {
        const parsed = JSON.parse(last);
        if (parsed && typeof parsed.status === 'string') return resolve(parsed);
      } catch {
        // not a result line
      }
      resolve({ status: 'failed', reason: `exited with ${signal ?? code} and no result (${last.slice(0, 200) || 'no output'})` });
    });
  });
}

/** In the child: one system on one set; prints the result as the last stdout line. */
async function runOneCase(spec) {
  const result = await measure(spec).catch((error) => ({
    status: error?.name === 'SkipError' ? 'skipped' : 'failed',
    reason:
      error?.name === 'SkipError'
        ? error.message
        : String(error?.stack ?? error)
            .split('\n')
            .slice(0, 4)
            .join(' | '),
  }));
  process.stdout.write(`\n${JSON.stringify(result)}\n`);
  process.exit(0);
}

async function measure({ system: systemName, set, conversations, k, workDir }) {
  const [file, exported] = SYSTEMS[systemName] ?? [];
  if (!file) throw new Error(`unknown system ${systemName}`);
  const { system } = { system: (await import(`./peers/systems/${file}`))[exported] };
  const samples = JSON.parse(readFileSync(SETS[set].file, 'utf8')).slice(0, conversations);
  const { turnsBySample, questions, lastDateOf } = prepareLocomo(samples, { plain: true });
  const loadAtStart = loadavg()[0];
  const needsServer = system.embeds.startsWith('local');
  const server = needsServer ? await (await import('./peers/embeddings-server.mjs')).startEmbeddingsServer() : null;
  const rss = peakRss();
  try {
    /** @type {OpenContext} */
    const ctx = {
      workDir,
      peersDir: PEERS_DIR,
      k,
      ownVersion: JSON.parse(readFileSync(join(REPO_DIR, 'package.json'), 'utf8')).version,
      embeddings: server && { url: server.url, model: server.model, dimension: server.dimension },
      embed: (texts, options) => embedOver(server, texts, options?.purpose),
      versionOf: (pkg) => JSON.parse(readFileSync(join(PEERS_DIR, 'node_modules', pkg, 'package.json'), 'utf8')).version,
    };
    const opened = await system.open(ctx);
    let turns = 0;
    const ingestStarted = performance.now();
    for (const [sampleId, sampleTurns] of turnsBySample) {
      await opened.ingest(sampleId, sampleTurns);
      turns += sampleTurns.length;
    }
    const writeSeconds = (performance.now() - ingestStarted) / 1000;
    await opened.finishIngest?.();
    const ingestSeconds = (performance.now() - ingestStarted) / 1000;
    const ingestEmbeddings = server ? { ...server.stats } : null;
    const latencies = [];
    const perQuestion = [];
    for (const q of questions) {
      const started = performance.now();
      const ranked = await opened.search(q.sampleId, q.question, { k, referenceTime: lastDateOf.get(q.sampleId) });
      latencies.push(performance.now() - started);
      perQuestion.push({ scores: scoreRanking(ranked.slice(0, k), q.evidence) });
    }
    await opened.close();
    const metrics = summarizeScores(perQuestion);
    return {
      status: 'ok',
      package: system.package,
      version: opened.version,
      embeds: system.embeds,
      settings: opened.settings,
      conversations: turnsBySample.size,
      questions: questions.length,
      metrics: pick(metrics, ['any@5', 'any@10', 'strictAll@10', 'frac@10', 'mrr@10', 'n']),
      ingest: {
        turns,
        seconds: round(ingestSeconds),
        perSec: round(turns / ingestSeconds),
        writeCallsSeconds: round(writeSeconds),
        embeddingRequests: ingestEmbeddings?.requests ?? null,
      },
      query: pick(percentiles(latencies), ['n', 'mean', 'p50', 'p95', 'p99', 'max']),
      queryEmbeddingRequests: server && ingestEmbeddings ? server.stats.requests - ingestEmbeddings.requests : null,
      peakRssMb: rss.stop(),
      loadAverage: { start: round(loadAtStart), end: round(loadavg()[0]) },
    };
  } finally {
    await server?.close();
  }
}

/** The benchmark's own client of the embeddings server, for peers that take vectors (Orama). */
async function embedOver(server, texts, purpose = 'passage') {
  if (!server) throw new Error('this system has no embeddings server');
  const response = await fetch(`${server.url}/embeddings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: server.model, input: texts, input_type: purpose }),
    signal: AbortSignal.timeout(60_000),
  });
  if (!response.ok) throw new Error(`embeddings server answered ${response.status}: ${await response.text()}`);
  const { data } = /** @type {{ data: Array<{ index: number, embedding: number[] }> }} */ (await response.json());
  return data.sort((a, b) => a.index - b.index).map((d) => d.embedding);
}

/** Adds each ok run's ratios to Engram's run on the same set (peer ÷ Engram). */
function withRatios(run, runs) {
  const engram = runs.find((r) => r.set === run.set && r.system === 'engram' && r.status === 'ok');
  if (run.status !== 'ok' || !engram || run.system === 'engram') return run;
  const ratio = (a, b) => (b ? round(a / b, 3) : null);
  return {
    ...run,
    ratioToEngram: {
      'any@10': ratio(run.metrics['any@10'], engram.metrics['any@10']),
      'frac@10': ratio(run.metrics['frac@10'], engram.metrics['frac@10']),
      ingestPerSec: ratio(run.ingest.perSec, engram.ingest.perSec),
      queryP50: ratio(run.query.p50, engram.query.p50),
      queryP95: ratio(run.query.p95, engram.query.p95),
    },
  };
}

function printSet(set, runs) {
  const rows = runs
    .filter((r) => r.set === set && r.status === 'ok')
    .map((r) => ({
      system: r.system,
      version: r.version,
      any10: r.metrics['any@10'],
      frac10: r.metrics['frac@10'],
      ingest: r.ingest.perSec,
      p50: r.query.p50,
      p95: r.query.p95,
      rAny: r.ratioToEngram ? `${r.ratioToEngram['any@10']}×` : '',
      rFrac: r.ratioToEngram ? `${r.ratioToEngram['frac@10']}×` : '',
      rIngest: r.ratioToEngram ? `${r.ratioToEngram.ingestPerSec}×` : '',
      rP50: r.ratioToEngram ? `${r.ratioToEngram.queryP50}×` : '',
      rP95: r.ratioToEngram ? `${r.ratioToEngram.queryP95}×` : '',
    }));
  const first = runs.find((r) => r.set === set && r.status === 'ok');
  printTable(
    `${SETS[set].label}: ${first ? `${first.conversations} conversations, ${first.ingest.turns} turns, ${first.questions} questions` : 'no run'} (ratios: peer ÷ Engram)`,
    [
      ['system', 'system'],
      ['version', 'version'],
      ['any@10', 'any10', 3],
      ['frac@10', 'frac10', 3],
      ['ingest/s', 'ingest', 1],
      ['p50 ms', 'p50', 2],
      ['p95 ms', 'p95', 2],
      ['any@10 ×', 'rAny'],
      ['frac@10 ×', 'rFrac'],
      ['ingest ×', 'rIngest'],
      ['p50 ×', 'rP50'],
      ['p95 ×', 'rP95'],
    ],
    rows,
  );
}

function list(text, all, flag) {
  if (text === undefined) return all;
  const names = String(text)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !all.includes(n));
  if (unknown.length > 0 || names.length === 0) throw new Error(`--${flag} takes a list from ${all.join(', ')}; got "${text}"`);
  return all.filter((n) => names.includes(n));
}

function pick(object, keys) {
  return Object.fromEntries(keys.filter((key) => key in object).map((key) => [key, object[key]]));
}

function round(x, digits = 2) {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
