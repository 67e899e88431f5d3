/**
 * PostgreSQL for tests: the real server named by `ENGRAM_TEST_PG_URL` (CI sets it, see .ci/run) and an
 * in-process PGlite with pgvector. Every test gets its own schema, dropped afterwards.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createPglite, type PgliteLike } from '../../src/storage/postgres/index.js';

/** The URL of the test server, when one is configured. */
export function pgTestUrl(): string | undefined {
  const url = process.env.ENGRAM_TEST_PG_URL;
  return url !== undefined && url.length > 0 ? url : undefined;
}

/** Why PostgreSQL server tests are skipped (only meaningful when `pgTestUrl()` is undefined). */
export const PG_SKIP_REASON =
  'PostgreSQL tests skipped: set ENGRAM_TEST_PG_URL=postgres://engram:engram@localhost:5432/engram_test (.ci/run starts the server and sets it)';

/** A schema name nobody else uses. */
export function uniqueSchema(prefix = 't'): string {
  return `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
}

/** `url` with `?schema=` set. */
export function withSchema(url: string, schema: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('schema', schema);
  return parsed.toString();
}

/** Drops a schema of the test server (and everything in it). */
export async function dropPgSchema(url: string, schema: string): Promise<void> {
  const parsed = new URL(url);
  parsed.searchParams.delete('schema');
  const client = new pg.Client({ connectionString: parsed.toString() });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

/** A fresh schema on the test server: `url` selects it; `drop()` removes it. */
export function freshPgSchema(prefix = 't'): { url: string; schema: string; drop: () => Promise<void> } {
  const base = pgTestUrl();
  if (base === undefined) throw new Error(PG_SKIP_REASON);
  const schema = uniqueSchema(prefix);
  return { url: withSchema(base, schema), schema, drop: () => dropPgSchema(base, schema) };
}

let shared: Promise<PgliteLike> | undefined;

/**
 * One PGlite (with pgvector) per test file: starting one costs seconds, so tests share it and each
 * takes its own schema. Close it in `afterAll(closeSharedPglite)`.
 */
export function sharedPglite(): Promise<PgliteLike> {
  shared ??= createPglite();
  return shared;
}

export async function closeSharedPglite(): Promise<void> {
  const db = await shared;
  shared = undefined;
  await db?.close();
}

/**
 * Empties an Engram schema for the next test (much faster than creating one: no DDL). Keeps the
 * migrations, the recorded embedder and the built-in relation types.
 */
export async function resetEngramSchema(query: (sql: string) => Promise<unknown>, schema: string): Promise<void> {
  const q = (name: string) => `"${schema}"."${name}"`;
  await query(
    `TRUNCATE ${['edges', 'concept_refs', 'memories', 'state', 'jobs', 'job_locks', 'vector_log', 'api_keys', 'embedding_staging', 'audit_log'].map(q).join(', ')} RESTART IDENTITY CASCADE`,
  );
  await query(`DELETE FROM ${q('relation_types')} WHERE NOT built_in`);
  await query(`DELETE FROM ${q('meta')} WHERE key NOT IN ('embedding.name', 'embedding.dimension', 'vector.storage')`);
}

/** Runs one statement on the test server (outside any store). */
export async function pgExec(url: string, sql: string): Promise<void> {
  const parsed = new URL(url);
  parsed.searchParams.delete('schema');
  const client = new pg.Client({ connectionString: parsed.toString() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
