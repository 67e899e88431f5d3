#!/usr/bin/env node
// Measures the ONNX embedders (run `npm run build` and `engram models pull <model>` first):
// sentences per second on short sentences (~33 tokens) and on 2,000-character texts, in-process
// and with worker threads, plus single-query latency.
// Usage: node scripts/bench-onnx.mjs [--models bge-small-en-v1.5,all-minilm-l6-v2] [--workers 0,2] [--short 256] [--long 32] [--batch 16]
// Prints one JSON object on stdout; progress goes to stderr. Numbers depend on how loaded the cores are.
import { homedir, loadavg } from 'node:os';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    models: { type: 'string', default: 'bge-small-en-v1.5,all-minilm-l6-v2' },
    workers: { type: 'string', default: '0,2' },
    short: { type: 'string', default: '256' },
    long: { type: 'string', default: '32' },
    batch: { type: 'string', default: '16' },
  },
});
const { OnnxEmbedder, resolveModelCacheDir, hasModelFiles } = await import('../dist/embeddings/onnx/index.js');
const cacheDir = resolveModelCacheDir(process.env, homedir());

const facts = [
  'the kitchen mug was moved to the second shelf after the cleaning crew left on Tuesday',
  'the staging database migration failed twice because of a missing index on the orders table',
  'quarterly revenue grew five percent while marketing spend stayed flat across all regions',
  'the customer prefers window seats and vegetarian meals on every long-haul flight booked',
  'the build pipeline times out when the integration tests run against the shared cluster',
];
const shortTexts = Array.from({ length: Number(values.short) }, (_, i) => `${i}: Alice noted that ${facts[i % facts.length]}.`);
const longTexts = Array.from({ length: Number(values.long) }, (_, i) => {
  let text = `${i}:`;
  for (let j = 0; text.length < 2000; j++) text += ` ${facts[(i + j) % facts.length]}.`;
  return text.slice(0, 2000);
});

async function rate(embedder, texts) {
  const start = performance.now();
  await embedder.embed(texts);
  return Math.round((texts.length / ((performance.now() - start) / 1000)) * 10) / 10;
}

const results = { cacheDir, loadAverage: loadavg().map((l) => Math.round(l * 10) / 10), batchSize: Number(values.batch), runs: {} };
for (const model of values.models.split(',')) {
  if (!hasModelFiles(cacheDir, model)) {
    process.stderr.write(`${model}: not in ${cacheDir}, skipped (engram models pull ${model})\n`);
    continue;
  }
  for (const workers of values.workers.split(',').map(Number)) {
    process.stderr.write(`${model}, ${workers} workers…\n`);
    const embedder = OnnxEmbedder.create({
      model,
      cacheDir,
      workers,
      batchSize: Number(values.batch),
      inProcessMaxTexts: workers > 0 ? 0 : 4,
    });
    const loadStart = performance.now();
    await embedder.embed(shortTexts.slice(0, Math.max(1, workers * 2)));
    const loadMs = Math.round(performance.now() - loadStart);
    const latencies = [];
    for (let i = 0; i < 10; i++) {
      const start = performance.now();
      await embedder.embed([`where did ${i} go?`], { purpose: 'query' });
      latencies.push(performance.now() - start);
    }
    latencies.sort((a, b) => a - b);
    results.runs[`${model} workers=${workers}`] = {
      loadMs,
      queryP50Ms: Math.round(latencies[5] * 10) / 10,
      shortPerSecond: await rate(embedder, shortTexts),
      longPerSecond: await rate(embedder, longTexts),
    };
    await embedder.close();
  }
}
process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
