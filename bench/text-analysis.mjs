#!/usr/bin/env node
// The write path's text analysis, per call: `npm run bench:text [-- --calls 5000]`.
//
// Times each analysis every write runs (entities, dates, emotion, the claim, redaction) on realistic
// texts, then on inputs built to make a pattern backtrack (long runs of one character, repeated
// assignments, words without an end) at 1k, 4k and 16k characters, with each size's cost over the
// previous one: a pattern that backtracks shows a ratio near 16 for 4× the text, a linear one near 4.
// These were timed unit tests; a loaded machine made them fail, so they are measured here instead.
// Writes bench/results/text-analysis.json.
import { parseArgs } from 'node:util';
import { log, printTable, writeResult } from './lib.mjs';

const { values: args } = parseArgs({ options: { calls: { type: 'string', default: '5000' } } });
const calls = Number(args.calls);
if (!Number.isInteger(calls) || calls < 10) throw new Error('--calls takes a whole number ≥ 10');

const dist = new URL('../dist/core/', import.meta.url);
const { extractEntities, parseTemporalExpression } = await import(new URL('text/index.js', dist).href);
const { analyzeEmotion } = await import(new URL('write/salience/emotion.js', dist).href);
const { extractClaim } = await import(new URL('write/claims/index.js', dist).href);
const { createRedactor } = await import(new URL('redact/index.js', dist).href);

const REFERENCE = Date.UTC(2024, 2, 15, 23, 30);
const redactor = createRedactor();
const ANALYSES = {
  entities: (text) => extractEntities(text),
  dates: (text) => parseTemporalExpression(text, REFERENCE),
  emotion: (text) => analyzeEmotion(text),
  claim: (text) => extractClaim(text),
  redaction: (text) => redactor.redact(text),
};

const REALISTIC = [
  'The deploy target moved from staging to production after the incident; ping @devops or email ops@acme.com right away.',
  'Caroline went to the LGBTQ support group meeting last Friday and said it was powerful; Melanie painted Lake Tahoe.',
  'what did we do last May?',
  'tell me about the deploy pipeline',
  'two weeks before 8 May 2023',
  'I live in Lisbon, work as a nurse and drive a Tesla.',
  'Set DATABASE_URL=postgres://app:s3cret@db.internal:5432/app before you run the migration.',
  "I'm so frustrated, the build failed again and I lost the whole afternoon.",
];

/** Microseconds per call of `fn` over `texts`, after a warm-up. */
function perCall(fn, texts, count) {
  for (let i = 0; i < Math.min(count, 200); i++) fn(texts[i % texts.length]);
  const started = performance.now();
  for (let i = 0; i < count; i++) fn(texts[i % texts.length]);
  return ((performance.now() - started) / count) * 1000;
}

const realistic = Object.entries(ANALYSES).map(([analysis, fn]) => ({ analysis, usPerCall: perCall(fn, REALISTIC, calls) }));
printTable(
  `text analysis on ${REALISTIC.length} realistic texts, ${calls} calls each`,
  [
    ['analysis', 'analysis'],
    ['µs per call', 'usPerCall', 1],
  ],
  realistic,
);

/** Inputs of `size` characters made to make a regular expression try many ways of matching. */
const ADVERSARIAL = {
  spaces: (size) => `a${' '.repeat(size - 2)}b`,
  assignments: (size) => 'a='.repeat(size / 2),
  'one long word': (size) => 'x'.repeat(size),
  'password words': (size) => 'password '.repeat(Math.ceil(size / 9)).slice(0, size),
  digits: (size) => '9'.repeat(size),
  'and-joined': (size) => 'I live in Lisbon'.concat(' and work'.repeat(Math.ceil(size / 9))).slice(0, size),
  colons: (size) => ':'.repeat(size),
  'at signs': (size) => `https://${'a@'.repeat(size / 2)}`,
  'capitalised words': (size) => 'Alpha Beta '.repeat(Math.ceil(size / 11)).slice(0, size),
  hashtags: (size) => '#tag '.repeat(Math.ceil(size / 5)).slice(0, size),
  'yesterday ×n': (size) => 'yesterday '.repeat(Math.ceil(size / 10)).slice(0, size),
  'sk- ×n': (size) => 'sk-'.concat('abcdefghij'.repeat(Math.ceil(size / 10))).slice(0, size),
  '"and is" ×n': (size) => 'The deploy target is staging '.concat('and is '.repeat(Math.ceil(size / 7))).slice(0, size),
};
const SIZES = [1000, 4000, 16000];
const growth = [];
for (const [input, make] of Object.entries(ADVERSARIAL)) {
  for (const [analysis, fn] of Object.entries(ANALYSES)) {
    const row = { input, analysis };
    let previous;
    for (const size of SIZES) {
      const text = make(size);
      const runs = Math.max(3, Math.round(200_000 / size));
      const ms = perCall(fn, [text], runs) / 1000;
      row[`ms${size}`] = ms;
      if (previous !== undefined) row[`ratio${size}`] = ms / previous;
      previous = ms;
    }
    growth.push(row);
  }
  log(`${input}: done`);
}
printTable(
  'adversarial inputs: ms per call at each size, and the cost ratio to the size before (4× the text)',
  [
    ['input', 'input'],
    ['analysis', 'analysis'],
    ['1k ms', 'ms1000', 3],
    ['4k ms', 'ms4000', 3],
    ['16k ms', 'ms16000', 3],
    ['4k/1k', 'ratio4000', 1],
    ['16k/4k', 'ratio16000', 1],
  ],
  growth,
);
const worst = growth.reduce((max, row) => (row.ms16000 > max.ms16000 ? row : max), growth[0]);
console.log(`\nslowest at 16k characters: ${worst.analysis} on "${worst.input}", ${worst.ms16000.toFixed(2)} ms`);
const path = writeResult('text-analysis', { calls, realistic, growth });
console.log(`wrote ${path}`);
