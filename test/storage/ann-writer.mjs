// A process that writes clustered vectors into one scope of an HNSW-indexed store, searching after
// every batch so that index builds run meanwhile (used by sqlite-ann.test.ts, which may SIGKILL it).
// Usage: node ann-writer.mjs <dbPath> <scope> <from> <count> <batch> <threshold>
// Prints "committed <n>" after each committed batch (n = rows of this run committed so far).
import { openSqliteStore } from '../../dist/storage/sqlite/index.js';
import { ANN_TEST_DIMENSION, annTestRecord, annTestVector } from './ann-vectors.mjs';

const [path, scope, fromText, countText, batchText, thresholdText] = process.argv.slice(2);
const from = Number(fromText);
const count = Number(countText);
const batch = Number(batchText);

const store = await openSqliteStore({
  path,
  embedding: { name: 'ann-test', dimension: ANN_TEST_DIMENSION },
  memoryIndexThreshold: Number(thresholdText),
  memoryIndexWarmup: 0,
  vectorIndex: 'hnsw',
  logger: { info: () => {}, warn: (message) => process.stderr.write(`${message}\n`) },
});
try {
  for (let start = from; start < from + count; start += batch) {
    const end = Math.min(from + count, start + batch);
    const rows = [];
    for (let i = start; i < end; i++) rows.push({ record: annTestRecord(scope, i), embedding: annTestVector(i) });
    await store.transaction((tx) => tx.insertMemories(rows));
    process.stdout.write(`committed ${end - from}\n`);
    await store.vectorSearch({ scopes: [scope], now: Date.now(), limit: 5, vector: annTestVector(start) });
  }
} finally {
  await store.close();
}
