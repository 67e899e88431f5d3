import { EngramError, messages } from './errors.js';
import { cutText } from './text/cut-text.js';

/** A scope is a `/`-separated path whose first segment is the tenant, e.g. `acme/users/alice`. */
export type Scope = string;

const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;
const MAX_SCOPE_LENGTH = 512;

/** Why a scope string is invalid, or `null` when it is valid. */
export function scopeProblem(scope: unknown): string | null {
  if (typeof scope !== 'string') return 'it must be a string';
  if (scope.length === 0) return 'it is empty';
  if (scope.length > MAX_SCOPE_LENGTH) return `it is longer than ${MAX_SCOPE_LENGTH} characters`;
  const segments = scope.split('/');
  for (const segment of segments) {
    if (segment.length === 0) return 'it has an empty segment (leading, trailing or double "/")';
    if (segment === '.' || segment === '..') return `it has a "${segment}" segment`;
    if (!SEGMENT.test(segment)) return `segment "${cutText(segment, 40)}" has characters outside [A-Za-z0-9_.-] or starts with "."`;
  }
  return null;
}

/**
 * Validates one scope and returns it; throws `INVALID_INPUT` with a fix-it message otherwise.
 *
 * @example
 * ```ts
 * assertScope('acme/users/alice'); // 'acme/users/alice'
 * ```
 */
export function assertScope(scope: unknown): Scope {
  const problem = scopeProblem(scope);
  if (problem !== null) {
    throw new EngramError('INVALID_INPUT', messages.badScope(String(scope), problem), { details: { field: 'scope' } });
  }
  return scope as Scope;
}

/** How many scopes one read may name (list and browse take the same): 40,000 took a recall 9 s. */
export const MAX_READ_SCOPES = 1000;

/**
 * Validates the scopes of a read: at least one, each valid, duplicates removed.
 *
 * @example
 * ```ts
 * assertReadScopes(['acme/shared', 'acme/users/alice']);
 * ```
 */
export function assertReadScopes(scopes: unknown): readonly Scope[] {
  if (scopes === undefined || scopes === null || (Array.isArray(scopes) && scopes.length === 0)) {
    throw new EngramError('INVALID_INPUT', messages.noScopes(), { details: { field: 'scopes' } });
  }
  const list = Array.isArray(scopes) ? scopes : [scopes];
  if (list.length > MAX_READ_SCOPES)
    throw new EngramError('INVALID_INPUT', `scopes must have at most ${MAX_READ_SCOPES} items: split the read into several`, {
      details: { field: 'scopes' },
    });
  const unique = new Set<Scope>();
  for (const scope of list) unique.add(assertScope(scope));
  return [...unique];
}

/** The tenant (first segment) of a valid scope. */
export function tenantOf(scope: Scope): string {
  const slash = scope.indexOf('/');
  return slash === -1 ? scope : scope.slice(0, slash);
}
