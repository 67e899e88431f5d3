#!/usr/bin/env node
// Ingest with the default model (npm run bench:ingest-model [-- --embedder NAME --workers 2 --batch 128 --plain]).
// Two workloads, each into a fresh temp store, each next to the model's own throughput on the very texts
// the engine embeds (same embedder instance and workers, `embedder.embed(texts)`, measured before and
// after the ingest and averaged, since the cores are shared):
//   locomo     every turn of ../shared/datasets/locomo/locomo10.json as bench/locomo-data.mjs prepares it
//              (source, session, speaker), written with rememberBatches (batches of --batch, the next
//              batches embedding while one commits); --plain also times remember() per batch, the old path;
//   long       a fixed fixture of --long texts of exactly 2,000 characters (the chunking limit: one record
//              each), written the same way.
// After the first mode's ingest, the work it left for later is done and timed too (`processJobs()`: concept
// extraction, part vectors, mentioned times; the background worker of `engram serve` does it while
// idle): `complete` gives the texts/s from the first write until everything is made.
// Targets (issue #20, was #14's 100): ≥ 150 LoCoMo turns/s on 2 cores (the ingest, `remember` returning:
// the records are then searchable); the 2,000-character fixture at ≥ 80% of the model's own texts/s.
// Writes bench/results/ingest-model.json and .md.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Engram } from '../dist/index.js';
import { embeddingText } from '../dist/core/write/remember.js';
import { writeChartOf } from './charts.mjs';
import { BENCH_DIR, RESULTS_DIR, defaultModelName, log, writeResult } from './lib.mjs';
import { prepareLocomo } from './locomo-data.mjs';

const { values: args } = parseArgs({
  options: {
    embedder: { type: 'string', default: await defaultModelName() },
    workers: { type: 'string', default: '2' },
    batch: { type: 'string', default: '128' },
    long: { type: 'string', default: '96' },
    conversations: { type: 'string' },
    plain: { type: 'boolean', default: false },
    data: { type: 'string', default: join(BENCH_DIR, '../../shared/datasets/locomo/locomo10.json') },
  },
});
const WORKERS = Number(args.workers);
const BATCH = Number(args.batch);
const TURNS_TARGET = 150;
const LONG_RATIO_TARGET = 0.8;

const samples = JSON.parse(readFileSync(args.data, 'utf8')).slice(0, args.conversations ? Number(args.conversations) : undefined);
const { turnsBySample } = prepareLocomo(samples);
const turns = [...turnsBySample.values()].flat().map((t) => t.input);
const longTexts = longFixture(Number(args.long));

const load = () => loadavg().map((x) => Math.round(x * 100) / 100);
const round = (x, d = 1) => Math.round(x * 10 ** d) / 10 ** d;

