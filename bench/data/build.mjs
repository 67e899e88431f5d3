#!/usr/bin/env node
// Assembles the hand-written evaluation conversations (src/*.txt) into LoCoMo-shaped JSON.
// Source format, one line each:
//   === sample_id | Speaker A | Speaker B      starts a conversation (speakers are addressed by first letter)
//   --- 2023-05-08 13:56                       starts a session at that date and time
//   @X text  or  @X #tag text                  a turn by the speaker whose name starts with X; #tag names it for evidence
//                                              (X is one character followed by a space, so `@app.task` in code is text)
//   (any other line)                           continues the previous turn (multi-paragraph messages, code)
//   ? question | answer | tag,tag | category   a question; evidence is given by tag so turn numbers can change freely
// Usage: node bench/data/build.mjs  (writes burst-chat.json and tech-chat.json next to this file)
import { readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

function dateText(iso) {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{1,2}):(\d{2})$/.exec(iso.trim());
  if (!m) throw new Error(`bad session date "${iso}": write it as YYYY-MM-DD HH:MM`);
  const hour = Number(m[4]);
  const h12 = hour % 12 === 0 ? 12 : hour % 12;
  return `${h12}:${m[5]} ${hour < 12 ? 'am' : 'pm'} on ${Number(m[3])} ${MONTHS[Number(m[2]) - 1]}, ${m[1]}`;
}

function parse(text, file) {
  const samples = [];
  let sample, session, turn, speakers, tags, pendingQa;
  const finish = () => {
    if (!sample) return;
    sample.qa = pendingQa.map(({ question, answer, refs, category, line }) => {
      const evidence = refs.map((r) => {
        if (!tags.has(r)) throw new Error(`${file}:${line}: unknown evidence tag #${r}`);
        return tags.get(r);
      });
      return { question, answer, evidence, category };
    });
    samples.push(sample);
  };
  text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/\s+$/, '');
    const at = i + 1;
    if (line.startsWith('=== ')) {
      finish();
      const [id, a, b] = line.slice(4).split('|').map((s) => s.trim());
      speakers = new Map([[a[0], a], [b[0], b]]);
      tags = new Map();
      pendingQa = [];
      sample = { sample_id: id, conversation: { speaker_a: a, speaker_b: b }, qa: [] };
      session = 0;
      turn = undefined;
    } else if (line.startsWith('--- ')) {
      session += 1;
      sample.conversation[`session_${session}_date_time`] = dateText(line.slice(4));
      sample.conversation[`session_${session}`] = [];
      turn = undefined;
    } else if (/^@(\S)(?:\s+#(\S+))?\s(.*)$/.test(line) && speakers?.has(line[1])) {
      // Lines such as Python decorators (@app.task) do not match and continue the turn.
      const m = /** @type {RegExpExecArray} */ (/^@(\S)(?:\s+#(\S+))?\s(.*)$/.exec(line));
      const list = sample.conversation[`session_${session}`];
      turn = { speaker: speakers.get(m[1]), dia_id: `D${session}:${list.length + 1}`, text: m[3] };
      list.push(turn);
      if (m[2]) {
        if (tags.has(m[2])) throw new Error(`${file}:${at}: tag #${m[2]} used twice`);
        tags.set(m[2], turn.dia_id);
      }
    } else if (line.startsWith('? ')) {
      const parts = line.slice(2).split('|').map((s) => s.trim());
      if (parts.length !== 4) throw new Error(`${file}:${at}: a question needs question | answer | tags | category`);
      pendingQa.push({ question: parts[0], answer: parts[1], refs: parts[2].split(',').map((s) => s.trim().replace(/^#/, '')).filter(Boolean), category: Number(parts[3]), line: at });
      turn = undefined;
    } else if (turn) {
      turn.text += `\n${line}`;
    } else if (line.trim() !== '' && !line.startsWith('//')) {
      throw new Error(`${file}:${at}: text outside a turn`);
    }
  });
  finish();
  for (const s of samples) for (const v of Object.values(s.conversation)) if (Array.isArray(v)) for (const t of v) t.text = t.text.trim();
  return samples;
}

for (const set of ['burst', 'tech']) {
  const files = readdirSync(join(here, 'src')).filter((f) => f.startsWith(`${set}-`) && f.endsWith('.txt')).sort();
  const samples = files.flatMap((f) => parse(readFileSync(join(here, 'src', f), 'utf8'), f));
  writeFileSync(join(here, `${set}-chat.json`), `${JSON.stringify(samples, null, 1)}\n`);
  console.log(`${set}-chat.json: ${samples.length} conversations, ${samples.reduce((n, s) => n + s.qa.length, 0)} questions`);
}
