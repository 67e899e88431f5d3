// One of several processes writing the same SQLite file at once (used by sqlite.test.ts).
// Usage: node concurrent-writer.mjs <dbPath> <workerName> <count> <dimension>
import { newRecord } from '../../dist/core/record-factory.js';
import { openSqliteStore } from '../../dist/storage/sqlite/index.js';

const [path, worker, countText, dimensionText] = process.argv.slice(2);
const count = Number(countText);
const dimension = Number(dimensionText);
const scope = 'acme/concurrent';
const start = Date.parse('2024-01-01T00:00:00Z');

const store = await openSqliteStore({ path, embedding: { name: 'contract-test:8', dimension } });
try {
  for (let i = 0; i < count; i++) {
    const embedding = new Float32Array(dimension);
    embedding[i % dimension] = 1;
    embedding[(i + 1) % dimension] = 0.5;
    const record = {
      ...newRecord({ now: start, scope, layer: 'episodic', content: `worker ${worker} wrote entry ${i}`, tags: [worker], sourceKey: `${worker}:${i}` }),
      id: `${worker}-${String(i).padStart(6, '0')}`,
    };
    await store.transaction(async (tx) => {
      const known = await tx.findBySourceKey(scope, [record.sourceKey]);
      if (known.size === 0) await tx.insertMemories([{ record, embedding }]);
    });
    if (i % 100 === 0) {
      await store.lexicalSearch({ scopes: [scope], now: start, limit: 5, terms: [{ term: 'entry' }] });
      await store.vectorSearch({ scopes: [scope], now: start, limit: 5, vector: embedding });
    }
  }
} finally {
  await store.close();
}
