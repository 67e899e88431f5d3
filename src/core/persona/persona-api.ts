/**
 * Reading, setting, listing and reverting the persona of a scope (the library calls behind
 * `Engram.persona`, `setPersona`, `personaHistory` and `revertPersona`).
 */
import { z } from 'zod';
import { EngramError, messages } from '../errors.js';
import type { MemoryRecord } from '../memory.js';
import type { Clock } from '../ports/clock.js';
import type { Embedder } from '../ports/embedder.js';
import type { Store, StoreReader } from '../ports/store.js';
import { redactValue, secretKindsIn } from '../redact/redact-values.js';
import type { Redactor } from '../redact/redactor.js';
import { parseInput } from '../schemas.js';
import { scopeSchema } from '../schemas.js';
import type { Scope } from '../scope.js';
import { isPersona, PERSONA_CATEGORY, personaOfRecord, personaSchema, renderPersona, type Persona } from './persona.js';
import { currentSettings, settingRecord, settingRecords, writeSettingVersion, type SettingChange } from './setting-versions.js';

/** A version of a scope's persona as the API shows it. */
export interface PersonaVersion {
  id: string;
  scope: string;
  status: MemoryRecord['status'];
  persona: Persona;
  /** Why this version was written, and by whom. */
  change: SettingChange;
  /** ISO instants: written, and replaced by the next version (null while current). */
  recordedAt: string;
  invalidatedAt: string | null;
}

interface Deps {
  store: Store;
  embedder: Embedder;
  clock: Clock;
  /** The engine's redactor: the reason and the favours of a version are redacted before it is stored. */
  redactor: Redactor;
}

/** Input of `setPersona`. */
export const setPersonaInputSchema = personaSchema
  .extend({ scope: scopeSchema, reason: z.string().trim().min(1).max(500).optional() })
  .strict();
export type SetPersonaInput = z.input<typeof setPersonaInputSchema>;

/** Input of `revertPersona`: the version to restore (default: the one before the current). */
export const revertPersonaInputSchema = z
  .object({ scope: scopeSchema, to: z.string().min(1).max(200).optional(), reason: z.string().trim().min(1).max(500).optional() })
  .strict();
export type RevertPersonaInput = z.input<typeof revertPersonaInputSchema>;

/** The view of one persona record. */
export function personaVersion(record: MemoryRecord): PersonaVersion | null {
  const persona = personaOfRecord(record);
  if (persona === null) return null;
  const change = (record.data as { change?: SettingChange }).change ?? { reason: 'written with remember', by: 'user' };
  return {
    id: record.id,
    scope: record.scope,
    status: record.status,
    persona,
    change,
    recordedAt: new Date(record.recordedAt).toISOString(),
    invalidatedAt: record.invalidatedAt === null ? null : new Date(record.invalidatedAt).toISOString(),
  };
}

/** The persona a read of `scopes` uses: the current one of the first scope (in the given order) that has one. */
export async function readPersona(store: StoreReader, scopes: readonly Scope[], now: number): Promise<PersonaVersion | null> {
  const current = await currentSettings(store, scopes, PERSONA_CATEGORY, now);
  for (const scope of scopes) {
    for (const record of current) {
      if (record.scope !== scope) continue;
      const version = personaVersion(record);
      if (version !== null) return version;
    }
  }
  return null;
}

/** Writes a new version of the scope's persona (superseding the current one). */
export async function setPersona(deps: Deps, input: SetPersonaInput, change?: Partial<SettingChange>): Promise<PersonaVersion> {
  // before validation, whose messages quote the path of a bad value (a disposition's name)
  const given = input as { dispositions?: unknown; favours?: unknown } | null | undefined;
  assertNoSecretNames(given?.dispositions, deps.redactor);
  assertNoSecretNames(given?.favours, deps.redactor);
  const parsed = parseInput(setPersonaInputSchema, input, 'persona');
  const persona: Persona = { dispositions: parsed.dispositions, ...(parsed.favours !== undefined ? { favours: parsed.favours } : {}) };
  return writePersona(deps, parsed.scope, persona, { reason: parsed.reason ?? 'set by a person', by: 'user', ...change });
}

