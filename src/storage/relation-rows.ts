/**
 * The relationship registry as both stores keep it (`relation_types`: one row per tenant and name, the
 * built-ins under the empty tenant).
 */
import type { RelationType } from '../core/relations.js';

/** A `relation_types` row as both stores select it (SQLite answers 0/1 for booleans, PostgreSQL booleans). */
export interface RelationRow {
  tenant: string;
  name: string;
  symmetric: number | boolean;
  built_in: number | boolean;
  proposed_by: string | null;
  description: string | null;
  registered_at: number | string;
}

/** The tenant column of the built-ins, which every tenant sees. */
export const EVERY_TENANT = '';

/** Whether a stored boolean column is true, as either driver answers it. */
export function storedTrue(value: number | boolean): boolean {
  return value === 1 || value === true;
}

/** A row as the registry's type. */
export function rowToRelation(row: RelationRow): RelationType {
  return {
    name: row.name,
    symmetric: storedTrue(row.symmetric),
    builtIn: storedTrue(row.built_in),
    proposedBy: row.proposed_by,
    description: row.description,
    registeredAt: Number(row.registered_at),
    tenant: row.tenant === EVERY_TENANT ? null : row.tenant,
  };
}
