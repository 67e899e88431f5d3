/**
 * Scopes from query strings and bodies: `?scopes=a,b`, `?scopes=a&scopes=b` or `?scope=a` for reads;
 * one `scope` (query or body) for writes by id.
 */
import { EngramError, messages } from '../../../core/errors.js';
import { assertReadScopes, assertScope, type Scope } from '../../../core/scope.js';
import type { QueryParam } from '../route.js';

export const SCOPES_PARAM: QueryParam = {
  name: 'scopes',
  description:
    'Scopes the read may see: comma-separated or repeated (`scope` is accepted too). Required: there is no "everything" default.',
  required: true,
  list: true,
  example: 'acme/users/alice',
  aliases: ['scope'],
};

export const SCOPE_PARAM: QueryParam = {
  name: 'scope',
  description: 'The one scope the memory lives in (or `scope` in the JSON body).',
};

/** The scopes of a read named in the query string. */
export function readScopesFromQuery(query: URLSearchParams): readonly Scope[] {
  const values = [...query.getAll('scopes'), ...query.getAll('scope')]
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v.length > 0);
  if (values.length === 0) throw new EngramError('INVALID_INPUT', messages.noScopes(), { details: { field: 'scopes' } });
  return assertReadScopes(values);
}

/** The one scope of a write by id: `?scope=` or `scope` in the body (not both, unless equal). */
export function writeScopeFrom(query: URLSearchParams, body: unknown): Scope {
  const fromQuery = query.getAll('scope');
  const fromBody = isObject(body) ? body.scope : undefined;
  const candidates = [...fromQuery, ...(fromBody !== undefined ? [fromBody] : [])];
  const distinct = [...new Set(candidates.map(String))];
  if (distinct.length !== 1) {
    throw new EngramError(
      'INVALID_INPUT',
      distinct.length === 0
        ? 'Name the scope the memory lives in: ?scope=tenant/... or "scope" in the JSON body.'
        : 'This request changes one memory in one scope: pass exactly one scope (?scope= or "scope" in the body).',
      { details: { field: 'scope' } },
    );
  }
  return assertScope(fromBody !== undefined ? fromBody : distinct[0]);
}

/** Scope-like fields of a body (`scope`, `scopes`), for the tenant check before the engine sees it. */
export function scopesNamedIn(body: unknown): string[] {
  if (!isObject(body)) return [];
  const named: string[] = [];
  if (typeof body.scope === 'string') named.push(body.scope);
  if (typeof body.scopes === 'string') named.push(body.scopes);
  if (Array.isArray(body.scopes)) for (const s of body.scopes) if (typeof s === 'string') named.push(s);
  return named;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The one value of a query parameter; given twice is an error naming it. */
export function oneParam(query: URLSearchParams, name: string): string | undefined {
  const values = query.getAll(name);
  if (values.length > 1) throw new EngramError('INVALID_INPUT', `Invalid input: ${name} may be given once.`, { details: { field: name } });
  return values[0];
}

/**
 * A numeric query parameter: a number when it is written as one (`5`, `-1`, `1.5`), so the schema's
 * message says what is wrong with it ("is too small (minimum 1)", "must be a whole number"); other text is
 * left as it is, for the schema to say the field takes a number.
 */
export function numberParam(query: URLSearchParams, name: string): number | string | undefined {
  const value = oneParam(query, name);
  return value !== undefined && /^[+-]?\d{1,15}(\.\d{1,15})?$/.test(value) ? Number(value) : value;
}

/**
 * Refuses a query parameter the route does not read (a misspelt filter such as `tags` would otherwise be
 * ignored and the answer look unfiltered), naming it, the nearest accepted name and every accepted one.
 * A route that takes none says so, and points to the JSON body only when it reads one.
 */
export function assertKnownParams(
  query: URLSearchParams,
  route: { endpoint: string; params?: readonly QueryParam[]; jsonBody?: boolean },
): void {
  const params = route.params ?? [];
  const accepted = params.flatMap((p) => [p.name, ...(p.aliases ?? [])]);
  for (const name of new Set(query.keys())) {
    if (accepted.includes(name)) continue;
    const shown = JSON.stringify(name.slice(0, 40));
    const near = nearest(name, accepted);
    const hint = near === undefined ? '' : ` (did you mean ${near}?)`;
    const documented = params.map((p) => p.name);
    const toBody = route.jsonBody === true ? ": send the request's fields in the JSON body" : '';
    throw new EngramError(
      'INVALID_INPUT',
      documented.length === 0
        ? `Invalid input: ${route.endpoint} takes no query parameters, not ${shown}${hint}${toBody}.`
        : `Invalid input: unknown query parameter ${shown}${hint}: ${route.endpoint} accepts ${documented.join(', ')}.`,
      { details: { field: name.slice(0, 40), accepted: documented } },
    );
  }
}

/** The accepted name closest to `name` (case aside, or at most two edits away), if any. */
function nearest(name: string, accepted: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const candidate of accepted) {
    const distance = lower === candidate.toLowerCase() ? 0 : editDistance(lower, candidate.toLowerCase());
    if (distance <= Math.min(2, Math.floor(candidate.length / 2)) && (best === undefined || distance < best.distance)) {
      best = { name: candidate, distance };
    }
  }
  return best?.name;
}

/** Levenshtein distance of two short names (parameter names, so at most a few dozen characters). */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2 || a.length > 64) return Infinity;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length] as number;
}
