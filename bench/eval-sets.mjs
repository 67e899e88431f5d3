#!/usr/bin/env node
// Validates LoCoMo-shaped evaluation sets: node bench/eval-sets.mjs [--shared] FILE...
// (--shared lists the questions that do share a content word with their evidence, and the words.)
// Checks the shape, unique dia_ids, that every evidence id names a turn, categories 1-4, and measures how many
// questions share no content word with their evidence (those need word knowledge, not keyword match).
import { readFileSync } from 'node:fs';

const STOP = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by can could did do does doing down during each few for from further had has have having he her here hers herself him himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other our ours out over own same she should so some such than that the their theirs them then there these they this those through to too under until up very was we were what when where which while who whom why will with would you your yours yourself ' +
    'did does doing get got getting go going went gone make made say said tell told thing things much many also ever still yet one two first last kind sort like lot lol ok okay yes yeah oh im ive dont cant wont thats its whats hes shes theyre gonna wanna u ur'
  ).split(/\s+/),
);

// A deliberately crude stemmer: enough to match plural/tense variants, never word knowledge.
function stem(w) {
  let s = w;
  for (const suf of ['ingly', 'edly', 'ies', 'ied', 'ing', 'ed', 'es', 'ly', 's']) {
    if (s.length > suf.length + 2 && s.endsWith(suf)) {
      s = s.slice(0, -suf.length);
      break;
    }
  }
  return s.replace(/(.)\1$/, '$1');
}
const words = (text) => (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((w) => !STOP.has(w) && w.length > 1).map(stem);

let failed = false;
const fail = (file, msg) => {
  failed = true;
  console.error(`${file}: ${msg}`);
};
const rows = [];
const verbose = process.argv.includes('--shared');
for (const file of process.argv.slice(2).filter((a) => a !== '--shared')) {
  let data;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    fail(file, `not readable JSON (${/** @type {Error} */ (e).message})`);
    continue;
  }
  if (!Array.isArray(data)) {
    fail(file, 'top level must be a list of samples');
    continue;
  }
  for (const sample of data) {
    const conv = sample.conversation ?? {};
    const id = sample.sample_id;
    if (typeof id !== 'string' || !conv.speaker_a || !conv.speaker_b)
      fail(file, `sample ${id}: needs sample_id, conversation.speaker_a and speaker_b`);
    const turns = new Map();
    let sessions = 0;
    for (let s = 1; conv[`session_${s}`] !== undefined; s += 1) {
      sessions = s;
      if (!/^\d{1,2}:\d{2} (am|pm) on \d{1,2} [A-Z][a-z]+, \d{4}$/.test(conv[`session_${s}_date_time`] ?? ''))
        fail(file, `${id} session_${s}: date_time missing or not like "1:56 pm on 8 May, 2023"`);
      for (const t of conv[`session_${s}`]) {
        if (!/^D\d+:\d+$/.test(t.dia_id) || !t.dia_id.startsWith(`D${s}:`)) fail(file, `${id}: bad dia_id ${t.dia_id} in session ${s}`);
        if (turns.has(t.dia_id)) fail(file, `${id}: dia_id ${t.dia_id} appears twice`);
        if (t.speaker !== conv.speaker_a && t.speaker !== conv.speaker_b)
          fail(file, `${id} ${t.dia_id}: speaker ${t.speaker} is neither speaker_a nor speaker_b`);
        if (typeof t.text !== 'string' || t.text.trim() === '') fail(file, `${id} ${t.dia_id}: empty text`);
        turns.set(t.dia_id, t);
      }
    }
    const names = new Set(words(`${conv.speaker_a} ${conv.speaker_b}`));
    const row = {
      file,
      sample: id,
      sessions,
      turns: turns.size,
      questions: 0,
      cat: { 1: 0, 2: 0, 3: 0, 4: 0 },
      noOverlap: 0,
      multiEvidence: 0,
      words: 0,
    };
    for (const t of turns.values()) row.words += t.text.split(/\s+/).length;
    for (const qa of sample.qa ?? []) {
      row.questions += 1;
      if (![1, 2, 3, 4].includes(qa.category)) fail(file, `${id}: question "${qa.question}" has category ${qa.category}; use 1-4`);
      else row.cat[qa.category] += 1;
      if (!qa.question || !qa.answer) fail(file, `${id}: a question needs question and answer text`);
      const ev = qa.evidence ?? [];
      if (ev.length === 0) fail(file, `${id}: "${qa.question}" has no evidence`);
      if (ev.length > 1) row.multiEvidence += 1;
      for (const e of ev) if (!turns.has(e)) fail(file, `${id}: "${qa.question}" cites ${e}, which is not a turn`);
      const qWords = new Set(words(qa.question).filter((w) => !names.has(w)));
      const evWords = new Set(ev.flatMap((e) => (turns.has(e) ? words(turns.get(e).text) : [])));
      const shared = [...qWords].filter((w) => evWords.has(w));
      if (shared.length === 0) row.noOverlap += 1;
      else if (verbose) console.log(`${id} shares [${shared.join(' ')}]: ${qa.question}`);
    }
    rows.push(row);
  }
}

const pct = (a, b) => (b ? `${Math.round((100 * a) / b)}%` : '-');
console.log(
  '| file | sample | sessions | turns | words/turn | questions | multi-hop | temporal | inference | single-hop | >1 evidence | no shared word |',
);
console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
const total = { turns: 0, questions: 0, cat: { 1: 0, 2: 0, 3: 0, 4: 0 }, noOverlap: 0, multiEvidence: 0, words: 0, sessions: 0 };
for (const r of rows) {
  console.log(
    `| ${r.file.split('/').pop()} | ${r.sample} | ${r.sessions} | ${r.turns} | ${(r.words / r.turns).toFixed(1)} | ${r.questions} | ${r.cat[1]} | ${r.cat[2]} | ${r.cat[3]} | ${r.cat[4]} | ${pct(r.multiEvidence, r.questions)} | ${pct(r.noOverlap, r.questions)} |`,
  );
  for (const k of ['turns', 'questions', 'noOverlap', 'multiEvidence', 'words', 'sessions']) total[k] += r[k];
  for (const c of [1, 2, 3, 4]) total.cat[c] += r.cat[c];
}
console.log(
  `| **all** | ${rows.length} | ${total.sessions} | ${total.turns} | ${(total.words / (total.turns || 1)).toFixed(1)} | ${total.questions} | ${total.cat[1]} | ${total.cat[2]} | ${total.cat[3]} | ${total.cat[4]} | ${pct(total.multiEvidence, total.questions)} | ${pct(total.noOverlap, total.questions)} |`,
);
if (failed) {
  console.error('validation failed');
  process.exitCode = 1;
}
