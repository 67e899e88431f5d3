/**
 * Redaction of whole values: a remember input before it is planned and embedded, a stored record
 * before `redact` rewrites it. Every string inside is redacted (content, summary, tags, entities, the
 * episode fields, properties, action args, sources, history wordings), except the value's own top-level
 * fields that say where it lives (`scope`, `layer`), which each caller names: user JSON (properties,
 * action args, edge metadata) is redacted whatever its keys are called.
 */
import type { MemoryRecord } from '../memory.js';
import type { ParsedRememberInput } from '../schemas.js';
import { upgradeSourceKey } from '../write/new-record.js';
import { placeholder, type Redactor } from './redactor.js';

/** The top-level fields of a remember input that address the record: a placeholder there would not be a scope or layer. */
const REMEMBER_ADDRESS: readonly string[] = ['scope', 'userScope', 'layer'];

interface Tally {
  count: number;
  kinds: Record<string, number>;
}

/** Copies shorter than this are left alone (a fragment of 3 characters says nothing). */
const MIN_COPY = 4;
/** A whole string is a piece of a secret from this length, and only with a digit in it. */
const MIN_PIECE = 5;

/** The shortest key read as a possible secret. */
const MIN_KEY_SECRET = 8;

/**
 * Applies `fn` to every string of `value` but the top-level fields named in `address` (nested keys are
 * user data whatever their names); the same object when nothing changed.
 */
function mapStrings(value: unknown, fn: (text: string) => string, address: readonly string[] = []): unknown {
  if (typeof value === 'string') return fn(value);
  if (Array.isArray(value)) {
    let changed = false;
    const next = value.map((item) => {
      const out = mapStrings(item, fn);
      changed ||= out !== item;
      return out;
    });
    return changed ? next : value;
  }
  if (typeof value === 'object' && value !== null && !ArrayBuffer.isView(value)) {
    let changed = false;
    const next: Record<string, unknown> = {};
    // the last number given to a name that several keys redact to: `~2`, `~3`… (one more `~` each made the
    // keys grow with their count, 4,000 such keys 8 million characters and 40 s)
    const numbered = new Map<string, number>();
    for (const [k, v] of Object.entries(value)) {
      if (address.includes(k)) {
        next[k] = v;
        continue;
      }
      const out = mapStrings(v, fn);
      // a key can hold a secret too (a token used as a name in `properties`); no detector finds a shorter one
      let name = k.length >= MIN_KEY_SECRET ? fn(k) : k;
      if (name !== k && Object.hasOwn(next, name)) {
        const base = name;
        let n = numbered.get(base) ?? 1;
        do name = `${base}~${(n += 1)}`;
        while (Object.hasOwn(next, name));
        numbered.set(base, n);
      }
      changed ||= out !== v || name !== k;
      next[name] = out;
    }
    return changed ? next : value;
  }
  return value;
}

/** Characters a derived copy of a secret may have changed into one another (`_`, `-`, whitespace). */
const SEPARATORS = /[-_\s]+/g;
const SEPARATOR_CLASS = '[-_\\s]+';