/** A fresh store; `fn(engram)` runs on it, then it is closed and removed. */
async function withFreshStore(fn) {
  const dir = mkdtempSync(join(tmpdir(), 'engram-ingest-model-'));
  const engram = await Engram.open({ path: join(dir, 'ingest.db'), embedder: /** @type {any} */ (args.embedder), workers: WORKERS });
  try {
    // start every worker (and load its model) before timing
    await engram.embedder.embed(Array.from({ length: 4 * Math.max(1, WORKERS) }, (_, i) => `warm-up text number ${i}`));
    return await fn(engram);
  } finally {
    await engram.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** CPU of the whole process (main thread and workers), ms. */
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

async function modelRate(embedder, texts) {
  const started = performance.now();
  const cpu = cpuMs();
  await embedder.embed(texts);
  return { perSecond: texts.length / ((performance.now() - started) / 1000), cpuMsPerText: (cpuMs() - cpu) / texts.length };
}

async function ingestRate(engram, inputs, mode) {
  const started = performance.now();
  const cpu = cpuMs();
  let written = 0;
  if (mode === 'batches') {
    for await (const results of engram.rememberBatches(inputs, { batchSize: BATCH })) written += results.length;
  } else {
    for (let i = 0; i < inputs.length; i += BATCH) written += (await engram.remember(inputs.slice(i, i + BATCH))).length;
  }
  const seconds = (performance.now() - started) / 1000;
  const cpuMsPerText = (cpuMs() - cpu) / written;
  return {
    written,
    seconds: round(seconds, 2),
    perSecond: round(written / seconds),
    cpuMsPerText: round(cpuMsPerText, 2),
    twoCoreCapacity: round(2000 / cpuMsPerText),
  };
}

/**
 * One workload: the model's own rate on the texts the engine embeds, the ingest (per scope, as an
 * import would), and the model's rate again.
 */
async function workload(name, inputs, modes) {
  return withFreshStore(async (engram) => {
    const texts = inputs.map((input) =>
      embeddingText({
        layer: input.layer ?? 'episodic',
        content: input.content,
        data: input.perception !== undefined ? { perception: input.perception } : {},
      }),
    );
    const loadBefore = load();
    log(`${name}: the model's own rate on ${texts.length} texts`);
    const before = await modelRate(engram.embedder, texts);
    const ingest = {};
    for (const mode of modes) {
      log(`${name}: ingest (${mode})`);
      // a second mode writes into the same store under other scopes, so nothing is `unchanged`
      const scoped = mode === modes[0] ? inputs : inputs.map((input) => ({ ...input, scope: `${input.scope}-${mode}` }));
      ingest[mode] = await ingestRate(engram, scoped, mode);
      log(`${name}: ${ingest[mode].perSecond}/s (${mode})`);
      if (mode === modes[0]) {
        const started = performance.now();
        const drained = await engram.processJobs();
        const seconds = (performance.now() - started) / 1000;
        ingest[mode].deferred = {
          seconds: round(seconds, 2),
          jobs: drained.jobs,
          partVectors: drained.partVectors,
          mentionedTimes: drained.mentionedTimes,
          completePerSecond: round(ingest[mode].written / (ingest[mode].seconds + seconds)),
        };
        log(`${name}: the deferred work in ${round(seconds, 2)} s: ${ingest[mode].deferred.completePerSecond}/s until all is made`);
      }
    }
    const after = await modelRate(engram.embedder, texts);
    const modelPerSecond = round((before.perSecond + after.perSecond) / 2);
    const modelCpuMsPerText = round((before.cpuMsPerText + after.cpuMsPerText) / 2, 2);
    const rows = Object.fromEntries(
      Object.entries(ingest).map(([mode, r]) => [
        mode,
        { ...r, ofModel: round(r.perSecond / modelPerSecond, 3), cpuOfModel: round(modelCpuMsPerText / r.cpuMsPerText, 3) },
      ]),
    );
    return {
      texts: texts.length,
      meanChars: round(texts.reduce((a, t) => a + t.length, 0) / texts.length),
      modelPerSecond,
      modelRuns: [round(before.perSecond), round(after.perSecond)],
      modelCpuMsPerText,
      modelTwoCoreCapacity: round(2000 / modelCpuMsPerText),
      ingest: rows,
      loadBefore,
      loadAfter: load(),
      embedder: engram.embedder.name,
    };
  });
}

function longFixture(count) {
  const facts = [
    'the kitchen mug was moved to the second shelf after the cleaning crew left on Tuesday',
    'the staging database migration failed twice because of a missing index on the orders table',
    'quarterly revenue grew five percent while marketing spend stayed flat across all regions',
    'the customer prefers window seats and vegetarian meals on every long-haul flight booked',
    'the build pipeline times out when the integration tests run against the shared cluster',
    'Maria from the Lisbon office will present the hiring plan at the offsite in October',
  ];
  return Array.from({ length: count }, (_, i) => {
    let text = `Note ${i}:`;
    for (let j = 0; text.length < 2000; j++) text += ` ${facts[(i + j) % facts.length]}.`;
    return text.slice(0, 2000);
  });
}

const modes = args.plain ? ['batches', 'plain'] : ['batches'];
const locomo = await workload('locomo', turns, modes);
const long = await workload(
  'long',
  longTexts.map((content, i) => ({ scope: 'bench/long', content, source: { uri: `fixture:long#${i}` } })),
  ['batches'],
);
const verdicts = {
  locomoTurnsPerSecond: {
    target: `≥ ${TURNS_TARGET}`,
    value: locomo.ingest.batches.perSecond,
    met: locomo.ingest.batches.perSecond >= TURNS_TARGET,
  },
  longOfModel: {
    target: `≥ ${LONG_RATIO_TARGET}`,
    value: long.ingest.batches.ofModel,
    met: long.ingest.batches.ofModel >= LONG_RATIO_TARGET,
  },
};
const options = { embedder: args.embedder, workers: WORKERS, batch: BATCH, conversations: samples.length, longTexts: longTexts.length };
const path = writeResult('ingest-model', { options, locomo, long, verdicts });
writeFileSync(join(RESULTS_DIR, 'ingest-model.md'), markdown());
process.stdout.write(markdown());
log(`wrote ${path} and ${writeChartOf(path)}`);

function markdown() {
  const row = (name, w, mode) => {
    const r = w.ingest[mode];
    return `| ${name} | ${mode === 'batches' ? 'rememberBatches' : 'remember() per batch'} | ${w.texts} | ${w.meanChars} | **${r.perSecond}** | ${r.deferred?.completePerSecond ?? '–'} | ${w.modelPerSecond} | ${Math.round(r.ofModel * 100)}% | ${r.cpuMsPerText} / ${w.modelCpuMsPerText} | ${r.twoCoreCapacity} / ${w.modelTwoCoreCapacity} | ${w.loadBefore[0]} → ${w.loadAfter[0]} |`;
  };
  return [
    `# Ingest with ${locomo.embedder} (${WORKERS} workers, batches of ${BATCH})`,
    '',
    '| workload | path | texts | mean chars | ingest texts/s | until the deferred work is done too, texts/s | model texts/s (same texts) | of model | CPU ms per text, ingest / model | 2-core capacity texts/s, ingest / model | load (1 min) |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...Object.keys(locomo.ingest).map((mode) => row('LoCoMo turns', locomo, mode)),
    row('2,000-character fixture', long, 'batches'),
    '',
    `LoCoMo turns/s: ${verdicts.locomoTurnsPerSecond.value} (target ${verdicts.locomoTurnsPerSecond.target}: ${verdicts.locomoTurnsPerSecond.met ? 'met' : 'missed'}); ` +
      `2,000-character fixture: ${Math.round(verdicts.longOfModel.value * 100)}% of the model's own rate (target ${LONG_RATIO_TARGET * 100}%: ${verdicts.longOfModel.met ? 'met' : 'missed'}).`,
    '',
    'CPU ms per text: CPU time of the whole process (main thread and workers) per text written or embedded. 2-core capacity = 2,000 / that: the rate two otherwise idle cores could sustain if the work spread perfectly, a projection for runs on a shared machine, where the measured rate depends on what else runs.',
    '',
  ].join('\n');
}
