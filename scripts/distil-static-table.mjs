#!/usr/bin/env node
// Distils the static embedder's token table ahead of time (otherwise it happens on first use), so an
// install or a deploy step can pay the ~minute once. Needs the build (`npm run build`).
// Usage: node scripts/distil-static-table.mjs [--cache-dir DIR] [--workers N] [--force]
// Default cache directory: ~/.cache/engram. Progress goes to stderr; a JSON summary to stdout.
import { rm } from 'node:fs/promises';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    'cache-dir': { type: 'string' },
    workers: { type: 'string', default: '2' },
    force: { type: 'boolean', default: false },
  },
});

const { StaticEmbedder } = await import('../dist/embeddings/static/index.js');
let lastPhase = '';
const embedder = StaticEmbedder.create({
  ...(values['cache-dir'] ? { cacheDir: values['cache-dir'] } : {}),
  workers: Number(values.workers),
  onProgress: ({ phase, done, total }) => {
    if (phase !== lastPhase) process.stderr.write(`${lastPhase ? '\n' : ''}${phase}`);
    lastPhase = phase;
    if (phase === 'embedding') process.stderr.write(`\rembedding ${done}/${total}`);
  },
});
if (values.force) await rm(embedder.tablePath, { force: true });
const started = performance.now();
await embedder.warmUp();
const seconds = (performance.now() - started) / 1000;
await embedder.close();
process.stderr.write(lastPhase ? '\n' : 'already distilled\n');
const { size } = await import('node:fs').then((fs) => fs.statSync(embedder.tablePath));
process.stdout.write(
  `${JSON.stringify({ name: embedder.name, path: embedder.tablePath, bytes: size, seconds: Number(seconds.toFixed(1)), distilled: lastPhase !== '' })}\n`,
);
