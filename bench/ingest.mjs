#!/usr/bin/env node
// Ingest throughput: `npm run bench:ingest [-- --sizes 10000,100000 --count 2000]`.
//
// `engram.remember` in batches of 64 texts of ~150 characters into a database that already holds 10k or
// 100k memories (a copy of the cached recall corpus, bench/corpus-db.mjs), with the full model
// in-process, with 2 worker threads (one batch at a time, and two batches in flight), and with the static
// embedder. Each (size, mode) runs in a child process so RSS is its own. Then the same texts are pushed
// through each stage alone (validation + signals + record, embedding, store transaction) to show where
// the time goes.
//
// As in bench/recall.mjs, a corpus whose vectors come from another embedder of the same 512-d space is
// opened under its recorded name and given to `new EngramCore({ store, embedder })`.
import { spawn } from 'node:child_process';
import { copyFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { MAIN_SCOPE, assertBuilt, ensureCorpus } from './corpus-db.mjs';
import { CACHE_DIR, REPO_DIR, fileBytes, log, mb, memoryAt, parseSizes, peakRss, percentiles, printTable, since, writeResult } from './lib.mjs';

const INGEST_SEED = 31_337;
const TARGETS = { use: 100, static: 3000 };
const MODES = {
  use0: { label: 'USE in-process', embedder: 'use', workers: 0, inFlight: 1 },
  use2: { label: 'USE 2 workers', embedder: 'use', workers: 2, inFlight: 1 },
  use2x2: { label: 'USE 2 workers, 2 in flight', embedder: 'use', workers: 2, inFlight: 2 },
  static: { label: 'static', embedder: 'static', workers: 0, inFlight: 1 },
};

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,100000' },
    // texts per run; default 2000 with the full model, 20000 with the static embedder
    count: { type: 'string' },
    batch: { type: 'string', default: '64' },
    modes: { type: 'string', default: 'use0,use2,use2x2,static' },
    'use-corpus-max': { type: 'string', default: '10000' },
    case: { type: 'string' },
  },
});

if (args.case !== undefined) {
  const result = await measureCase(JSON.parse(args.case));
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
} else {
  await main();
}

async function main() {
  assertBuilt();
  const sizes = parseSizes(args.sizes);
  const modes = args.modes.split(',');
  for (const mode of modes) if (MODES[mode] === undefined) throw new Error(`unknown mode ${mode}: use ${Object.keys(MODES).join(', ')}`);
  const batch = Number(args.batch);
  const cases = [];
  for (const size of sizes) {
    const corpus = await ensureCorpus({ size, vectorSource: size <= Number(args['use-corpus-max']) ? 'use' : 'static' });
    for (const mode of modes) {
      const count = args.count !== undefined ? Number(args.count) : MODES[mode].embedder === 'static' ? 20_000 : 2000;
      log(`case: ${size} memories, ${MODES[mode].label}, ${count} texts`);
      cases.push(await runChild({ size, mode, corpus, count, batch }));
    }
  }
  report(cases);
}

function runChild(spec) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--case', JSON.stringify(spec)], {
      cwd: REPO_DIR,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`case ${spec.size}/${spec.mode} exited with ${code}`));
      resolve(JSON.parse(out.trim().split('\n').pop()));
    });
  });
}

