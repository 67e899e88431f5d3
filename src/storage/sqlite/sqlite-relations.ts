/**
 * The relationship registry on SQLite: the built-in types every tenant sees and those a tenant registered.
 */
import { assertRelationTenant, relationConflict, type RelationType } from '../../core/relations.js';
import { assertReadScopes, tenantOf, type Scope } from '../../core/scope.js';
import { EVERY_TENANT, rowToRelation, storedTrue, type RelationRow } from '../relation-rows.js';
import type { SqliteConnection } from './sqlite-connection.js';
import { inList } from './sqlite-rows.js';

export function readRelationTypes(connection: SqliteConnection, scopes: readonly Scope[]): RelationType[] {
  const tenants = JSON.stringify([...new Set(assertReadScopes(scopes).map(tenantOf))]);
  return connection
    .all<RelationRow>(`SELECT * FROM relation_types WHERE tenant = '${EVERY_TENANT}' OR ${inList('tenant')} ORDER BY name, tenant`, tenants)
    .map(rowToRelation);
}

export function updateRelationType(
  connection: SqliteConnection,
  tenant: string,
  name: string,
  patch: { description?: string | null; proposedBy?: string | null },
): boolean {
  const owner = assertRelationTenant(tenant);
  const existing = connection.get<RelationRow>('SELECT * FROM relation_types WHERE tenant = ? AND name = ?', owner, name);
  if (existing === undefined) return false;
  connection.run(
    'UPDATE relation_types SET description = ?, proposed_by = ? WHERE tenant = ? AND name = ?',
    patch.description !== undefined ? patch.description : existing.description,
    patch.proposedBy !== undefined ? patch.proposedBy : existing.proposed_by,
    owner,
    name,
  );
  return true;
}

export function registerRelationType(connection: SqliteConnection, type: RelationType): RelationType {
  const tenant = assertRelationTenant(type.tenant);
  const existing =
    connection.get<RelationRow>('SELECT * FROM relation_types WHERE tenant = ? AND name = ?', EVERY_TENANT, type.name) ??
    connection.get<RelationRow>('SELECT * FROM relation_types WHERE tenant = ? AND name = ?', tenant, type.name);
  if (existing !== undefined) {
    if (storedTrue(existing.symmetric) !== type.symmetric) throw relationConflict(type.name, storedTrue(existing.symmetric));
    return rowToRelation(existing);
  }
  connection.run(
    'INSERT INTO relation_types (tenant, name, symmetric, built_in, proposed_by, description, registered_at) VALUES (?, ?, ?, 0, ?, ?, ?)',
    tenant,
    type.name,
    type.symmetric ? 1 : 0,
    type.proposedBy,
    type.description,
    type.registeredAt,
  );
  return { ...type, builtIn: false, tenant };
}
