#!/usr/bin/env node
// Would turns embedded sentence by sentence rank better? The dense channel alone on a cached LoCoMo
// store (one that bench/locomo.mjs ingested), for the questions of some conversations:
//   node bench/sentence-vectors.mjs [--db DB] [--data FILE] [--conversations 1-5] [--embedder NAME]
// Each turn's text is embedded whole (`embeddingText`), and each of its sentences of four words or more
// (when it has two or more) as the same turn with only that sentence (`embeddingParts`, the write path's). Rankings by
// cosine with the question's vector: the turn's vector (as stored today); the best of the turn and its
// sentences; the mean of the turn's score and that best; the normalised mean of the sentences' vectors
// (one vector a turn, about the turn's own tokens to embed); that mean with the best sentence; the best
// sentence alone. Prints dense any@10 and frac@10 per ranking and the embedding time; writes
// bench/results/sentence-vectors.json. Tune on development conversations only.
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Engram, createEmbedder } from '../dist/index.js';
import { embeddingParts, embeddingText } from '../dist/core/write/embedding-parts.js';
import { prepareLocomo, scopeOf } from './locomo-data.mjs';
import { CACHE_DIR, REPO_DIR, log, printTable, writeResult } from './lib.mjs';

const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const i = argv.indexOf(name);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : fallback;
};
const db = option('--db', join(CACHE_DIR, 'locomo-blend-e5-minilm-v4.db'));
const data = option('--data', join(REPO_DIR, '../shared/datasets/locomo/locomo10.json'));
const setName = option('--data', undefined) === undefined ? 'LoCoMo' : basename(data).replace(/\.json$/, '');
const [from, to] = option('--conversations', option('--data', undefined) === undefined ? '1-5' : '1-99')
  .split('-')
  .map(Number);
const embedderName = option('--embedder', 'blend-e5-minilm');

const { questions } = prepareLocomo(JSON.parse(readFileSync(data, 'utf8')));
const asked = questions.filter((q) => q.conversation >= from && q.conversation <= to);
const embedder = await createEmbedder(/** @type {import('../dist/index.js').EmbedderChoice} */ (embedderName), { workers: 2 });
const engram = await Engram.open({ path: db, embedder });

/** @type {{ sample: string, dia: string | undefined, text: string, sentences: string[] }[]} */
const turns = [];
for (const sample of new Set(asked.map((q) => q.sampleId))) {
  /** @type {string | undefined} */
  let afterId;
  for (;;) {
    const page = await engram.store.listMemories({ scopes: [scopeOf(sample)], limit: 1000, ...(afterId ? { afterId } : {}) });
    if (page.length === 0) break;
    for (const record of page) {
      if (record.layer !== 'episodic') continue;
      const parts = embeddingParts(record);
      turns.push({
        sample,
        dia: record.provenance.sources[0]?.messageId,
        text: embeddingText(record),
        sentences: parts.length >= 2 ? parts : [],
      });
    }
    afterId = page[page.length - 1]?.id;
  }
}
const parts = turns.flatMap((turn, index) => turn.sentences.map((text) => ({ index, text })));
log(`${turns.length} turns, ${parts.length} sentence texts (${turns.filter((t) => t.sentences.length > 0).length} turns split)`);

/** @param {string[]} texts @param {'passage' | 'query'} purpose */
const embedAll = async (texts, purpose) => {
  /** @type {Float32Array[]} */
  const out = [];
  for (let i = 0; i < texts.length; i += 64) out.push(...(await embedder.embed(texts.slice(i, i + 64), { purpose })));
  return out;
};
let started = performance.now();
const turnVectors = await embedAll(
  turns.map((t) => t.text),
  'passage',
);
const turnSeconds = (performance.now() - started) / 1000;
started = performance.now();
const sentenceVectors = await embedAll(
  parts.map((p) => p.text),
  'passage',
);
const sentenceSeconds = (performance.now() - started) / 1000;
const questionVectors = await embedAll(
  asked.map((q) => q.question),
  'query',
);
await engram.close();

/** @param {Float32Array} a @param {Float32Array} b */
const dot = (a, b) => {
  let sum = 0;
  for (let i = 0; i < a.length; i += 1) sum += a[i] * b[i];
  return sum;
};
/** The normalised mean of a split turn's sentence vectors. */
const sentenceMean = new Map();
parts.forEach((part, j) => {
  const sum = sentenceMean.get(part.index) ?? new Float32Array(sentenceVectors[j].length);
  for (let d = 0; d < sum.length; d += 1) sum[d] += sentenceVectors[j][d];
  sentenceMean.set(part.index, sum);
});
for (const sum of sentenceMean.values()) {
  const norm = Math.sqrt(dot(sum, sum));
  for (let d = 0; d < sum.length; d += 1) sum[d] /= norm;
}

/** @type {Record<string, (turn: number, best: number | undefined, q: Float32Array) => number>} */
const rankings = {
  'turn vector (today)': (i, _best, q) => dot(q, turnVectors[i]),
  'best of turn and sentences': (i, best, q) => Math.max(dot(q, turnVectors[i]), best ?? -1),
  'mean of turn and that best': (i, best, q) => {
    const own = dot(q, turnVectors[i]);
    return (own + Math.max(own, best ?? -1)) / 2;
  },
  'mean of sentence vectors': (i, _best, q) => dot(q, sentenceMean.get(i) ?? turnVectors[i]),
  'that mean with the best sentence': (i, best, q) => {
    const own = dot(q, sentenceMean.get(i) ?? turnVectors[i]);
    return (own + Math.max(own, best ?? -1)) / 2;
  },
  'best sentence alone': (i, best, q) => best ?? dot(q, turnVectors[i]),
};

const rows = [];
for (const [name, score] of Object.entries(rankings)) {
  let any = 0;
  let frac = 0;
  asked.forEach((question, qi) => {
    const q = questionVectors[qi];
    /** @type {Map<number, number>} */
    const best = new Map();
    parts.forEach((part, j) => {
      if (turns[part.index].sample === question.sampleId)
        best.set(part.index, Math.max(best.get(part.index) ?? -1, dot(q, sentenceVectors[j])));
    });
    const ranked = turns
      .map((turn, i) => ({ turn, value: turn.sample === question.sampleId ? score(i, best.get(i), q) : -Infinity }))
      .filter((r) => r.value > -Infinity)
      .sort((a, b) => b.value - a.value)
      .slice(0, 10);
    const top = new Set(ranked.map((r) => r.turn.dia));
    const found = question.evidence.filter((e) => top.has(e)).length;
    if (found > 0) any += 1;
    frac += found / question.evidence.length;
  });
  rows.push({ ranking: name, any10: any / asked.length, frac10: frac / asked.length });
}
printTable(
  `Dense channel alone, ${setName} conversations ${from}-${to} (${asked.length} questions), ${embedder.name}`,
  [
    ['ranking', 'ranking'],
    ['any@10', 'any10', 4],
    ['frac@10', 'frac10', 4],
  ],
  rows,
);
console.log(
  `\nembedding: ${turns.length} turns in ${turnSeconds.toFixed(0)} s, ${parts.length} sentences in ${sentenceSeconds.toFixed(0)} s`,
);
writeResult(setName === 'LoCoMo' ? 'sentence-vectors' : `sentence-vectors-${setName}`, {
  db,
  data: basename(data),
  conversations: [from, to],
  embedder: embedder.name,
  turns: turns.length,
  sentences: parts.length,
  turnSeconds,
  sentenceSeconds,
  rows,
});
await embedder.close?.();