/** A copy's lookup key: lower case, separators as one `_`. */
function copyKey(text: string): string {
  return text.toLowerCase().replace(SEPARATORS, '_');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Replaces the copies of secrets found elsewhere in the same value (`found`) or in other records
 * (`known`): derived fields keep them in another case (`entities`, a claim's normalised value), with
 * other separators (a concept's name), or — for the value's own secrets only — in pieces (`zq8`, `vb3nkx27lw`).
 */
function replaceCopies(
  value: unknown,
  found: ReadonlyMap<string, string>,
  known: ReadonlyMap<string, string>,
  tally: Tally,
  address: readonly string[],
): unknown {
  const own = [...found].filter(([secret]) => secret.length >= MIN_COPY);
  const secrets = [...own, ...[...known].filter(([secret]) => secret.length >= MIN_COPY && !found.has(secret))].sort(
    (a, b) => b[0].length - a[0].length,
  );
  if (secrets.length === 0) return value;
  // a derived copy may also have other separators (a concept's name: "ghp zq8vb…" for "ghp_Zq8Vb…")
  const copies = new RegExp(secrets.map(([secret]) => escapeRegExp(secret).replace(SEPARATORS, SEPARATOR_CLASS)).join('|'), 'gi');
  const kindOf = new Map(secrets.map(([secret, kind]) => [copyKey(secret), kind]));
  const count = (kind: string): string => {
    tally.count += 1;
    tally.kinds[kind] = (tally.kinds[kind] ?? 0) + 1;
    return placeholder(kind);
  };
  return mapStrings(
    value,
    (text) => {
      // a whole string that is a piece of a secret (an entity split off it), not a word that happens to be in one
      if (text.length >= MIN_PIECE && /[0-9]/.test(text) && !/\s/.test(text) && !text.startsWith('[redacted:')) {
        const lower = text.toLowerCase();
        const whole = own.find(([secret]) => secret.toLowerCase().includes(lower));
        if (whole !== undefined) return count(whole[1]);
      }
      copies.lastIndex = 0;
      return copies.test(text) ? text.replace(copies, (m) => count(kindOf.get(copyKey(m)) ?? 'secret')) : text;
    },
    address,
  );
}

/**
 * A value with its secrets replaced (the same object when it had none) and what was replaced. `address`
 * names the value's own top-level fields left as they are (its scope, its layer); everything else is
 * redacted, at any depth and under any key.
 */
export function redactValue<T>(
  value: T,
  redactor: Redactor,
  address: readonly string[] = [],
  known: ReadonlyMap<string, string> = new Map(),
): { value: T; found: ReadonlyMap<string, string> } & Tally {
  const tally: Tally = { count: 0, kinds: {} };
  const found = new Map<string, string>();
  if (!redactor.enabled) return { value, found, ...tally };
  const redacted = mapStrings(
    value,
    (text) => {
      const result = redactor.redact(text, found);
      if (result.count === 0) return text;
      tally.count += result.count;
      for (const [kind, n] of Object.entries(result.kinds)) tally.kinds[kind] = (tally.kinds[kind] ?? 0) + n;
      return result.text;
    },
    address,
  );
  const copied = found.size > 0 || known.size > 0 ? replaceCopies(redacted, found, known, tally, address) : redacted;
  return { value: copied as T, found, ...tally };
}

/**
 * The kinds of the secrets `text` holds (`"github-token, password"`), or null when none: for a name
 * that must not hold one, since a placeholder would not be a valid name.
 */
export function secretKindsIn(text: string, redactor: Redactor): string | null {
  const { count, kinds } = redactor.redact(text);
  return count === 0 ? null : Object.keys(kinds).join(', ');
}

/** Remember inputs with their secrets replaced, and how many each had (in input order). */
export function redactInputs(
  inputs: readonly ParsedRememberInput[],
  redactor: Redactor,
): { inputs: ParsedRememberInput[]; counts: number[] } {
  const redacted = inputs.map((input) => redactValue(input, redactor, REMEMBER_ADDRESS));
  return { inputs: redacted.map((r) => r.value), counts: redacted.map((r) => r.count) };
}

/** The fields of a stored record that can quote a secret. */
export type RedactableFields = Pick<MemoryRecord, 'content' | 'summary' | 'tags' | 'entities' | 'provenance' | 'data'>;

function redactableFields(record: MemoryRecord): RedactableFields {
  return {
    content: record.content,
    summary: record.summary,
    tags: record.tags,
    entities: record.entities,
    provenance: record.provenance,
    data: record.data,
  };
}

function changedFields(before: RedactableFields, after: RedactableFields): Partial<RedactableFields> {
  const patch: Partial<RedactableFields> = {};
  for (const key of Object.keys(before) as (keyof RedactableFields)[]) {
    if (after[key] !== before[key]) (patch as Record<string, unknown>)[key] = after[key];
  }
  return patch;
}

/**
 * The redacted fields of a stored record, only those that changed, and what was replaced. `known` are
 * secrets found in other records (secret → kind), whose copies are replaced here too: a concept or a
 * claim derived from a record before redaction holds the secret in another case or with other separators.
 */
export function redactRecord(
  record: MemoryRecord,
  redactor: Redactor,
  known?: ReadonlyMap<string, string>,
): { patch: Partial<RedactableFields>; found: ReadonlyMap<string, string> } & Tally {
  const fields = redactableFields(record);
  const { value, count, kinds, found } = redactValue(fields, redactor, [], known);
  return { patch: changedFields(fields, value), found, count, kinds };
}

/** A source key's parts (`[container, messageId]`), or the key itself when it has another shape. */
function sourceKeyParts(key: string): string[] | string {
  try {
    const parts: unknown = JSON.parse(upgradeSourceKey(key));
    if (Array.isArray(parts) && parts.every((part) => typeof part === 'string')) return parts as string[];
  } catch {
    // not JSON: redacted as one text
  }
  return key;
}

/**
 * A record read back from an export (a Markdown trailer) with its secrets replaced as a write would
 * replace them: its fields, its source key (made again from its redacted parts, as the key of a redacted
 * source is) and what travels with it (`extras`: its edges' metadata, the identity keys naming it). Both
 * are returned with the changes (the same objects when nothing changed), with what was replaced and the
 * secrets found; copies of `known` secrets (found in other records) are replaced too.
 */
export function redactExported<E>(
  record: MemoryRecord,
  extras: E,
  redactor: Redactor,
  known?: ReadonlyMap<string, string>,
): { patch: Partial<RedactableFields & Pick<MemoryRecord, 'sourceKey'>>; extras: E; found: ReadonlyMap<string, string> } & Tally {
  const fields = redactableFields(record);
  const parts = record.sourceKey === null ? null : sourceKeyParts(record.sourceKey);
  const { value, count, kinds, found } = redactValue({ fields, parts, extras }, redactor, [], known);
  const patch: Partial<RedactableFields & Pick<MemoryRecord, 'sourceKey'>> = changedFields(fields, value.fields);
  if (value.parts !== parts && value.parts !== null)
    patch.sourceKey = typeof value.parts === 'string' ? value.parts : JSON.stringify(value.parts);
  return { patch, extras: value.extras, found, count, kinds };
}
