/**
 * Redaction of whole values: a remember input before it is planned and embedded, a stored record
 * before `redact` rewrites it. Every string inside is redacted (content, summary, tags, entities, the
 * episode fields, properties, action args, sources, history wordings), except the fields that name
 * where a record lives or what it is (`scope`, `layer`, ids).
 */
import type { MemoryRecord } from '../memory.js';
import type { ParsedRememberInput } from '../schemas.js';
import type { Redactor } from './redactor.js';

/** Keys whose strings are never rewritten: they address records, they do not quote anyone. */
const ADDRESS_KEYS = new Set(['scope', 'layer', 'id', 'parentId', 'derivedFrom', 'kind', 'status']);

interface Tally {
  count: number;
  kinds: Record<string, number>;
}

function redactDeep(value: unknown, redactor: Redactor, tally: Tally, key: string | undefined): unknown {
  if (key !== undefined && ADDRESS_KEYS.has(key)) return value;
  if (typeof value === 'string') {
    const result = redactor.redact(value);
    if (result.count === 0) return value;
    tally.count += result.count;
    for (const [kind, n] of Object.entries(result.kinds)) tally.kinds[kind] = (tally.kinds[kind] ?? 0) + n;
    return result.text;
  }
  if (Array.isArray(value)) {
    let changed = false;
    const next = value.map((item) => {
      const out = redactDeep(item, redactor, tally, undefined);
      changed ||= out !== item;
      return out;
    });
    return changed ? next : value;
  }
  if (typeof value === 'object' && value !== null && !ArrayBuffer.isView(value)) {
    let changed = false;
    const next: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const out = redactDeep(v, redactor, tally, k);
      changed ||= out !== v;
      next[k] = out;
    }
    return changed ? next : value;
  }
  return value;
}

/** A value with its secrets replaced (the same object when it had none) and what was replaced. */
export function redactValue<T>(value: T, redactor: Redactor): { value: T } & Tally {
  const tally: Tally = { count: 0, kinds: {} };
  if (!redactor.enabled) return { value, ...tally };
  return { value: redactDeep(value, redactor, tally, undefined) as T, ...tally };
}

/** Remember inputs with their secrets replaced, and how many each had (in input order). */
export function redactInputs(inputs: readonly ParsedRememberInput[], redactor: Redactor): { inputs: ParsedRememberInput[]; counts: number[] } {
  const redacted = inputs.map((input) => redactValue(input, redactor));
  return { inputs: redacted.map((r) => r.value), counts: redacted.map((r) => r.count) };
}

/** The fields of a stored record that can quote a secret. */
export type RedactableFields = Pick<MemoryRecord, 'content' | 'summary' | 'tags' | 'entities' | 'provenance' | 'data'>;

/** The redacted fields of a stored record, only those that changed, and what was replaced. */
export function redactRecord(record: MemoryRecord, redactor: Redactor): { patch: Partial<RedactableFields> } & Tally {
  const fields: RedactableFields = { content: record.content, summary: record.summary, tags: record.tags, entities: record.entities, provenance: record.provenance, data: record.data };
  const { value, count, kinds } = redactValue(fields, redactor);
  const patch: Partial<RedactableFields> = {};
  for (const key of Object.keys(fields) as (keyof RedactableFields)[]) {
    if (value[key] !== fields[key]) (patch as Record<string, unknown>)[key] = value[key];
  }
  return { patch, count, kinds };
}
