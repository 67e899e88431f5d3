#!/usr/bin/env node
// Bilingual recall: a mixed Chinese/English store (bench/data/bilingual.json, written before tuning),
// recall@10 (any@10) and MRR@10 for Chinese→Chinese, English→English and mixed queries (an English
// question about a Chinese memory, a Chinese question about an English one, code-switched text), with
//   - each model: bge-small-en-v1.5 and bge-small-zh-v1.5 (the whole recall: every channel), and the
//     lexical channel alone (hash embedder, semantic weight 0);
//   - the CJK lexical change on (this build) and off (the build of BASELINE_COMMIT, the commit before
//     it, compiled once into bench/.cache/bilingual-baseline).
//   npm run build && npm run bench:bilingual            (models: engram models pull bge-small-zh-v1.5)
// Writes bench/results/bilingual.json and .md.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CACHE_DIR, log, printTable, REPO_DIR, RESULTS_DIR, writeResult } from './lib.mjs';
import { scoreRanking } from './retrieval-metrics.mjs';

/** The commit before the CJK lexical change: its tokenisation kept a CJK run as one token. */
const BASELINE_COMMIT = '912fbdf';
const SCOPE = 'bench/bilingual';
const data = JSON.parse(readFileSync(join(REPO_DIR, 'bench', 'data', 'bilingual.json'), 'utf8'));

/** @type {Array<[string, (q: { direction: string }) => boolean]>} */
const GROUPS = [
  ['zh→zh', (q) => q.direction === 'zh-zh'],
  ['en→en', (q) => q.direction === 'en-en'],
  ['mixed', (q) => !['zh-zh', 'en-en'].includes(q.direction)],
  ['  en→zh', (q) => q.direction === 'en-zh'],
  ['  zh→en', (q) => q.direction === 'zh-en'],
  ['  code-switched', (q) => q.direction === 'mixed-mixed'],
  ['all', () => true],
];

function baselineDist() {
  const root = join(CACHE_DIR, 'bilingual-baseline');
  const entry = join(root, 'dist', 'index.js');
  if (existsSync(entry)) return entry;
  log(`building the baseline (${BASELINE_COMMIT}) into ${root}`);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const archive = execFileSync('git', ['archive', BASELINE_COMMIT, 'src', 'tsconfig.json', 'tsconfig.build.json'], {
    cwd: REPO_DIR,
    maxBuffer: 1 << 28,
  });
  execFileSync('tar', ['-x', '-C', root], { input: archive });
  execFileSync(process.execPath, [join(REPO_DIR, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.build.json')], {
    stdio: 'inherit',
  });
  return entry;
}

async function run({ dist, embedder, weights }) {
  const { Engram } = await import(pathToFileURL(dist).href);
  const dir = mkdtempSync(join(tmpdir(), 'engram-bilingual-'));
  const engram = await Engram.open({ path: join(dir, 'engram.db'), embedder });
  try {
    const ids = new Map();
    const results = await engram.remember(data.memories.map((m) => ({ scope: SCOPE, content: m.content })));
    results.forEach((r, i) => ids.set(r.id, data.memories[i].id));
    const perQuery = [];
    for (const q of data.queries) {
      const { hits } = await engram.recall(q.query, { scopes: [SCOPE], k: 10, trackAccess: false, ...(weights ? { weights } : {}) });
      perQuery.push({
        query: q,
        scores: scoreRanking(
          hits.map((h) => ids.get(h.id)),
          q.evidence,
        ),
      });
    }
    return Object.fromEntries(
      GROUPS.map(([name, keep]) => {
        const list = perQuery.filter((p) => keep(p.query));
        const mean = (key) => list.reduce((s, p) => s + p.scores[key], 0) / (list.length || 1);
        return [
          name.trim(),
          { n: list.length, recall10: Math.round(mean('any10') * 1000) / 1000, mrr10: Math.round(mean('rr10') * 1000) / 1000 },
        ];
      }),
    );
  } finally {
    await engram.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const current = join(REPO_DIR, 'dist', 'index.js');
const before = baselineDist();
const configs = [];
for (const [model, embedder] of [
  ['bge-small-en-v1.5', 'onnx:bge-small-en-v1.5'],
  ['bge-small-zh-v1.5', 'onnx:bge-small-zh-v1.5'],
  ['lexical channel alone', 'hash'],
]) {
  for (const [lexical, dist] of [
    ['CJK words (on)', current],
    ['whole runs (off)', before],
  ])
    configs.push({ model, lexical, dist, embedder, weights: embedder === 'hash' ? { semantic: 0 } : undefined });
}

const rows = [];
for (const config of configs) {
  log(`${config.model}, lexical ${config.lexical}`);
  const groups = await run(config);
  rows.push({ model: config.model, lexical: config.lexical, groups });
}

const flat = rows.flatMap((row) =>
  GROUPS.map(([name]) => ({
    model: row.model,
    lexical: row.lexical,
    queries: name,
    n: row.groups[name.trim()].n,
    recall10: row.groups[name.trim()].recall10,
    mrr10: row.groups[name.trim()].mrr10,
  })),
);
printTable(
  'Bilingual recall (bench/data/bilingual.json: 200 memories, 160 queries)',
  [
    ['model', 'model'],
    ['lexical', 'lexical'],
    ['queries', 'queries'],
    ['n', 'n', 0],
    ['recall@10', 'recall10', 3],
    ['MRR@10', 'mrr10', 3],
  ],
  flat,
);

const path = writeResult('bilingual', {
  set: 'bench/data/bilingual.json',
  memories: data.memories.length,
  queries: data.queries.length,
  baselineCommit: BASELINE_COMMIT,
  metric: 'recall@10 = any@10 (the evidence memory in the top 10); MRR@10',
  rows,
});
const md = [
  '# Bilingual recall',
  '',
  `\`npm run bench:bilingual\` on bench/data/bilingual.json (${data.memories.length} memories, ${data.queries.length} queries). "off" is the build of ${BASELINE_COMMIT} (CJK runs were single tokens).`,
  '',
  '| model | lexical | ' + GROUPS.map(([n]) => n.trim()).join(' | ') + ' |',
  '|---|---|' + GROUPS.map(() => '---|').join(''),
  ...rows.map(
    (row) =>
      `| ${row.model} | ${row.lexical} | ` +
      GROUPS.map(([n]) => `${row.groups[n.trim()].recall10.toFixed(3)} / ${row.groups[n.trim()].mrr10.toFixed(3)}`).join(' | ') +
      ' |',
  ),
  '',
  'Each cell: recall@10 / MRR@10. Query counts: ' + GROUPS.map(([n]) => `${n.trim()} ${rows[0].groups[n.trim()].n}`).join(', ') + '.',
  '',
];
writeFileSync(join(RESULTS_DIR, 'bilingual.md'), md.join('\n'));
log(`wrote ${path} and bilingual.md`);
