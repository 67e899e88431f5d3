// CLI start-up cost: wall time of fresh `engram` processes (what every command, Claude Code hook and CLI
// test pays), next to a bare `node -e ''`. Commands run on a small hash-embedder database; the prompt
// hook runs against a running `engram serve` (its fast path: no engine loaded) and without one;
// `engram mcp` over stdio is timed from its spawn to its first recall answered (the MCP SDK's client).
// With the default model installed (bge-small-en-v1.5) it also runs `stats` and `recall` on a store of
// that model (stats must not load the model: its time stays near the hash store's), and times the first
// recall of a warm `engram serve` over HTTP (after its warm-up line, three starts) against the next ones,
// wall time from this process (its fetch warmed elsewhere first) and the server's own (Server-Timing).
// Writes bench/results/startup.{json,md}.
//   npx tsc -p tsconfig.build.json && node bench/startup.mjs [--runs 9]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_DIR, RESULTS_DIR, defaultModelName, environment, log, percentiles, printTable, startServer, writeResult } from './lib.mjs';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '9' } } });
const RUNS = Number(values.runs);
const BIN = join(REPO_DIR, 'dist/interfaces/cli/main.js');
const SCOPE = 'bench/startup';
const ENV = { ...process.env, ENGRAM_EMBEDDER: 'hash' };
const dir = mkdtempSync(join(tmpdir(), 'engram-startup-'));
const db = join(dir, 'engram.db');
const served = join(dir, 'served.db');
const prompt = JSON.stringify({
  session_id: 'startup-bench',
  hook_event_name: 'UserPromptSubmit',
  prompt: 'Which database do we use?',
  cwd: dir,
});

/**
 * Wall ms of one fresh process, spawn to exit.
 * @param {string[]} args
 * @param {string} input
 * @param {NodeJS.ProcessEnv} [env]
 */
function once(args, input, env = ENV) {
  const start = performance.now();
  const result = spawnSync(process.execPath, args, { input, encoding: 'utf8', env });
  const wall = performance.now() - start;
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return wall;
}

/**
 * @param {string} command
 * @param {string[]} args
 * @param {string} [input]
 * @param {NodeJS.ProcessEnv} [env]
 */
function measure(command, args, input = '', env = ENV) {
  once(args, input, env); // warm the file cache
  const walls = Array.from({ length: RUNS }, () => once(args, input, env));
  const wall = percentiles(walls);
  log(`${command}: p50 ${wall.p50.toFixed(0)} ms, p95 ${wall.p95.toFixed(0)} ms`);
  return { command, p50: wall.p50, p95: wall.p95, min: wall.min, max: wall.max, runs: RUNS };
}

async function main() {
  if (!existsSync(BIN)) throw new Error('build first: npx tsc -p tsconfig.build.json');
  for (const path of [db, served]) {
    spawnSync(process.execPath, [BIN, 'remember', '--db', path, '--scope', SCOPE, 'We use PostgreSQL as the main database'], {
      stdio: 'ignore',
      env: ENV,
    });
  }
  const server = await startServer(served, { embedder: 'hash', args: ['--scope', SCOPE], env: ENV });
  const rows = [];
  try {
    rows.push(measure("node -e '' (floor)", ['-e', '']));
    rows.push(measure('engram --help', [BIN, '--help']));
    rows.push(measure('engram stats --json', [BIN, 'stats', '--db', db, '--scope', SCOPE, '--json']));
    rows.push(measure('engram recall --json', [BIN, 'recall', '--db', db, '--scope', SCOPE, '--json', 'which database']));
    rows.push(measure('hooks user-prompt-submit (server)', [BIN, 'hooks', 'user-prompt-submit', '--db', served, '--scope', SCOPE], prompt));
    rows.push(measure('hooks user-prompt-submit (no server)', [BIN, 'hooks', 'user-prompt-submit', '--db', db, '--scope', SCOPE], prompt));
    rows.push(await measureMcp(db));
  } finally {
    await server.stop();
  }
  const model = await modelRows();
  rows.push(...model);
  const columns = [
    ['command', 'command'],
    ['p50 ms', 'p50', 0],
    ['p95 ms', 'p95', 0],
    ['min ms', 'min', 0],
    ['server ms', 'serverMs', 0],
  ];
  const title = `CLI start-up: fresh process per run, ${RUNS} runs, hash embedder${model.length > 0 ? ` (and ${MODEL} where named)` : ''}`;
  printTable(title, columns, rows);
  writeResult('startup', { runs: RUNS, rows });
  const env = environment();
  const md = [
    `# ${title}`,
    '',
    `node ${env.node}, ${env.cpuCount} CPUs, load average ${env.loadAverage.join(' / ')}, commit ${String(env.gitCommit).slice(0, 7)}`,
    '',
    '| command | p50 ms | p95 ms | min ms | of which the server (Server-Timing) ms |',
    '|---|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.command} | ${r.p50.toFixed(0)} | ${r.p95.toFixed(0)} | ${r.min.toFixed(0)} | ${r.serverMs === undefined ? '' : r.serverMs.toFixed(0)} |`,
    ),
    '',
  ];
  writeFileSync(join(RESULTS_DIR, 'startup.md'), md.join('\n'));
  rmSync(dir, { recursive: true, force: true });
}

