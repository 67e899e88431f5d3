/**
 * The relationship registry on PostgreSQL: the built-in types every tenant sees and those a tenant registered.
 */
import { assertRelationTenant, relationConflict, type RelationType } from '../../core/relations.js';
import { assertReadScopes, tenantOf, type Scope } from '../../core/scope.js';
import { EVERY_TENANT, rowToRelation, storedTrue, type RelationRow } from '../relation-rows.js';
import type { PgQueryable } from './pg-driver.js';
import type { Tables } from './pg-rows.js';

export async function readRelationTypes(db: PgQueryable, t: Tables, scopes: readonly Scope[]): Promise<RelationType[]> {
  const tenants = [...new Set(assertReadScopes(scopes).map(tenantOf))];
  return (
    await db.query<RelationRow>(
      `SELECT * FROM ${t.q('relation_types')} WHERE tenant = $1 OR tenant = ANY($2::text[]) ORDER BY name, tenant COLLATE "C"`,
      [EVERY_TENANT, tenants],
    )
  ).rows.map(rowToRelation);
}

export async function updateRelationType(
  db: PgQueryable,
  t: Tables,
  tenant: string,
  name: string,
  patch: { description?: string | null; proposedBy?: string | null },
): Promise<boolean> {
  const owner = assertRelationTenant(tenant);
  const result = await db.query(
    `UPDATE ${t.q('relation_types')} SET description = CASE WHEN $3 THEN $4 ELSE description END, proposed_by = CASE WHEN $5 THEN $6 ELSE proposed_by END WHERE tenant = $1 AND name = $2`,
    [owner, name, patch.description !== undefined, patch.description ?? null, patch.proposedBy !== undefined, patch.proposedBy ?? null],
  );
  return result.rowCount > 0;
}

export async function registerRelationType(db: PgQueryable, t: Tables, type: RelationType): Promise<RelationType> {
  const tenant = assertRelationTenant(type.tenant);
  const existing = (
    await db.query<RelationRow>(
      `SELECT * FROM ${t.q('relation_types')} WHERE name = $1 AND tenant IN ($2, $3) ORDER BY tenant COLLATE "C"`,
      [type.name, EVERY_TENANT, tenant],
    )
  ).rows[0];
  if (existing !== undefined) {
    if (storedTrue(existing.symmetric) !== type.symmetric) throw relationConflict(type.name, storedTrue(existing.symmetric));
    return rowToRelation(existing);
  }
  await db.query(
    `INSERT INTO ${t.q('relation_types')} (tenant, name, "symmetric", built_in, proposed_by, description, registered_at) VALUES ($1, $2, $3, false, $4, $5, $6)`,
    [tenant, type.name, type.symmetric, type.proposedBy, type.description, type.registeredAt],
  );
  return { ...type, builtIn: false, tenant };
}
