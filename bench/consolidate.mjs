#!/usr/bin/env node
// One full consolidation cycle over a large scope: `npm run bench:consolidate [-- --size 100000 --embedder hash]`.
//
// Builds (or reuses from bench/.cache) a SQLite database of `--size` memories in one scope: 5% semantic
// claims written first (they go through supersession and dedup), the rest structured episodes (tool,
// objects, goal, outcome, salience, novelty, reward) recorded over 60 simulated days with the injected
// clock, 2% of them read recently. Ingest uses the hash embedder by default (deterministic, fast; the
// cycle's cost does not depend on embedding quality, only the reflection and compression re-embeds do).
// Then runs one full `consolidate` cycle at day 61 on a copy and reports duration per phase, what each
// phase did, and peak RSS (sampled every 20 ms, attributed to the phase running at the time).
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { CACHE_DIR, RESULTS_DIR, log, mb, printTable, writeResult, removeDatabaseFiles } from './lib.mjs';

const { values: args } = parseArgs({
  options: {
    size: { type: 'string', default: '100000' },
    embedder: { type: 'string', default: 'hash' },
    fresh: { type: 'boolean', default: false },
  },
});
const size = Number(args.size);
const embedder = args.embedder;
const SCOPE = 'bench/robot';
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);

const dist = join(process.cwd(), 'dist', 'index.js');
if (!existsSync(dist)) {
  process.stderr.write('bench:consolidate needs the build: run `npm run build` first.\n');
  process.exit(1);
}
const { Engram } = await import(dist);
const { ManualClock } = await import(join(process.cwd(), 'dist', 'core', 'ports', 'clock.js'));
const { runConsolidation, resolveConsolidationConfig } = await import(join(process.cwd(), 'dist', 'consolidation', 'index.js'));

function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TOOLS = [
  'graspObject',
  'navigate_to',
  'push',
  'scan_shelf',
  'open_door',
  'pour',
  'wipeTable',
  'placeItem',
  'lift',
  'rotate',
  'inspect',
  'charge_battery',
];
const OBJECTS = [
  'coffee_mug',
  'box',
  'kitchen',
  'shelf',
  'door',
  'kettle',
  'table',
  'plate',
  'sponge',
  'bottle',
  'drawer',
  'chair',
  'laptop',
  'book',
  'glass',
  'fork',
  'towel',
  'lamp',
  'basket',
  'remote',
];
const PEOPLE = ['Alice', 'Bob', 'Chen', 'Dana'];
const FACTS = ['prefers', 'owns', 'works at', 'lives in', 'drinks', 'reads'];
const VALUES = ['tea', 'coffee', 'Berlin', 'Paris', 'Acme', 'Globex', 'novels', 'a red car', 'a bicycle', 'water'];

async function build(path) {
  const clock = new ManualClock(T0);
  const engram = await Engram.open({ path, embedder, clock });
  const rand = random(7);
  const claims = Math.round(size * 0.05);
  const episodes = size - claims;
  const batch = 1000;
  const started = performance.now();
  for (let i = 0; i < claims; i += batch) {
    const items = [];
    for (let j = i; j < Math.min(claims, i + batch); j += 1) {
      const person = PEOPLE[j % PEOPLE.length];
      items.push({
        scope: SCOPE,
        layer: 'semantic',
        content: `${person} ${FACTS[Math.floor(rand() * FACTS.length)]} ${VALUES[Math.floor(rand() * VALUES.length)]} (note ${j})`,
        importance: Math.round(rand() * 100) / 100,
      });
    }
    await engram.remember(items);
  }
  log(`claims: ${claims} in ${Math.round(performance.now() - started)} ms`);
  const rates = new Map();
  for (let i = 0; i < episodes; i += batch) {
    clock.set(T0 + Math.floor((i / episodes) * 60 * DAY));
    const items = [];
    for (let j = i; j < Math.min(episodes, i + batch); j += 1) {
      const tool = TOOLS[Math.floor(rand() * TOOLS.length)];
      const object = OBJECTS[Math.floor(rand() * OBJECTS.length)];
      const key = `${tool}+${object}`;
      if (!rates.has(key)) rates.set(key, rand() < 0.2 ? 0.9 : 0.5);
      const success = rand() < rates.get(key);
      const novelty = Math.round(rand() * 1000) / 1000;
      items.push({
        scope: SCOPE,
        content: `${tool} ${object}: ${success ? 'done' : 'failed'} (episode ${j})`,
        occurredAt: clock.now(),
        importance: Math.round((0.1 + rand() * 0.8) * 100) / 100,
        perception: { objects: [object], salience: Math.round(rand() * 1000) / 1000, novelty },
        context: { goal: `${tool} the ${object}`, sessionId: `s${Math.floor(j / 200)}` },
        action: { tool },
        outcome: { success, reward: Math.round(Math.min(1, Math.max(0, 0.7 * novelty + 0.3 * rand())) * 1000) / 1000 },
      });
    }
    const results = await engram.remember(items);
    if (i % 10_000 === 0) log(`episodes: ${i + items.length}/${episodes}`);
    const read = results.filter((_, k) => (i + k) % 50 === 0).map((r) => r.id);
    await engram.store.recordAccess(read, T0 + 58 * DAY);
  }
  log(`ingest: ${size} memories in ${Math.round((performance.now() - started) / 1000)} s`);
  await engram.close();
  return Math.round(performance.now() - started);
}

