#!/usr/bin/env node
// Compares two per-question top-10 dumps of bench/locomo.mjs --dump (`{"method/sample/index": [ids]}`):
//   node bench/diff-top10.mjs A.json B.json [--show N] [--summary OUT.json] [--by-content A.db B.db]
// prints how many questions differ (in order or membership) per method and overall, and the first N
// differences; exits 1 when any question differs or the two files hold different questions.
// --summary writes the counts and a sha256 of each dump (keys sorted), small enough to commit where
// the dumps (~1.6 MB each) are not.
// --by-content compares two separate ingests (record ids are random, so they differ): each id becomes
// its record's scope, layer and content, read from the dump's database.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';

const [fileA, fileB, ...rest] = process.argv.slice(2);
if (fileA === undefined || fileB === undefined) {
  console.error('usage: node bench/diff-top10.mjs A.json B.json [--show N]');
  process.exit(2);
}
const option = (name) => {
  const i = rest.indexOf(name);
  return i === -1 ? undefined : rest[i + 1];
};
const show = Number(option('--show') ?? 5);
const summaryFile = option('--summary');
const byContent = rest.indexOf('--by-content');
/** The dump with each id replaced by its record's scope, layer and content in `db`. */
async function contentKeyed(dump, db) {
  const Database = (await import('better-sqlite3')).default;
  const connection = new Database(db, { readonly: true });
  const keyOf = new Map(
    connection
      .prepare('SELECT id, scope, layer, content FROM memories')
      .all()
      .map((/** @type {any} */ r) => [r.id, `${r.scope} ${r.layer} ${r.content}`]),
  );
  connection.close();
  return Object.fromEntries(Object.entries(dump).map(([k, ids]) => [k, ids.map((id) => keyOf.get(id) ?? `missing ${id}`)]));
}
let a = JSON.parse(readFileSync(fileA, 'utf8'));
let b = JSON.parse(readFileSync(fileB, 'utf8'));
if (byContent !== -1) {
  a = await contentKeyed(a, rest[byContent + 1]);
  b = await contentKeyed(b, rest[byContent + 2]);
}
const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
const perMethod = new Map();
const examples = [];
let differ = 0;
let missing = 0;
let sameSet = 0;
for (const key of keys) {
  const method = key.split('/')[0];
  const stats = perMethod.get(method) ?? { questions: 0, differ: 0 };
  perMethod.set(method, stats);
  stats.questions += 1;
  const x = a[key];
  const y = b[key];
  if (!Array.isArray(x) || !Array.isArray(y)) {
    missing += 1;
    stats.differ += 1;
    differ += 1;
    if (examples.length < show) examples.push(`${key}: only in ${Array.isArray(x) ? fileA : fileB}`);
    continue;
  }
  if (x.length === y.length && x.every((id, i) => id === y[i])) continue;
  differ += 1;
  stats.differ += 1;
  const setX = new Set(x);
  if (x.length === y.length && y.every((id) => setX.has(id))) sameSet += 1;
  if (examples.length < show) examples.push(`${key}:\n  A ${x.join(' ')}\n  B ${y.join(' ')}`);
}
for (const [method, stats] of perMethod) console.log(`${method}: ${stats.differ} of ${stats.questions} questions differ`);
console.log(`total: ${differ} of ${keys.length} questions differ (${sameSet} only in order, ${missing} missing from one file)`);
for (const line of examples) console.log(line);
if (summaryFile !== undefined) {
  const digest = (dump) =>
    createHash('sha256')
      .update(
        JSON.stringify(
          Object.keys(dump)
            .sort()
            .map((k) => [k, dump[k]]),
        ),
      )
      .digest('hex');
  const summary = {
    a: { file: fileA, sha256: digest(a), questions: Object.keys(a).length },
    b: { file: fileB, sha256: digest(b), questions: Object.keys(b).length },
    perMethod: Object.fromEntries(perMethod),
    differ,
    onlyOrder: sameSet,
    missing,
  };
  writeFileSync(summaryFile, `${JSON.stringify(summary, null, 2)}\n`);
}
process.exit(differ === 0 ? 0 : 1);
