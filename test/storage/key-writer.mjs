// One of several processes creating API keys in the same store at once (used by api-keys-concurrency.test.ts).
// Usage: node key-writer.mjs <sqlite path | postgres URL> <count> <go file>
// Opens the store, prints "ready", waits until <go file> exists (so every writer starts together), then
// creates <count> keys and prints each as a JSON line.
import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiKeys } from '../../dist/interfaces/http/index.js';
import { isPostgresUrl, openPostgresStore } from '../../dist/storage/postgres/index.js';
import { openSqliteStore } from '../../dist/storage/sqlite/index.js';

const [target, countText, goFile] = process.argv.slice(2);
const count = Number(countText);
const embedding = { name: 'contract-test:8', dimension: 8 };
const store = isPostgresUrl(target) ? await openPostgresStore({ url: target, embedding, poolSize: 2 }) : await openSqliteStore({ path: target, embedding });
try {
  process.stdout.write('ready\n');
  for (let waited = 0; !existsSync(goFile); waited += 5) {
    if (waited > 60_000) throw new Error(`no go signal at ${goFile} within 60 s`);
    await sleep(5);
  }
  const keys = new ApiKeys(store);
  for (let i = 0; i < count; i++) {
    const created = await keys.create({ tenant: 'acme', label: `${process.pid}-${i}` });
    process.stdout.write(`${JSON.stringify({ id: created.id, key: created.key })}\n`);
  }
} finally {
  await store.close();
}
