// Precision@1 of the whole engine (every channel, as `recall` ranks) on the relevance set of
// test/core/relevance.test.ts, for any embedder: `node bench/relevance-engine.mjs --embedder e5-small-v2`.
// The test guards the default model's figure; this compares models without a test timeout. It asks
// twice: right after the writes, and after `processJobs` (concepts and part vectors made, as the
// background worker of a live store makes them).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Engram } from '../dist/index.js';
import { defaultModelName } from './lib.mjs';
import { loadRelevanceSet } from './relevance-set.mjs';

const { values: args } = parseArgs({ options: { embedder: { type: 'string', default: await defaultModelName() } } });
const { targets, queries, distractors } = await loadRelevanceSet();
const dir = mkdtempSync(join(tmpdir(), 'engram-relevance-'));
const engram = await Engram.open({
  path: join(dir, 'engram.db'),
  embedder: /** @type {import('../dist/index.js').EmbedderChoice} */ (args.embedder),
  workers: 2,
});
try {
  const scope = 'eval/relevance';
  const written = /** @type {import('../dist/index.js').RememberResult[]} */ (
    /** @type {unknown} */ (
      await engram.remember(targets.map((t) => ({ scope, content: t.content, layer: /** @type {const} */ ('semantic') })))
    )
  );
  const idByKey = new Map(written.map((r, i) => [targets[i].key, r.id]));
  for (let i = 0; i < distractors.length; i += 250)
    await engram.remember(distractors.slice(i, i + 250).map((content) => ({ scope, content, layer: /** @type {const} */ ('semantic') })));
  const ask = async (when) => {
    let correct = 0;
    for (const q of queries) {
      const { hits } = await engram.recall(q.query, { scopes: [scope], k: 5, trackAccess: false });
      if (hits[0]?.id === idByKey.get(q.expectedKey)) correct += 1;
    }
    console.log(
      `relevance (${engram.embedder.name}, ${when}): precision@1 = ${(correct / queries.length).toFixed(3)} (${correct}/${queries.length})`,
    );
  };
  await ask('as written');
  const drained = await engram.processJobs({ scopes: [scope] });
  console.log(`processJobs: ${drained.jobs} jobs, part vectors of ${drained.partVectors} records`);
  await ask('after processJobs');
} finally {
  await engram.close();
  rmSync(dir, { recursive: true, force: true });
}
