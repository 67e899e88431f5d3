// A new process that opens a store and runs lexical searches (used by sqlite-lexical-file.test.ts).
// Usage: node lexical-reader.mjs <dbPath> <queries as JSON>; prints { usage, results } as JSON.
import { openSqliteStore } from '../../dist/storage/sqlite/index.js';

const [path, queriesText] = process.argv.slice(2);
const store = await openSqliteStore({
  path,
  embedding: { name: 'contract-test:8', dimension: 8 },
  lexicalIndexThreshold: 0,
  logger: { info: () => {}, warn: (message) => process.stderr.write(`${message}\n`) },
});
try {
  const results = [];
  for (const query of JSON.parse(queriesText)) results.push(await store.lexicalSearch(query));
  process.stdout.write(JSON.stringify({ usage: store.lexicalIndexUsage, results }));
} finally {
  await store.close();
}
