/**
 * Reading and setting the profile schema of scopes (the library calls behind `Engram.profileSchema`
 * and `setProfileSchema`). A schema written with `remember` (procedural, `category: "profile-schema"`)
 * or imported from `schema.md` reads the same way.
 */
import { z } from 'zod';
import { EngramError, messages } from '../errors.js';
import type { Clock } from '../ports/clock.js';
import type { Embedder } from '../ports/embedder.js';
import type { Store, StoreReader } from '../ports/store.js';
import { redactValue } from '../redact/redact-values.js';
import type { Redactor } from '../redact/redactor.js';
import { parseInput, scopeSchema } from '../schemas.js';
import type { Scope } from '../scope.js';
import { currentSettings, settingRecord, writeSettingVersion } from '../persona/setting-versions.js';
import {
  fieldsOfSchemaRecord,
  mergeSchemaFields,
  PROFILE_SCHEMA_CATEGORY,
  profileFieldsSchema,
  renderProfileSchema,
  type ProfileField,
} from './profile-schema.js';

/** The schema a read of some scopes sees: the fields of every current schema record, and their ids. */
export interface ProfileSchemaView {
  fields: ProfileField[];
  /** The schema records the fields come from, in scope order. */
  ids: string[];
}

/** Input of `setProfileSchema`. */
export const setProfileSchemaInputSchema = z
  .object({ scope: scopeSchema, fields: profileFieldsSchema, reason: z.string().trim().min(1).max(500).optional() })
  .strict();
export type SetProfileSchemaInput = z.input<typeof setProfileSchemaInputSchema>;

/**
 * The fields of the current schema records of `scopes`: scopes in the given order, within a scope
 * the newest record first; unique by name, first wins.
 */
export async function readProfileSchema(store: StoreReader, scopes: readonly Scope[], now: number): Promise<ProfileSchemaView> {
  const current = await currentSettings(store, scopes, PROFILE_SCHEMA_CATEGORY, now);
  const ordered = scopes.flatMap((scope) => current.filter((r) => r.scope === scope));
  return { fields: mergeSchemaFields(ordered.map(fieldsOfSchemaRecord)), ids: ordered.map((r) => r.id) };
}

/**
 * Writes the scope's schema as a new version (superseding the current schema records of the scope).
 * The engine's redactor replaces the secrets of descriptions, examples and the reason; a field whose
 * name holds one is refused (the name is what agents ask for, and a placeholder's ":" cannot be in it).
 */
export async function setProfileSchema(
  deps: { store: Store; embedder: Embedder; clock: Clock; redactor: Redactor },
  input: SetProfileSchemaInput,
): Promise<ProfileSchemaView & { superseded: string[] }> {
  const given = parseInput(setProfileSchemaInputSchema, input, 'profile schema');
  const { value: parsed, kinds } = redactValue(given, deps.redactor, ['scope']);
  const named = parsed.fields.findIndex((field, index) => field.name !== given.fields[index]?.name);
  if (named >= 0)
    throw new EngramError(
      'INVALID_INPUT',
      messages.invalidInput(
        `profile schema: fields.${named}.name holds a secret (${Object.keys(kinds).join(', ')}); name what to learn (e.g. "ci token") and leave values out of the schema`,
      ),
      { details: { field: `fields.${named}.name` } },
    );
  const now = deps.clock.now();
  const fields = parsed.fields.map((f) => ({
    name: f.name,
    ...(f.description ? { description: f.description } : {}),
    ...(f.example ? { example: f.example } : {}),
  }));
  const content = renderProfileSchema(fields);
  const [embedding] = await deps.embedder.embed([content]);
  const record = settingRecord({
    scope: parsed.scope,
    category: PROFILE_SCHEMA_CATEGORY,
    content,
    properties: { fields },
    change: { reason: parsed.reason ?? 'set by a person', by: 'user' },
    now,
  });
  const superseded = await deps.store.transaction((tx) => writeSettingVersion(tx, record, embedding as Float32Array, now));
  return { fields, ids: [record.id], superseded };
}
