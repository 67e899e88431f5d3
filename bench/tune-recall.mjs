#!/usr/bin/env node
// Compares recall configurations on already-ingested LoCoMo-shaped stores, in one process:
//   node bench/tune-recall.mjs --set locomo=DB[:DATA] --set burst=DB:DATA … --configs FILE.json [--conversations 1-5]
// DB is a store that bench/locomo.mjs ingested (its .meta.json maps plain turns back to their ids);
// DATA defaults to LoCoMo. FILE.json is {"name": {recall overrides}, …}; "default" is added when
// missing. The query embeddings are computed once and shared by every configuration, so a grid costs
// one embedding pass. It prints one row per configuration and set (any@10, frac@10, strict all@10,
// MRR@10) and the mean over the sets. Tune only on development data (LoCoMo 1-5 with
// --conversations 1-5, and the hand-written sets); report held-out numbers with bench/locomo.mjs.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Engram, createEmbedder } from '../dist/index.js';
import { memoisedEmbedder } from './lib.mjs';
import { scoreRanking, summarizeScores } from './retrieval-metrics.mjs';
import { prepareLocomo, scopeOf } from './locomo-data.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const LOCOMO = join(here, '../../shared/datasets/locomo/locomo10.json');
const argv = process.argv.slice(2);
const sets = [];
let configsFile;
let range;
let embedderName;
for (let i = 0; i < argv.length; i += 1) {
  if (argv[i] === '--set') {
    const [name, rest] = argv[++i].split('=');
    const [db, data] = rest.split(':');
    sets.push({ name, db, data: data ?? LOCOMO });
  } else if (argv[i] === '--configs') configsFile = argv[++i];
  else if (argv[i] === '--conversations') range = argv[++i].split('-').map(Number);
  else if (argv[i] === '--embedder') embedderName = argv[++i];
}
if (sets.length === 0 || configsFile === undefined) {
  console.error('usage: node bench/tune-recall.mjs --set NAME=DB[:DATA] … --configs FILE.json [--conversations 1-5] [--embedder NAME]');
  process.exit(2);
}
const configs = JSON.parse(readFileSync(configsFile, 'utf8'));
if (configs.default === undefined) configs.default = {};

// One embedder for every configuration, remembering each query's vector.
const inner = await createEmbedder(/** @type {import('../dist/index.js').EmbedderChoice} */ (embedderName ?? 'auto'), { workers: 0 });
const shared = memoisedEmbedder(inner);

const rows = [];
for (const set of sets) {
  const samples = JSON.parse(readFileSync(set.data, 'utf8'));
  const meta = existsSync(`${set.db}.meta.json`) ? JSON.parse(readFileSync(`${set.db}.meta.json`, 'utf8')) : {};
  const { questions, lastDateOf } = prepareLocomo(samples);
  const asked = range ? questions.filter((q) => q.conversation >= range[0] && q.conversation <= range[1]) : questions;
  for (const [name, overrides] of Object.entries(configs)) {
    const engram = await Engram.open({ path: set.db, embedder: shared, recall: overrides });
    const diaOf = await diaMap(engram, [...new Set(asked.map((q) => q.sampleId))], meta.diaOf ?? {});
    const perQuestion = [];
    const started = performance.now();
    for (const q of asked) {
      const { hits } = await engram.recall(q.question, {
        scopes: [scopeOf(q.sampleId)],
        k: 20,
        trackAccess: false,
        referenceTime: lastDateOf.get(q.sampleId),
      });
      perQuestion.push({
        scores: scoreRanking(
          hits.map((h) => diaOf.get(h.id)),
          q.evidence,
        ),
      });
    }
    const ms = (performance.now() - started) / asked.length;
    await engram.close();
    const m = summarizeScores(perQuestion);
    rows.push({
      set: set.name,
      config: name,
      n: asked.length,
      any10: m['any@10'],
      frac10: m['frac@10'],
      strict10: m['strictAll@10'],
      mrr10: m['mrr@10'],
      ms: Number(ms.toFixed(1)),
    });
    process.stderr.write(
      `${set.name} ${name}: any@10 ${m['any@10']} frac@10 ${m['frac@10']} mrr@10 ${m['mrr@10']} (${ms.toFixed(1)} ms/q)\n`,
    );
  }
}
await inner.close?.();

console.log('| config | set | n | any@10 | frac@10 | strict all@10 | MRR@10 | ms/q |');
console.log('|---|---|---|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.config} | ${r.set} | ${r.n} | ${r.any10} | ${r.frac10} | ${r.strict10} | ${r.mrr10} | ${r.ms} |`);
console.log('\n| config | mean any@10 | mean frac@10 | mean MRR@10 |');
console.log('|---|---|---|---|');
for (const name of Object.keys(configs)) {
  const mine = rows.filter((r) => r.config === name);
  const mean = (key) => (mine.reduce((s, r) => s + r[key], 0) / mine.length).toFixed(3);
  console.log(`| ${name} | ${mean('any10')} | ${mean('frac10')} | ${mean('mrr10')} |`);
}

async function diaMap(engram, sampleIds, plain) {
  const out = new Map();
  for (const sampleId of sampleIds) {
    let afterId;
    for (;;) {
      const page = await engram.store.listMemories({ scopes: [scopeOf(sampleId)], limit: 1000, ...(afterId ? { afterId } : {}) });
      if (page.length === 0) break;
      for (const r of page) out.set(r.id, r.provenance.sources[0]?.messageId ?? plain[r.id]);
      afterId = page[page.length - 1].id;
    }
  }
  return out;
}
