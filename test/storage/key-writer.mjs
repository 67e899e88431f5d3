// One of several processes creating API keys in the same store at once (used by api-keys-concurrency.test.ts).
// Usage: node key-writer.mjs <sqlite path | postgres URL> <count>; prints the created keys as JSON lines.
import { ApiKeys } from '../../dist/core/api-keys.js';
import { isPostgresUrl, openPostgresStore } from '../../dist/storage/postgres/index.js';
import { openSqliteStore } from '../../dist/storage/sqlite/index.js';

const [target, countText] = process.argv.slice(2);
const count = Number(countText);
const embedding = { name: 'contract-test:8', dimension: 8 };
const store = isPostgresUrl(target) ? await openPostgresStore({ url: target, embedding, poolSize: 2 }) : await openSqliteStore({ path: target, embedding });
try {
  const keys = new ApiKeys(store);
  for (let i = 0; i < count; i++) {
    const created = await keys.create({ tenant: 'acme', label: `${process.pid}-${i}` });
    process.stdout.write(`${JSON.stringify({ id: created.id, key: created.key })}\n`);
  }
} finally {
  await store.close();
}
