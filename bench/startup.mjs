// CLI start-up cost: wall time of fresh `engram` processes (what every command, Claude Code hook and CLI
// test pays), next to a bare `node -e ''`. Commands run on a small hash-embedder database; the prompt
// hook runs against a running `engram serve` (its fast path: no engine loaded) and without one.
// Writes bench/results/startup.{json,md}.
//   npx tsc -p tsconfig.build.json && node bench/startup.mjs [--runs 9]
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_DIR, RESULTS_DIR, environment, log, percentiles, printTable, writeResult } from './lib.mjs';

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

/** Wall ms of one fresh process, spawn to exit. */
function once(args, input) {
  const start = performance.now();
  const result = spawnSync(process.execPath, args, { input, encoding: 'utf8', env: ENV });
  const wall = performance.now() - start;
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return wall;
}

function measure(command, args, input = '') {
  once(args, input); // warm the file cache
  const walls = Array.from({ length: RUNS }, () => once(args, input));
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
  const server = spawn(process.execPath, [BIN, 'serve', '--db', served, '--port', '0', '--scope', SCOPE], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: ENV,
  });
  await new Promise((/** @type {(value?: unknown) => void} */ resolve, reject) => {
    server.stdout.on('data', (chunk) => (String(chunk).includes('listening on') ? resolve() : undefined));
    server.once('exit', (code) => reject(new Error(`engram serve exited ${code}`)));
  });
  const rows = [];
  try {
    rows.push(measure("node -e '' (floor)", ['-e', '']));
    rows.push(measure('engram --help', [BIN, '--help']));
    rows.push(measure('engram stats --json', [BIN, 'stats', '--db', db, '--scope', SCOPE, '--json']));
    rows.push(measure('engram recall --json', [BIN, 'recall', '--db', db, '--scope', SCOPE, '--json', 'which database']));
    rows.push(measure('hooks user-prompt-submit (server)', [BIN, 'hooks', 'user-prompt-submit', '--db', served, '--scope', SCOPE], prompt));
    rows.push(measure('hooks user-prompt-submit (no server)', [BIN, 'hooks', 'user-prompt-submit', '--db', db, '--scope', SCOPE], prompt));
  } finally {
    server.kill('SIGTERM');
  }
  const columns = [
    ['command', 'command'],
    ['p50 ms', 'p50', 0],
    ['p95 ms', 'p95', 0],
    ['min ms', 'min', 0],
  ];
  const title = `CLI start-up: fresh process per run, ${RUNS} runs, hash embedder`;
  printTable(title, columns, rows);
  writeResult('startup', { runs: RUNS, rows });
  const env = environment();
  const md = [
    `# ${title}`,
    '',
    `node ${env.node}, ${env.cpuCount} CPUs, load average ${env.loadAverage.join(' / ')}, commit ${String(env.gitCommit).slice(0, 7)}`,
    '',
    '| command | p50 ms | p95 ms | min ms |',
    '|---|---:|---:|---:|',
    ...rows.map((r) => `| ${r.command} | ${r.p50.toFixed(0)} | ${r.p95.toFixed(0)} | ${r.min.toFixed(0)} |`),
    '',
  ];
  writeFileSync(join(RESULTS_DIR, 'startup.md'), md.join('\n'));
  rmSync(dir, { recursive: true, force: true });
}

await main();
