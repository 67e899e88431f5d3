#!/usr/bin/env node
// Seed 001's maintenance surface at size: `npm run bench:maple [-- --size 2000 --embedder hash]`.
//
// Writes `--size` memories into one scope of a fresh SQLite file with an injected clock over 20 days:
// a quarter of them in decision chains (a decision with two rejected alternatives and an outcome that
// follows it), the rest plain episodes and facts with spread importance, 5% read recently. Then times
// surface (without and with a context), recall with and without `chains: true`, the decay dry run and
// run at day 28, and expire (dry run and apply) at day 70, and reports what each did.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { log, percentiles, printTable, since, writeResult } from './lib.mjs';

const { values: args } = parseArgs({
  options: {
    size: { type: 'string', default: '2000' },
    embedder: { type: 'string', default: 'hash' },
    repeat: { type: 'string', default: '20' },
  },
});
const size = Number(args.size);
const repeat = Number(args.repeat);
const SCOPE = 'bench/maple';
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);

const dist = join(process.cwd(), 'dist', 'index.js');
const { Engram, ManualClock } = await import(dist).catch(() => {
  process.stderr.write('bench:maple needs the build: run `npm run build` first.\n');
  process.exit(1);
});

let seed = 11;
const rand = () => {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const TOPICS = [
  'billing',
  'search',
  'deploys',
  'backups',
  'the mobile app',
  'onboarding',
  'the data warehouse',
  'alerts',
  'caching',
  'auth',
];
const OPTIONS = [
  'PostgreSQL',
  'Kafka',
  'a cron job',
  'Redis',
  'a feature flag',
  'blue-green deploys',
  'a queue',
  'S3',
  'GraphQL',
  'a monorepo',
];
const pick = (list) => list[Math.floor(rand() * list.length)];

const dir = mkdtempSync(join(tmpdir(), 'engram-bench-maple-'));
const clock = new ManualClock(T0);
const engram = await Engram.open({ path: join(dir, 'engram.db'), embedder: args.embedder, clock });
try {
  log(`writing ${size} memories`);
  const started = performance.now();
  let written = 0;
  let chains = 0;
  while (written < size) {
    clock.set(T0 + Math.floor((written / size) * 20 * DAY));
    if (written % 8 === 0 && written + 4 <= size) {
      const topic = pick(TOPICS);
      const option = pick(OPTIONS);
      const decision = await engram.remember({
        scope: SCOPE,
        content: `Decided to use ${option} for ${topic} (#${written}).`,
        importance: rand() < 0.3 ? 0.8 : 0.4,
        decision: { intent: `${topic} design`, rationale: `${option} fits the load of ${topic}` },
        rejected: [`Use ${pick(OPTIONS)} for ${topic} instead`, `Build ${topic} by hand`],
      });
      await engram.remember({
        scope: SCOPE,
        content: `Using ${option} for ${topic} worked out (#${written}).`,
        importance: 0.2,
        follows: decision.id,
      });
      written += 4;
      chains += 1;
      continue;
    }
    const batch = [];
    for (let i = 0; i < 4 && written < size; i++, written++) {
      const semantic = rand() < 0.2;
      batch.push({
        scope: SCOPE,
        layer: semantic ? 'semantic' : 'episodic',
        content: `${semantic ? 'Fact' : 'Note'} ${written}: ${pick(TOPICS)} and ${pick(OPTIONS)}.`,
        importance: Math.round(rand() * 100) / 100,
      });
    }
    const results = await engram.remember(batch);
    const used = results.filter(() => rand() < 0.05).map((r) => r.id);
    if (used.length > 0) await engram.store.recordAccess(used, clock.now());
  }
  const writeMs = since(started);
  log(`written in ${Math.round(writeMs)} ms; measuring`);

  const timed = async (fn) => {
    const ms = [];
    let last;
    for (let i = 0; i < repeat; i++) {
      const t = performance.now();
      last = await fn(i);
      ms.push(since(t));
    }
    return { ...percentiles(ms), last };
  };
  clock.set(T0 + 21 * DAY);
  const rows = [];
  const surfacePlain = await timed(() => engram.surface({ scopes: [SCOPE] }));
  rows.push({ operation: 'surface (no context, limit 10)', ...surfacePlain, result: `${surfacePlain.last.hits.length} hits` });
  const surfaceContext = await timed((i) =>
    engram.surface({ scopes: [SCOPE], context: `why ${TOPICS[i % TOPICS.length]} uses ${OPTIONS[i % OPTIONS.length]}` }),
  );
  rows.push({ operation: 'surface (with a context)', ...surfaceContext, result: `${surfaceContext.last.hits.length} hits` });
  const recallPlain = await timed((i) =>
    engram.recall(`decision about ${TOPICS[i % TOPICS.length]}`, { scopes: [SCOPE], trackAccess: false }),
  );
  rows.push({ operation: 'recall (k 10)', ...recallPlain, result: `${recallPlain.last.hits.length} hits` });
  const recallChains = await timed((i) =>
    engram.recall(`decision about ${TOPICS[i % TOPICS.length]}`, { scopes: [SCOPE], trackAccess: false, chains: true }),
  );
  const withChain = recallChains.last.hits.filter((h) => h.chain !== undefined);
  rows.push({
    operation: 'recall (k 10, chains: true)',
    ...recallChains,
    result: `${withChain.length} hits with a chain of ${withChain[0]?.chain.length ?? 0}`,
  });

  const once = async (label, fn, describe) => {
    const t = performance.now();
    const value = await fn();
    rows.push({ operation: label, p50: since(t), p95: null, result: describe(value) });
    return value;
  };
  clock.set(T0 + 28 * DAY);
  await once(
    'decay, dry run (day 28)',
    () => engram.decay({ scope: SCOPE, dryRun: true }),
    (r) => `${r.counts.decayed} would decay of ${r.examined}`,
  );
  const decayed = await once(
    'decay (day 28)',
    () => engram.decay({ scope: SCOPE }),
    (r) => `${r.counts.decayed} decayed of ${r.examined}`,
  );
  clock.set(T0 + 70 * DAY);
  await once(
    'expire, dry run (day 70)',
    () => engram.expire({ scope: SCOPE, dryRun: true }),
    (r) => `${r.expired} due`,
  );
  const expired = await once(
    'expire, apply (day 70)',
    () => engram.expire({ scope: SCOPE }),
    (r) => `${r.expired} tombstones, ${r.removed.edges} edges, ${r.removed.indexEntries} index entries`,
  );

  printTable(
    `seed 001 maintenance, ${size} memories (${chains} decision chains), ${args.embedder} embedder, SQLite`,
    [
      ['operation', 'operation'],
      ['p50 ms', 'p50'],
      ['p95 ms', 'p95'],
      ['result', 'result'],
    ],
    rows,
  );
  const path = writeResult('maple', {
    size,
    chains,
    embedder: args.embedder,
    repeat,
    writeMs,
    rows,
    decayed: decayed.counts,
    expired: expired.expired,
  });
  log(`wrote ${path}`);
} finally {
  await engram.close();
  rmSync(dir, { recursive: true, force: true });
}