const MODEL = await defaultModelName();

/** The rows with the default model, or none when it is not installed. */
async function modelRows() {
  const { hasModelFiles, resolveModelCacheDir } = await import(join(REPO_DIR, 'dist/embeddings/onnx/index.js'));
  if (!hasModelFiles(resolveModelCacheDir(process.env, homedir()), MODEL)) {
    log(`${MODEL} is not installed: no model rows (engram models pull)`);
    return [];
  }
  const modelDb = join(dir, 'model.db');
  const lines = Array.from({ length: 300 }, (_, i) => JSON.stringify({ content: memoryText(i) }));
  writeFileSync(join(dir, 'model.jsonl'), `${lines.join('\n')}\n`);
  const env = { ...process.env, ENGRAM_EMBEDDER: MODEL };
  const made = spawnSync(process.execPath, [BIN, 'remember', '--db', modelDb, '--scope', SCOPE, '--file', join(dir, 'model.jsonl')], {
    encoding: 'utf8',
    env,
  });
  if (made.status !== 0) throw new Error(`could not build the ${MODEL} store: ${made.stderr}`);
  /** @type {Array<ReturnType<typeof measure> & { model: string, serverMs?: number }>} */
  const rows = [
    {
      ...measure(
        `engram stats --json (${MODEL} store)`,
        [BIN, 'stats', '--db', modelDb, '--scope', SCOPE, '--json'],
        '',
        withoutEmbedderEnv(),
      ),
      model: MODEL,
    },
    {
      ...measure(
        `engram recall --json (${MODEL} store)`,
        [BIN, 'recall', '--db', modelDb, '--scope', SCOPE, '--json', 'which database'],
        '',
        withoutEmbedderEnv(),
      ),
      model: MODEL,
    },
  ];
  // this process's own first fetch (undici loads, its first POST) is not the server's: warm it elsewhere
  await warmFetch();
  const firsts = [];
  const firstsServer = [];
  const nexts = [];
  const nextsServer = [];
  for (let start = 0; start < SERVE_STARTS; start++) {
    const { times, serverTimes } = await servedRecalls(modelDb);
    const [first, ...rest] = times;
    const [firstServer, ...restServer] = serverTimes;
    firsts.push(/** @type {number} */ (first));
    firstsServer.push(/** @type {number} */ (firstServer));
    nexts.push(...rest);
    nextsServer.push(...restServer);
    log(`serve (${MODEL}), start ${start + 1}: first recall after warm-up ${first?.toFixed(1)} ms (server ${firstServer?.toFixed(1)})`);
  }
  const first = percentiles(firsts);
  const next = percentiles(nexts);
  log(
    `serve (${MODEL}): first recall after warm-up p50 ${first.p50.toFixed(1)} ms (server ${percentiles(firstsServer).p50.toFixed(1)}), ` +
      `the next 30 p50 ${next.p50.toFixed(1)} ms (server ${percentiles(nextsServer).p50.toFixed(1)})`,
  );
  rows.push(
    {
      command: `serve (${MODEL}): first HTTP recall after warm-up (${SERVE_STARTS} starts)`,
      p50: first.p50,
      p95: first.p95,
      min: first.min,
      max: first.max,
      runs: SERVE_STARTS,
      model: MODEL,
      serverMs: percentiles(firstsServer).p50,
    },
    {
      command: `serve (${MODEL}): the next 30 HTTP recalls of each start`,
      p50: next.p50,
      p95: next.p95,
      min: next.min,
      max: next.max,
      runs: nexts.length,
      model: MODEL,
      serverMs: percentiles(nextsServer).p50,
    },
  );
  return rows;
}

