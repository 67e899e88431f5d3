/**
 * The schema of what to learn about a user (seed 003's `shared/semantic.md`): a procedural record of a
 * scope with `category: "profile-schema"` listing fields (name, description, example). Its text is the
 * source of truth a person reads and edits (Markdown `schema.md`); `properties.fields` holds the same
 * fields for a writer that gives them structured and a free-form text.
 *
 * ```text
 * Profile schema: what to learn about the user.
 * - budget range: the price range the user can afford (example: 80L)
 * - location preferences: neighbourhoods the user wants to live in (example: Koramangala, Indiranagar)
 * ```
 * The seed's own one-line form ("Store: budget range, location preferences, BHK requirement.") reads too.
 */
import { z } from 'zod';
import type { MemoryRecord } from '../memory.js';
import { isRule } from '../record-kinds.js';

/** The category of a profile-schema record. */
export const PROFILE_SCHEMA_CATEGORY = 'profile-schema';

/** One fact to collect about the user. */
export interface ProfileField {
  name: string;
  description?: string;
  example?: string;
}

const fieldName = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(80, 'is longer than 80 characters')
  .refine((s) => !/[:\n]/.test(s), 'must not contain ":" or a line break (the text form uses them)');

/** One field as an input names it. */
export const profileFieldSchema = z
  .object({
    name: fieldName,
    description: z
      .string()
      .trim()
      .max(500)
      .refine((s) => !s.includes('\n'), 'must be one line')
      .optional(),
    example: z
      .string()
      .trim()
      .max(200)
      .refine((s) => !/[\n()]/.test(s), 'must be one line without parentheses')
      .optional(),
  })
  .strict();

/** The fields of a schema: 1 to 100, names unique (case and spacing ignored). */
export const profileFieldsSchema = z
  .array(profileFieldSchema)
  .min(1, 'must list at least one field')
  .max(100)
  .refine((fields) => new Set(fields.map((f) => fieldKey(f.name))).size === fields.length, 'must not name a field twice');

/** Is this record a profile schema? */
export function isProfileSchema(record: Pick<MemoryRecord, 'layer' | 'data'>): boolean {
  return isRule(record) && record.data.category === PROFILE_SCHEMA_CATEGORY;
}

/** The comparison key of a field name: lowercase words joined by one space. */
export function fieldKey(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

const TITLE = 'Profile schema: what to learn about the user.';
const LINE = /^\s*[-*•]\s+([^:\n]{1,80}?)\s*(?::\s*(.*?))?\s*$/;
const EXAMPLE = /\s*\((?:example|e\.g\.|eg|for example)[:,]?\s*([^()]*)\)\s*$/i;
const STORE = /^\s*(?:store|collect|fields?|ask for|learn)\s*:\s*(.+)$/i;

/** The text form of a schema (what `setProfileSchema` stores and `schema.md` shows). */
export function renderProfileSchema(fields: readonly ProfileField[]): string {
  const lines = fields.map((f) => {
    const description = f.description !== undefined && f.description.length > 0 ? `: ${f.description}` : '';
    const example = f.example !== undefined && f.example.length > 0 ? ` (example: ${f.example})` : '';
    return `- ${f.name}${description === '' && example !== '' ? ':' : description}${example}`;
  });
  return [TITLE, ...lines].join('\n');
}

/**
 * The fields a schema text lists: one `- name: description (example: …)` line each, or the seed's
 * `Store: a, b, c` line (names only). Unique by {@link fieldKey}, first wins; empty when none.
 */
export function parseProfileSchema(text: string): ProfileField[] {
  const out: ProfileField[] = [];
  const seen = new Set<string>();
  const add = (field: ProfileField): void => {
    const key = fieldKey(field.name);
    if (key.length === 0 || seen.has(key) || field.name.length > 80) return;
    seen.add(key);
    out.push(field);
  };
  // a `Store:` list ending in a comma goes on over the next line(s)
  let continues = false;
  for (const line of text.split('\n')) {
    const list: string | undefined = STORE.exec(line)?.[1] ?? (continues ? line : undefined);
    if (list !== undefined) {
      for (const name of list.split(/,|\band\b/)) {
        const trimmed = name.replace(/[.;]+$/, '').trim();
        if (trimmed.length > 0) add({ name: trimmed });
      }
      continues = list.trim().endsWith(',');
      continue;
    }
    const item = LINE.exec(line);
    if (item?.[1] === undefined) continue;
    let rest = item[2] ?? '';
    const example = EXAMPLE.exec(rest);
    if (example !== null) rest = rest.slice(0, example.index);
    const description = rest.trim();
    add({
      name: item[1].trim(),
      ...(description.length > 0 ? { description } : {}),
      ...(example?.[1] !== undefined && example[1].trim().length > 0 ? { example: example[1].trim() } : {}),
    });
  }
  return out;
}

/**
 * The fields of a schema record: from its text when the text lists any (a person may have edited it),
 * else from `properties.fields`.
 */
export function fieldsOfSchemaRecord(record: Pick<MemoryRecord, 'content' | 'data'>): ProfileField[] {
  const parsed = parseProfileSchema(record.content);
  if (parsed.length > 0) return parsed;
  const given = profileFieldsSchema.safeParse((record.data.properties as { fields?: unknown } | undefined)?.fields);
  return given.success ? given.data.map(stripEmpty) : [];
}

function stripEmpty(field: z.output<typeof profileFieldSchema>): ProfileField {
  return {
    name: field.name,
    ...(field.description !== undefined && field.description.length > 0 ? { description: field.description } : {}),
    ...(field.example !== undefined && field.example.length > 0 ? { example: field.example } : {}),
  };
}

/** The fields of several schema records (e.g. a tenant's shared schema and a user's own), unique by name, first wins. */
export function mergeSchemaFields(lists: readonly (readonly ProfileField[])[]): ProfileField[] {
  const seen = new Set<string>();
  const out: ProfileField[] = [];
  for (const list of lists) {
    for (const field of list) {
      const key = fieldKey(field.name);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(field);
    }
  }
  return out;
}