mkdirSync(CACHE_DIR, { recursive: true });
const cached = join(CACHE_DIR, `consolidate-${size}-${embedder}.db`);
let ingestMs = null;
if (args.fresh || !existsSync(cached)) {
  removeDatabaseFiles(cached);
  ingestMs = await build(cached);
}
const work = join(CACHE_DIR, `consolidate-${size}-${embedder}.run.db`);
removeDatabaseFiles(work);
copyFileSync(cached, work);

const clock = new ManualClock(T0 + 61 * DAY);
const engram = await Engram.open({ path: work, embedder, clock });
let phase = 'open';
const peaks = new Map();
const sample = () => {
  const rss = process.memoryUsage.rss();
  if (rss > (peaks.get(phase) ?? 0)) peaks.set(phase, rss);
};
const timer = setInterval(sample, 20);
const config = resolveConsolidationConfig({});
const started = performance.now();
// One full cycle, as `engram consolidate` runs it; the batch hook tells which phase is running, so RSS
// samples are attributed to it (samples before a phase's first batch count for the previous phase).
const report = await runConsolidation(
  {
    store: engram.store,
    embedder: engram.embedder,
    clock,
    wallClock: { now: () => Date.now() },
    stopwatch: { now: () => performance.now() },
    random: { next: Math.random },
    config,
    hooks: {
      afterBatch: (name) => {
        if (name !== phase) {
          log(`${name} …`);
          phase = name;
        }
        sample();
      },
    },
  },
  { scope: SCOPE },
);
const phaseReports = report.phases;
for (const p of phaseReports) log(`${p.name}: ${p.durationMs} ms — ${p.note}`);
const totalMs = Math.round(performance.now() - started);
clearInterval(timer);
const stats = await engram.stats({ scopes: [SCOPE] });
await engram.close();
removeDatabaseFiles(work);

const rows = phaseReports.map((p) => ({
  phase: p.name,
  ms: p.durationMs,
  examined: p.examined,
  created: p.created,
  updated: p.updated,
  peakRssMb: mb(peaks.get(p.name) ?? 0),
  note: p.note,
}));
const peakRssMb = Math.max(...rows.map((r) => r.peakRssMb));
printTable(
  `consolidate: one full cycle over ${size} memories (${embedder} embedder), total ${totalMs} ms, peak RSS ${peakRssMb} MB`,
  [
    ['phase', 'phase'],
    ['ms', 'ms', 0],
    ['examined', 'examined', 0],
    ['created', 'created', 0],
    ['updated', 'updated', 0],
    ['peak RSS MB', 'peakRssMb', 0],
    ['note', 'note'],
  ],
  rows,
);
const result = { size, embedder, ingestMs, totalMs, peakRssMb, phases: rows, after: stats };
writeResult('consolidate', result);
const md = [
  `# bench:consolidate`,
  '',
  `One full consolidation cycle over ${size} memories in one scope (${Math.round(size * 0.05)} semantic claims, the rest structured episodes over 60 simulated days), ${embedder} embedder, SQLite, Node ${process.version}, ${new Date().toISOString()}.`,
  '',
  `Load average at the end: ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' / ')} on ${(await import('node:os')).availableParallelism()} cores (other jobs share the machine).`,
  '',
  `Total ${(totalMs / 1000).toFixed(1)} s, peak RSS ${peakRssMb} MB${ingestMs !== null ? `; ingest took ${(ingestMs / 1000).toFixed(0)} s` : ''}. Reproduce: \`npm run build && npm run bench:consolidate -- --size ${size} --embedder ${embedder}\`.`,
  '',
  '| phase | ms | examined | created | updated | peak RSS MB | note |',
  '|---|---:|---:|---:|---:|---:|---|',
  ...rows.map((r) => `| ${r.phase} | ${r.ms} | ${r.examined} | ${r.created} | ${r.updated} | ${r.peakRssMb} | ${r.note} |`),
  '',
].join('\n');
writeFileSync(join(RESULTS_DIR, 'consolidate.md'), md);