async function writePersona(deps: Deps, scope: Scope, given: Persona, givenChange: SettingChange): Promise<PersonaVersion> {
  const { persona, change } = redactPersona(given, givenChange, deps.redactor);
  const now = deps.clock.now();
  const content = renderPersona(persona);
  const [embedding] = await deps.embedder.embed([content]);
  const record = settingRecord({ scope, category: PERSONA_CATEGORY, content, properties: { ...persona }, change, now });
  await deps.store.transaction((tx) => writeSettingVersion(tx, record, embedding as Float32Array, now));
  return personaVersion(record) as PersonaVersion;
}

/**
 * A version as it is stored: the strings of its favours and of its change (reason, details) with their
 * secrets replaced by the engine's redactor, validated again (a placeholder may be longer than the
 * secret). A disposition named by a secret is refused (a version restored from before redaction).
 */
function redactPersona(persona: Persona, change: SettingChange, redactor: Redactor): { persona: Persona; change: SettingChange } {
  assertNoSecretNames(persona.dispositions, redactor);
  assertNoSecretNames(persona.favours, redactor);
  const redacted = redactValue({ persona, change }, redactor);
  if (redacted.count === 0) return { persona, change };
  return { persona: parseInput(personaSchema, redacted.value.persona, 'persona'), change: redacted.value.change };
}

/** Refuses an object whose keys (disposition names) hold a secret: a name cannot be redacted into a valid name. */
function assertNoSecretNames(names: unknown, redactor: Redactor): void {
  if (typeof names !== 'object' || names === null) return;
  for (const name of Object.keys(names)) {
    const kinds = secretKindsIn(name, redactor);
    if (kinds !== null)
      throw new EngramError(
        'INVALID_INPUT',
        messages.invalidInput(`persona: a disposition name holds a secret (${kinds}); name the disposition, e.g. curiosity`),
        { details: { field: 'dispositions' } },
      );
  }
}

/** Every version of the scope's persona, oldest first. */
export async function personaHistory(store: StoreReader, scope: Scope): Promise<PersonaVersion[]> {
  const records = await settingRecords(store, [scope], PERSONA_CATEGORY);
  return records
    .filter(isPersona)
    .sort((a, b) => a.recordedAt - b.recordedAt || (a.id < b.id ? -1 : 1))
    .map(personaVersion)
    .filter((v): v is PersonaVersion => v !== null);
}

/**
 * Restores an earlier version as a new one (logged as a revert, itself revertible). Without `to`, the
 * version the current one replaced. `NOT_FOUND` for an unknown version, `CONFLICT` when there is
 * nothing to revert to.
 */
export async function revertPersona(deps: Deps, input: RevertPersonaInput): Promise<PersonaVersion> {
  const parsed = parseInput(revertPersonaInputSchema, input, 'revert');
  const history = await personaHistory(deps.store, parsed.scope);
  const current = history.filter((v) => v.status === 'active').pop();
  let target: PersonaVersion | undefined;
  if (parsed.to !== undefined) {
    target = history.find((v) => v.id === parsed.to);
    if (target === undefined)
      throw new EngramError(
        'NOT_FOUND',
        `No persona version ${parsed.to} in scope "${parsed.scope}": list them with personaHistory (CLI: engram persona history --scope ${parsed.scope}).`,
        { details: { id: parsed.to } },
      );
  } else {
    const at = current === undefined ? -1 : history.indexOf(current);
    target = at > 0 ? history[at - 1] : undefined;
    if (target === undefined)
      throw new EngramError('CONFLICT', `Scope "${parsed.scope}" has no earlier persona version to revert to.`, {
        details: { scope: parsed.scope },
      });
  }
  if (current !== undefined && target.id === current.id)
    throw new EngramError('CONFLICT', `Persona version ${target.id} is already the current one: there is nothing to revert.`, {
      details: { id: target.id },
    });
  return writePersona(deps, parsed.scope, target.persona, {
    reason: parsed.reason ?? `revert to version ${target.id}`,
    by: 'revert',
    revertOf: target.id,
  });
}