/**
 * `engram mcp` over stdio, as Claude Code starts it for a session: from the spawn until the MCP SDK's
 * client has connected, listed the tools and had its first `memory_recall` answered.
 * @param {string} db
 */
async function measureMcp(db) {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const once = async () => {
    const start = performance.now();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--db', db, '--scope', SCOPE],
      env: /** @type {Record<string, string>} */ (ENV),
      stderr: 'ignore',
    });
    const client = new Client({ name: 'engram-startup-bench', version: '1' });
    await client.connect(transport);
    try {
      await client.listTools();
      const answer = await client.callTool({ name: 'memory_recall', arguments: { query: 'which database' } });
      if (answer.isError) throw new Error(`memory_recall failed: ${JSON.stringify(answer.content)}`);
      return performance.now() - start;
    } finally {
      await client.close();
    }
  };
  await once();
  const walls = [];
  for (let i = 0; i < RUNS; i++) walls.push(await once());
  const wall = percentiles(walls);
  const command = 'engram mcp (stdio): spawn to first recall answered';
  log(`${command}: p50 ${wall.p50.toFixed(0)} ms, p95 ${wall.p95.toFixed(0)} ms`);
  return { command, p50: wall.p50, p95: wall.p95, min: wall.min, max: wall.max, runs: RUNS };
}

/** Fresh `engram serve` processes measured: each is started, warms up, and answers 31 recalls. */
const SERVE_STARTS = 3;

/**
 * Starts `engram serve` on `db`, waits for its warm-up, and times 31 HTTP recalls from this process:
 * wall ms and the server's own ms (its Server-Timing header).
 * @param {string} db
 */
async function servedRecalls(db) {
  const server = await startServer(db, { embedder: MODEL, args: ['--scope', SCOPE], env: withoutEmbedderEnv(), warmed: true });
  try {
    const { url } = server;
    const times = [];
    const serverTimes = [];
    for (let i = 0; i < 31; i++) {
      const query = `what happened with ${memoryText(i * 7 + 3)
        .split(' ')
        .slice(1, 4)
        .join(' ')}?`;
      const start = performance.now();
      const response = await fetch(`${url}/v1/recall`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query, scopes: [SCOPE], k: 10, trackAccess: false }),
      });
      await response.json();
      if (!response.ok) throw new Error(`recall answered ${response.status}`);
      times.push(performance.now() - start);
      serverTimes.push(Number(/dur=([\d.]+)/.exec(response.headers.get('server-timing') ?? '')?.[1] ?? Number.NaN));
    }
    return { times, serverTimes };
  } finally {
    await server.stop();
  }
}

/** A few requests to a throwaway loopback server, so that this process's fetch is loaded and compiled. */
async function warmFetch() {
  const dummy = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.end('{}'));
  });
  await new Promise((/** @type {(value?: unknown) => void} */ resolve) => dummy.listen(0, '127.0.0.1', () => resolve()));
  const address = /** @type {import('node:net').AddressInfo} */ (dummy.address());
  try {
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`http://127.0.0.1:${address.port}/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      await response.json();
    }
  } finally {
    dummy.close();
  }
}

/** The environment without ENGRAM_EMBEDDER: the server opens the store with the model it records. */
function withoutEmbedderEnv() {
  const env = { ...process.env };
  delete env.ENGRAM_EMBEDDER;
  return env;
}

/** A short made-up memory, different for each i. */
function memoryText(i) {
  const who = ['Ana', 'Bo', 'Chen', 'Dara', 'Eli', 'Femi'][i % 6];
  const what = [
    'moved the build to a new runner',
    'renewed the TLS certificate',
    'fixed the flaky login test',
    'ordered two monitors',
    'booked the offsite venue',
    'upgraded PostgreSQL to 15',
  ];
  return `${who} ${what[(i * 5) % what.length]} in week ${1 + (i % 40)}, ticket ${1000 + i}.`;
}

await main();
