#!/usr/bin/env node
// LoCoMo retrieval evaluation (npm run bench:locomo; --embedder NAME, --data FILE, --plain, --out FILE).
// --dump FILE writes each method's per-question top-10 record ids ({"method/sample/index": [ids]}), to
// compare two builds on one ingested --db; --now ISO fixes the clock so recency cannot differ between runs.
// Protocol (../shared/datasets/locomo/README.md): one scope per conversation, one episodic memory per
// turn (speaker + text, image caption appended), occurredAt = the session's date; for every question of
// categories 1-4, recall the top k turns and score any@k, strict all@k, frac@k and MRR@10 (see
// bench/retrieval-metrics.mjs and docs/metrics.md). Baselines (BM25 alone, vector
// alone, same model) run in the same process on the same data. Tuning is done on conversations 1-5
// only; conversations 6-10 are reported separately as held out.
import { existsSync, mkdirSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { homedir } from 'node:os';
import { Engram } from '../dist/index.js';
import { DEFAULT_ONNX_MODEL, hasModelFiles, resolveModelCacheDir } from '../dist/embeddings/onnx/index.js';
import { METRIC_ALIASES, scoreRanking, summarizeScores } from './retrieval-metrics.mjs';
import { CATEGORIES, prepareLocomo, scopeOf } from './locomo-data.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const args = parseArgs(process.argv.slice(2));
const DATA = args.data ?? join(here, '../../shared/datasets/locomo/locomo10.json');
// --embedder NAME; by default Engram's default model when it is installed (as a new store would take it),
// else USE-lite; named, not 'auto', so the cached store's name says which
const EMBEDDER =
  args.embedder ?? (hasModelFiles(resolveModelCacheDir(process.env, homedir()), DEFAULT_ONNX_MODEL) ? DEFAULT_ONNX_MODEL : 'use');
const SET_NAME = args.data ? basename(DATA).replace(/\.json$/, '') : 'locomo10';
// v4: remember() queues concept extraction; the ingest drains the queue as the background worker would.
const INGEST_VERSION = 'v4';
const cacheDir = join(here, '.cache');
// one cached store per data set, embedder and ingest (another set's store holds none of its conversations)
const dbPath =
  args.db ??
  join(
    cacheDir,
    `locomo-${EMBEDDER}-${INGEST_VERSION}${SET_NAME === 'locomo10' ? '' : `-${SET_NAME}`}${args.plain === true ? '-plain' : ''}.db`,
  );

// --conversations N: only the first N conversations (a quick slice, e.g. to check the metric code).
const samples = JSON.parse(readFileSync(DATA, 'utf8')).slice(0, args.conversations ? Number(args.conversations) : undefined);
// --plain: the plain ingest ({scope, content, occurredAt} per turn: no source, session or people).
const PLAIN = args.plain === true;
const { turnsBySample, questions, dropped, lastDateOf } = prepareLocomo(samples, { plain: PLAIN });

mkdirSync(cacheDir, { recursive: true });
if (args.fresh && existsSync(dbPath)) for (const f of [dbPath, `${dbPath}-wal`, `${dbPath}-shm`]) rmSync(f, { force: true });
const needsIngest = !existsSync(dbPath);
const recallOverrides = args.config ? JSON.parse(args.config) : {};
const fixedNow = args.now ? Date.parse(args.now) : undefined;
if (fixedNow !== undefined && Number.isNaN(fixedNow))
  throw new Error(`--now ${args.now} is not a date; give an ISO time like 2026-01-01T00:00:00Z`);
const engram = await Engram.open({
  path: dbPath,
  embedder: EMBEDDER,
  workers: 2,
  recall: recallOverrides,
  ...(fixedNow !== undefined ? { clock: { now: () => fixedNow } } : {}),
});

let ingestPerSec = null;
let concepts = null;
/** @type {Map<string, string>} record id → dia id, for the plain ingest */
let ingestedDia = new Map();
if (needsIngest) {
  const started = performance.now();
  let count = 0;
  for (const turns of turnsBySample.values()) {
    // batches of 128, each its own transaction, the next ones embedding while one commits
    let i = 0;
    for await (const written of engram.rememberBatches(
      turns.map((t) => t.input),
      { batchSize: 128 },
    )) {
      const batch = turns.slice(i, i + written.length);
      i += written.length;
      // A plain turn has no source to map it back by: remember which turn each record came from.
      written.forEach((w, j) => {
        if (!ingestedDia.has(w.id)) ingestedDia.set(w.id, batch[j].dia);
      });
      count += written.length;
      process.stderr.write(`\ringest ${count} turns`);
    }
  }
  ingestPerSec = count / ((performance.now() - started) / 1000);
  process.stderr.write(`\ringested ${count} turns at ${ingestPerSec.toFixed(1)}/s\n`);
} else {
  const cached = existsSync(`${dbPath}.meta.json`) ? JSON.parse(readFileSync(`${dbPath}.meta.json`, 'utf8')) : {};
  // a store ingested from another set, or from a slice of this one, would score its missing turns as misses
  const missing = [];
  for (const sampleId of turnsBySample.keys())
    if ((await engram.store.listMemories({ scopes: [scopeOf(sampleId)], limit: 1 })).length === 0) missing.push(sampleId);
  if (missing.length > 0) {
    await engram.close();
    throw new Error(
      `${dbPath} holds ${cached.set ?? 'another set'}, without ${missing.length} of ${SET_NAME}'s conversations (${missing.slice(0, 3).join(', ')}): run with --fresh, or give another --db`,
    );
  }
  ingestPerSec = cached.ingestPerSec ?? null;
  concepts = cached.concepts ?? null;
  ingestedDia = new Map(Object.entries(cached.diaOf ?? {}));
}
// Concepts and their refs feed recall's graph channel (spreading activation); a live store gets them
// from the background worker, the benchmark drains the queue before it asks anything.
const drained = await engram.processJobs({ scopes: 'all' });
if (drained.jobs > 0) {
  concepts = {
    conceptsCreated: (concepts?.conceptsCreated ?? 0) + drained.conceptsCreated,
    refsAdded: (concepts?.refsAdded ?? 0) + drained.refsAdded,
  };
  process.stderr.write(`concept extraction: ${drained.jobs} jobs, ${drained.conceptsCreated} concepts, ${drained.refsAdded} refs\n`);
}
if (needsIngest || drained.jobs > 0)
  writeFileSync(
    `${dbPath}.meta.json`,
    JSON.stringify({
      set: SET_NAME,
      ingestPerSec,
      concepts,
      ...(PLAIN ? { diaOf: Object.fromEntries(ingestedDia) } : {}),
    }),
  );

// Map record ids back to dialogue ids.
const diaOf = new Map();
for (const sampleId of turnsBySample.keys()) {
  let afterId;
  for (;;) {
    const page = await engram.store.listMemories({ scopes: [scopeOf(sampleId)], limit: 1000, ...(afterId ? { afterId } : {}) });
    if (page.length === 0) break;
    for (const r of page) diaOf.set(r.id, r.provenance.sources[0]?.messageId ?? ingestedDia.get(r.id));
    afterId = page[page.length - 1].id;
  }
}

const methods = {
  engram: {},
  bm25: { weights: { semantic: 0 }, baseline: true },
  vector: { weights: { lexical: 0 }, baseline: true },
};
const only = args.methods ? args.methods.split(',') : Object.keys(methods);
const results = {};
const dump = {};
for (const name of only) {
  const method = methods[name];
  const perQuestion = [];
  const latencies = [];
  for (const [index, q] of questions.entries()) {
    const started = performance.now();
    const { hits } = await engram.recall(q.question, {
      scopes: [scopeOf(q.sampleId)],
      k: 20,
      trackAccess: false,
      referenceTime: lastDateOf.get(q.sampleId),
      ...(method.weights ? { weights: method.weights } : {}),
    });
    latencies.push(performance.now() - started);
    const ranked = hits.map((h) => diaOf.get(h.id));
    dump[`${name}/${q.sampleId}/${index}`] = hits.slice(0, 10).map((h) => h.id);
    perQuestion.push({ ...q, ranked, scores: scoreRanking(ranked, q.evidence) });
  }
  results[name] = { perQuestion, latency: { p50: pct(latencies, 50), p95: pct(latencies, 95) } };
  process.stderr.write(`${name}: ${fmt(aggregate(perQuestion).overall)}\n`);
}

const main = results.engram ?? results[only[0]];
const report = {
  dataset: `${SET_NAME} (categories 1-4)`,
  ingest: PLAIN ? 'plain' : 'with source, session and speaker',
  conversations: samples.length,
  metricAliases: METRIC_ALIASES,
  questions: questions.length,
  droppedEvidence: dropped,
  embedder: engram.embedder.name,
  overall: aggregate(main.perQuestion).overall,
  byCategory: aggregate(main.perQuestion).byCategory,
  dev: aggregate(main.perQuestion.filter((q) => q.conversation <= 5)).overall,
  heldOut: {
    ...aggregate(main.perQuestion.filter((q) => q.conversation > 5)).overall,
    byCategory: aggregate(main.perQuestion.filter((q) => q.conversation > 5)).byCategory,
  },
  baselines: Object.fromEntries(
    Object.entries(results)
      .filter(([name]) => name !== 'engram')
      .map(([name, r]) => [
        name,
        {
          ...aggregate(r.perQuestion).overall,
          byCategory: aggregate(r.perQuestion).byCategory,
          heldOut: aggregate(r.perQuestion.filter((q) => q.conversation > 5)).overall,
          latency: r.latency,
        },
      ]),
  ),
  latency: main.latency,
  ingestPerSec,
  concepts,
  config: { ...engram.recallConfig },
};
await engram.close();

if (args.misses) {
  for (const q of main.perQuestion.filter((x) => x.scores.any10 === 0 && x.conversation <= 5).slice(0, Number(args.misses))) {
    console.log(`[${q.category}] ${q.question}  evidence=${q.evidence.join(',')} got=${q.ranked.slice(0, 5).join(',')}`);
  }
}
if (args.dump) {
  mkdirSync(dirname(args.dump), { recursive: true });
  writeFileSync(args.dump, `${JSON.stringify(dump, null, 1)}\n`);
}
const out =
  args.out ??
  join(
    // a slice goes to the cache, so it never overwrites the published tables
    args.conversations ? cacheDir : join(here, 'results'),
    `${args.data ? basename(DATA).replace(/\.json$/, '') : 'locomo'}${PLAIN ? '-plain' : ''}${args.conversations ? `-first-${Number(args.conversations)}` : ''}.json`,
  );
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
// A slice or a run given --out never overwrites the published tables: its markdown and chart go next to its JSON.
const reportBase =
  args.conversations || args.data || args.out ? out.replace(/\.json$/, '') : join(here, 'results', PLAIN ? 'locomo-plain' : 'locomo');
mkdirSync(dirname(reportBase), { recursive: true });
writeFileSync(`${reportBase}.md`, markdown(report));
writeFileSync(`${reportBase}.svg`, chart(report));
console.log(markdown(report));

// ---------------------------------------------------------------------------------------------

function aggregate(perQuestion) {
  const summarize = summarizeScores;
  const byCategory = {};
  for (const c of CATEGORIES) byCategory[c] = summarize(perQuestion.filter((q) => q.category === c));
  return { overall: summarize(perQuestion), byCategory };
}

function pct(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return Number((sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0).toFixed(2));
}

function fmt(m) {
  return `any@5 ${m['any@5']} any@10 ${m['any@10']} strictAll@10 ${m['strictAll@10']} frac@10 ${m['frac@10']} mrr@10 ${m['mrr@10']}`;
}

function markdown(r) {
  const row = (name, m) =>
    `| ${name} | ${m['any@5']} | ${m['any@10']} | ${m['any@20']} | ${m['strictAll@10']} | ${m['frac@10']} | ${m['mrr@10']} |`;
  // A set of five conversations or fewer (the hand-written ones) has no held-out part to report.
  const split = r.conversations > 5;
  const all = `all ${r.conversations}`;
  const lines = [
    `# ${args.data ? SET_NAME : 'LoCoMo'} retrieval (categories 1-4, ${r.questions} questions, ${r.conversations} conversations, embedder ${r.embedder}, ${r.ingest} ingest)`,
    '',
    '| method | any@5 | any@10 | any@20 | strict all@10 | frac@10 | MRR@10 |',
    '|---|---|---|---|---|---|---|',
    row(`**engram** (${all})`, r.overall),
    ...(split ? [row('engram, dev (conv 1-5)', r.dev), row('engram, held out (conv 6-10)', r.heldOut)] : []),
    ...Object.entries(r.baselines).map(([name, m]) => row(`${name} baseline (${all})`, m)),
    ...(split ? Object.entries(r.baselines).map(([name, m]) => row(`${name} baseline, held out`, m.heldOut)) : []),
    '',
    '| category | engram any@10 | engram strict all@10 | engram frac@10 | engram MRR@10 | ' +
      Object.keys(r.baselines)
        .map((b) => `${b} any@10 | ${b} MRR@10`)
        .join(' | ') +
      ' |',
    '|---|---|---|---|---|' +
      Object.keys(r.baselines)
        .map(() => '---|---|')
        .join(''),
    ...CATEGORIES.map(
      (c) =>
        `| ${c} ${['', 'multi-hop', 'temporal', 'open-domain', 'single-hop'][c]} (${r.byCategory[c].n}) | ${r.byCategory[c]['any@10']} | ${r.byCategory[c]['strictAll@10']} | ${r.byCategory[c]['frac@10']} | ${r.byCategory[c]['mrr@10']} | ` +
        Object.values(r.baselines)
          .map((b) => `${b.byCategory[c]['any@10']} | ${b.byCategory[c]['mrr@10']}`)
          .join(' | ') +
        ' |',
    ),
    '',
    'any@k: share of questions with at least one evidence turn in the top k; strict all@k: with every evidence turn in the top k; frac@k: mean fraction of evidence turns in the top k (older results called it all@10); MRR@10: mean reciprocal rank of the first evidence turn within the top 10.',
    '',
    `Recall latency p50 ${r.latency.p50} ms, p95 ${r.latency.p95} ms (query embedding included); ingest ${r.ingestPerSec ? r.ingestPerSec.toFixed(1) : 'n/a (cached)'} turns/s.`,
    `Evidence ids dropped or normalised away: ${r.droppedEvidence.length}.`,
    '',
  ];
  return lines.join('\n');
}

function chart(r) {
  const methods = [['engram', r.overall], ...Object.entries(r.baselines)];
  const metrics = ['any@5', 'any@10', 'strictAll@10', 'frac@10', 'mrr@10'];
  const colors = ['#2563eb', '#9ca3af', '#f59e0b', '#10b981'];
  const W = 640,
    H = 320,
    left = 50,
    bottom = 40,
    plotH = H - bottom - 30,
    groupW = (W - left - 20) / metrics.length,
    barW = groupW / (methods.length + 1);
  let bars = '';
  metrics.forEach((metric, mi) => {
    methods.forEach(([name, m], i) => {
      const v = m[metric] ?? 0;
      const x = left + mi * groupW + i * barW + barW / 2;
      const h = v * plotH;
      bars += `<rect x="${x.toFixed(1)}" y="${(30 + plotH - h).toFixed(1)}" width="${(barW - 2).toFixed(1)}" height="${h.toFixed(1)}" fill="${colors[i % colors.length]}"><title>${name} ${metric} ${v}</title></rect>`;
      bars += `<text x="${(x + barW / 2 - 1).toFixed(1)}" y="${(26 + plotH - h).toFixed(1)}" font-size="9" text-anchor="middle">${v.toFixed(2)}</text>`;
    });
    bars += `<text x="${(left + mi * groupW + groupW / 2).toFixed(1)}" y="${H - 20}" font-size="12" text-anchor="middle">${metric}</text>`;
  });
  const legend = methods
    .map(
      ([name], i) =>
        `<rect x="${left + i * 110}" y="8" width="10" height="10" fill="${colors[i % colors.length]}"/><text x="${left + i * 110 + 14}" y="17" font-size="11">${name}</text>`,
    )
    .join('');
  const axis = [0, 0.25, 0.5, 0.75, 1]
    .map(
      (t) =>
        `<line x1="${left}" x2="${W - 10}" y1="${30 + plotH - t * plotH}" y2="${30 + plotH - t * plotH}" stroke="#e5e7eb"/><text x="${left - 6}" y="${34 + plotH - t * plotH}" font-size="10" text-anchor="end">${t}</text>`,
    )
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif"><rect width="100%" height="100%" fill="white"/>${axis}${bars}${legend}</svg>\n`;
}

function parseArgs(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i += 1) {
    const a = argv[i];
    if (!a.startsWith('--')) continue;
    const key = a.slice(2);
    const next = argv[i + 1];
    if (next === undefined || next.startsWith('--')) out[key] = true;
    else {
      out[key] = next;
      i += 1;
    }
  }
  return out;
}
