#!/usr/bin/env node
// Does the concept-extraction worker slow writes down? `npm run bench:worker [-- --writes 400 --backlog 4000 --embedder hash]`.
//
// One SQLite file, one process, the real engine from dist/. Phase "idle": `remember` of structured
// episodes one after another with no background work pending. Phase "busy": first a backlog of
// episodes is queued with the worker stopped, then the background worker is started and the same
// number of `remember` calls is timed while it drains the backlog (it is checked to still be working
// at the end). Between writes the loop yields to the event loop once (setImmediate), as an agent whose
// writes arrive from I/O does; a loop of synchronous-driver calls alone would never let a timer run. Goal (issue #5): remember p95 busy ≤ 1.5 × p95 idle. Writes bench/results/worker.{json,md}.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { mkdirSync } from 'node:fs';
import { CACHE_DIR, REPO_DIR, RESULTS_DIR, log, mulberry32, percentiles, printTable, since, writeResult } from './lib.mjs';

const { values: args } = parseArgs({
  options: {
    writes: { type: 'string', default: '400' },
    backlog: { type: 'string', default: '4000' },
    warmup: { type: 'string', default: '50' },
    embedder: { type: 'string', default: 'hash' },
  },
});
const writes = Number(args.writes);
const backlog = Number(args.backlog);
const warmup = Number(args.warmup);
const dist = (p) => join(REPO_DIR, 'dist', p);

const { Engram } = await import(dist('index.js'));
mkdirSync(CACHE_DIR, { recursive: true });
const path = join(CACHE_DIR, 'worker-bench.db');
for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });

const SCOPE = 'bench/users/robot';
const OBJECTS = ['coffee_mug', 'red_cup', 'kitchen_door', 'fridge', 'laptop', 'book', 'plant', 'charger', 'remote', 'sock'];
const GOALS = ['grasp_object', 'open_door', 'navigate_to_kitchen', 'inspect_item', 'fetch_drink', 'charge_battery'];
const TOOLS = ['graspObject', 'openDoor', 'navigateTo', 'inspectObject', 'fetchItem', 'tool_charge'];
const PEOPLE = ['alice', 'bob', 'carol', 'dan'];
const rng = mulberry32(4242);
const pick = (list) => list[Math.floor(rng() * list.length)];
let counter = 0;
const episode = () => {
  const goal = pick(GOALS);
  const object = pick(OBJECTS);
  const success = rng() < 0.7;
  counter++;
  return {
    scope: SCOPE,
    content: `Episode ${counter}: tried to ${goal.replace(/_/g, ' ')} with the ${object.replace(/_/g, ' ')} while ${pick(PEOPLE)} watched; ${success ? 'it worked' : 'it failed'}.`,
    perception: {
      objects: [object, pick(OBJECTS)],
      people: [pick(PEOPLE)],
      salience: Math.round(rng() * 100) / 100,
      novelty: Math.round(rng() * 100) / 100,
    },
    context: { goal, location: pick(['kitchen', 'hall', 'office']), sessionId: `s${Math.floor(counter / 20)}` },
    action: { tool: pick(TOOLS) },
    outcome: { success, reward: success ? 1 : 0 },
  };
};

async function timeWrites(engram, n) {
  const samples = [];
  for (let i = 0; i < n; i++) {
    const input = episode();
    const start = performance.now();
    await engram.remember(input);
    samples.push(since(start));
    // an agent's writes arrive from I/O: give the event loop (and so the worker) a turn between them
    await new Promise((resolve) => setImmediate(resolve));
  }
  return samples;
}

log(`opening ${path} with the ${args.embedder} embedder`);
const engram = await Engram.open({ path, embedder: args.embedder });

log(`warm-up: ${warmup} writes, then drain`);
await timeWrites(engram, warmup);
await engram.processJobs();

log(`idle: ${writes} writes, no background work`);
const idle = await timeWrites(engram, writes);
await engram.processJobs();

log(`queueing a backlog of ${backlog} episodes (worker stopped)`);
for (let i = 0; i < backlog; i += 200) await engram.remember(Array.from({ length: Math.min(200, backlog - i) }, episode));
const before = (await engram.stats({ scopes: [SCOPE] })).jobs;
log(`backlog: ${before.pending} jobs; starting the worker and timing ${writes} writes`);
engram.startBackground({ idleMs: 50 });
const busyStart = performance.now();
const busy = await timeWrites(engram, writes);
const busyMs = since(busyStart);
const during = (await engram.stats({ scopes: [SCOPE] })).jobs;
const concepts = (await engram.store.listMemories({ scopes: [SCOPE], layers: ['semantic'], limit: 10_000 })).length;
log(`after the busy phase: ${during.pending} jobs still pending (worker kept busy: ${during.pending > 0}), ${concepts} concepts`);
const drainStart = performance.now();
for (;;) {
  const j = (await engram.stats({ scopes: [SCOPE] })).jobs;
  if (j.pending + j.running === 0) break;
  await new Promise((resolve) => setTimeout(resolve, 50));
}
const drainMs = since(drainStart) + busyMs;
await engram.close();

const idleStats = percentiles(idle);
const busyStats = percentiles(busy);
const ratio = Math.round((busyStats.p95 / idleStats.p95) * 100) / 100;
const rows = [
  { phase: 'idle', ...idleStats },
  { phase: 'busy (worker draining)', ...busyStats },
];
printTable(
  'remember latency (ms), one structured episode per call',
  [
    ['phase', 'phase'],
    ['n', 'n', 0],
    ['mean', 'mean', 2],
    ['p50', 'p50', 2],
    ['p95', 'p95', 2],
    ['p99', 'p99', 2],
    ['max', 'max', 2],
  ],
  rows,
);
const jobsPerSecond = Math.round(((backlog + writes) / drainMs) * 1000);
console.log(
  `\np95 busy / idle = ${ratio} (goal ≤ 1.5) · backlog ${backlog} + ${writes} jobs drained in ${(drainMs / 1000).toFixed(1)} s (${jobsPerSecond} jobs/s) · worker still busy at the end of the timed phase: ${during.pending > 0}`,
);

const result = {
  embedder: args.embedder,
  writes,
  backlog,
  warmup,
  idle: idleStats,
  busy: busyStats,
  p95Ratio: ratio,
  goal: 1.5,
  pass: ratio <= 1.5,
  pendingAfterBusyPhase: during.pending,
  drainSeconds: Math.round(drainMs) / 1000,
  jobsPerSecond,
};
writeResult('worker', result);
const md = [
  '# Worker benchmark (`npm run bench:worker`)',
  '',
  `remember p95 with the concept-extraction worker draining a backlog vs idle; ${args.embedder} embedder, ${writes} timed writes per phase, backlog ${backlog}.`,
  '',
  '| phase | n | mean ms | p50 ms | p95 ms | p99 ms | max ms |',
  '|---|---|---|---|---|---|---|',
  ...rows.map((r) => `| ${r.phase} | ${r.n} | ${r.mean} | ${r.p50} | ${r.p95} | ${r.p99} | ${r.max} |`),
  '',
  `p95 busy / idle = **${ratio}** (goal ≤ 1.5: ${ratio <= 1.5 ? 'met' : 'NOT met'}); ${during.pending} jobs were still pending when the timed phase ended, so the worker was busy throughout; the whole backlog drained at ${jobsPerSecond} jobs/s.`,
  '',
];
writeFileSync(join(RESULTS_DIR, 'worker.md'), md.join('\n'));