function batches(list, size) {
  const out = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

async function measureCase({ size, mode, corpus, count, batch }) {
  const dist = (path) => new URL(`../dist/${path}`, import.meta.url).href;
  const { Engram, EngramCore } = await import(dist('index.js'));
  const { openSqliteStore } = await import(dist('storage/sqlite/index.js'));
  const { parseInput, rememberInputSchema } = await import(dist('core/schemas.js'));
  const { deriveSignals, embeddingText } = await import(dist('core/write/remember.js'));
  const { buildRecord } = await import(dist('core/write/new-record.js'));
  const spec = MODES[mode];
  const path = join(CACHE_DIR, `ingest-${process.pid}.db`);
  copyFileSync(corpus.path, path);
  const rss = peakRss();
  try {
    let start = performance.now();
    const embedder = spec.embedder === 'use'
      ? (await import(dist('embeddings/use/index.js'))).UseEmbedder.create({ workers: spec.workers })
      : (await import(dist('embeddings/static/index.js'))).StaticEmbedder.create();
    await embedder.warmUp();
    const loadMs = since(start);
    const sameSpace = embedder.name === corpus.manifest.embedderName;
    const engram = sameSpace
      ? await Engram.open({ path, embedder })
      : new EngramCore({ store: await openSqliteStore({ path, embedding: { name: corpus.manifest.embedderName, dimension: embedder.dimension } }), embedder });
    const { store } = engram;

    const input = (i) => {
      const memory = memoryAt(INGEST_SEED, i);
      return { scope: MAIN_SCOPE, content: memory.content, layer: memory.layer, tags: memory.tags };
    };
    const warm = batches(Array.from({ length: 2 * batch }, (_, i) => input(count + i)), batch);
    for (const group of warm) await engram.remember(group);
    const groups = batches(Array.from({ length: count }, (_, i) => input(i)), batch);
    const chars = groups.flat().reduce((n, item) => n + item.content.length, 0);

    // remember, end to end; with inFlight 2 the next call starts while the previous one is running
    const latencies = [];
    start = performance.now();
    const running = new Set();
    for (const group of groups) {
      const t = performance.now();
      const call = engram.remember(group).then(() => {
        latencies.push(since(t));
        running.delete(call);
      });
      running.add(call);
      if (running.size >= spec.inFlight) await Promise.race(running);
      rss.sample();
    }
    await Promise.all(running);
    const rememberMs = since(start);
    const rememberRssMb = rss.peakMb();

    // the same texts through each stage alone
    const stage = { prepare: [], embed: [], store: [] };
    const prepared = [];
    for (const group of groups) {
      const t = performance.now();
      const records = group.map((item) => {
        const parsed = parseInput(rememberInputSchema, item, 'memory');
        return buildRecord(parsed, deriveSignals(parsed), Date.now());
      });
      stage.prepare.push(since(t));
      prepared.push(records);
    }
    const vectors = [];
    for (const records of prepared) {
      const t = performance.now();
      vectors.push(await embedder.embed(records.map(embeddingText)));
      stage.embed.push(since(t));
    }
    for (const [index, records] of prepared.entries()) {
      const memories = records.map((record, i) => ({ record, embedding: vectors[index][i] }));
      const t = performance.now();
      await store.transaction((tx) => tx.insertMemories(memories));
      stage.store.push(since(t));
    }
    const total = (list) => list.reduce((a, b) => a + b, 0);
    const stats = await store.stats([MAIN_SCOPE]);
    await engram.close();
    return {
      size,
      mode,
      label: spec.label,
      embedder: embedder.name,
      workers: spec.workers,
      inFlight: spec.inFlight,
      corpusEmbedder: corpus.manifest.embedderName,
      trick: sameSpace ? null : 'store opened under the corpus embedder name; texts embedded by another embedder of the same space',
      count,
      batch,
      meanChars: chars / count,
      loadMs,
      rememberMs,
      perSecond: (count / rememberMs) * 1000,
      batchMs: percentiles(latencies),
      stagesMs: { prepare: total(stage.prepare), embed: total(stage.embed), store: total(stage.store) },
      stageBatchMs: { prepare: percentiles(stage.prepare), embed: percentiles(stage.embed), store: percentiles(stage.store) },
      finalRecords: stats.total,
      fileMbAfter: mb(fileBytes(path)),
      rememberPeakRssMb: rememberRssMb,
      peakRssMb: rss.stop(),
    };
  } finally {
    for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
  }
}

function report(cases) {
  printTable(`ingest: engram.remember, batches of ${cases[0]?.batch} texts (~${Math.round(cases[0]?.meanChars ?? 0)} chars), into a database already holding N memories`, [
    ['memories', 'size', 0], ['mode', 'label'], ['texts', 'count', 0], ['memories/s', 'rate', 0],
    ['batch p50 ms', 'p50'], ['p95', 'p95'], ['p99', 'p99'], ['peak RSS MB', 'rss', 0], ['model load ms', 'load', 0], ['target', 'target'],
  ], cases.map((c) => ({
    size: c.size, label: c.label, count: c.count, rate: c.perSecond,
    p50: c.batchMs.p50, p95: c.batchMs.p95, p99: c.batchMs.p99, rss: c.rememberPeakRssMb, load: c.loadMs,
    target: `${c.perSecond >= TARGETS[c.embedder.startsWith('use') ? 'use' : 'static'] ? 'met' : 'MISSED'} (≥ ${TARGETS[c.embedder.startsWith('use') ? 'use' : 'static']}/s)`,
  })));

  printTable('where the time goes: the same texts through each stage alone, ms per batch (share of the stages\' sum)', [
    ['memories', 'size', 0], ['mode', 'label'], ['remember/batch', 'rb', 1],
    ['validate+signals+record', 'prep', 2], ['%', 'prepPct', 0],
    ['embed', 'emb', 2], ['%', 'embPct', 0], ['store tx', 'st', 2], ['%', 'stPct', 0],
    ['embed alone /s', 'embRate', 0], ['store alone /s', 'stRate', 0],
  ], cases.map((c) => {
    const n = c.count / c.batch;
    const sum = c.stagesMs.prepare + c.stagesMs.embed + c.stagesMs.store;
    return {
      size: c.size, label: c.label, rb: c.rememberMs / n,
      prep: c.stagesMs.prepare / n, prepPct: (100 * c.stagesMs.prepare) / sum,
      emb: c.stagesMs.embed / n, embPct: (100 * c.stagesMs.embed) / sum,
      st: c.stagesMs.store / n, stPct: (100 * c.stagesMs.store) / sum,
      embRate: (c.count / c.stagesMs.embed) * 1000, stRate: (c.count / c.stagesMs.store) * 1000,
    };
  }));
  if (cases.some((c) => c.trick !== null)) {
    process.stdout.write('\nnote: where the embedder differs from the one that made the corpus vectors, the store was opened under the\n' +
      '      corpus embedder\'s name and EngramCore was given the measured embedder (same 512-d USE space).\n');
  }
  const path = writeResult('ingest', {
    options: { sizes: args.sizes, count: args.count ?? null, batch: Number(args.batch), modes: args.modes },
    targets: { useMemoriesPerSecond: TARGETS.use, staticMemoriesPerSecond: TARGETS.static },
    cases,
  });
  log(`wrote ${path}`);
}
