/**
 * Settings of a scope kept as procedural records: a persona (docs/persona.md) and a profile schema
 * (docs/profile-schema.md). They are read by the parts that apply them and by browse, history and
 * export; they are never an answer (a recall or surface hit) nor a rule handed to an agent.
 */
import type { MemoryRecord } from './memory.js';
import { isPersona } from './persona/persona.js';
import { isProfileSchema } from './profile/profile-schema.js';

/** Whether a record is a persona or a profile schema: a setting of its scope, not a memory to hand out. */
export function isScopeSetting(record: Pick<MemoryRecord, 'layer' | 'data'>): boolean {
  return isPersona(record) || isProfileSchema(record);
}
