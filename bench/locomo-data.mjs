// LoCoMo-shaped data as the benchmarks ingest and ask it (protocol: ../shared/datasets/locomo/README.md):
// one scope per conversation, one memory per turn (speaker + text, image caption appended), occurredAt =
// the session's date; questions of categories 1-4 with their evidence turn ids normalised.
// `plain: true` is the "plain ingest": {scope, content, occurredAt} per turn and nothing else.

export const CATEGORIES = [1, 2, 3, 4];

/**
 * @param {any[]} data samples of a LoCoMo-shaped file
 * @param {{ plain?: boolean }} [options]
 */
export function prepareLocomo(data, options = {}) {
  const dropped = [];
  const lastDateOf = new Map();
  const { turnsBySample, questions } = prepare(data, options.plain === true, dropped, lastDateOf);
  return { turnsBySample, questions, dropped, lastDateOf };
}

function prepare(data, plain, dropped, lastDateOf) {
  const turnsBySample = new Map();
  const questions = [];
  data.forEach((sample, index) => {
    const conv = sample.conversation;
    const known = new Set();
    const turns = [];
    for (let s = 1; conv[`session_${s}`] !== undefined; s += 1) {
      const when = parseSessionDate(conv[`session_${s}_date_time`]);
      for (const turn of conv[`session_${s}`]) {
        known.add(turn.dia_id);
        const caption = turn.blip_caption ? ` [shares a photo: ${turn.blip_caption}]` : '';
        turns.push({
          dia: turn.dia_id,
          input: plain
            ? { scope: scopeOf(sample.sample_id), content: `${turn.speaker}: ${turn.text}${caption}`, occurredAt: when }
            : {
                scope: scopeOf(sample.sample_id),
                content: `${turn.speaker}: ${turn.text}${caption}`,
                occurredAt: when,
                source: { conversationId: sample.sample_id, messageId: turn.dia_id },
                context: { sessionId: `${sample.sample_id}/session_${s}` },
                perception: { people: [turn.speaker] },
              },
        });
      }
    }
    turnsBySample.set(sample.sample_id, turns);
    lastDateOf.set(
      sample.sample_id,
      turns.reduce((max, t) => (t.input.occurredAt && t.input.occurredAt > max ? t.input.occurredAt : max), ''),
    );
    for (const qa of sample.qa) {
      if (!CATEGORIES.includes(qa.category)) continue;
      const evidence = [];
      for (const raw of qa.evidence ?? []) {
        for (const part of String(raw).split(/[;,]/)) {
          const id = normalizeDia(part.trim());
          if (id && known.has(id)) evidence.push(id);
          else if (part.trim()) dropped.push({ sample: sample.sample_id, evidence: part.trim() });
        }
      }
      if (evidence.length === 0) {
        dropped.push({ sample: sample.sample_id, question: qa.question, reason: 'no usable evidence' });
        continue;
      }
      questions.push({
        sampleId: sample.sample_id,
        conversation: index + 1,
        category: qa.category,
        question: qa.question,
        evidence: [...new Set(evidence)],
      });
    }
  });
  return { turnsBySample, questions };
}

function normalizeDia(text) {
  const m = /^D:?(\d+):0*(\d+)$/.exec(text.replace(/\s+/g, ''));
  return m ? `D${Number(m[1])}:${Number(m[2])}` : null;
}

function parseSessionDate(text) {
  const m = /(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+(\w+),?\s+(\d{4})/i.exec(text ?? '');
  if (!m) return undefined;
  const months = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
  let hour = Number(m[1]) % 12;
  if (m[3].toLowerCase() === 'pm') hour += 12;
  const month = months.indexOf(m[5].toLowerCase());
  return new Date(Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2]))).toISOString();
}

export function scopeOf(sampleId) {
  return `locomo/${sampleId.replace(/[^A-Za-z0-9_-]/g, '-')}`;
}
