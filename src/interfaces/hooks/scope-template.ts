/**
 * Scopes per project from one installation: a template such as `{tenant}/projects/{repo}` is filled
 * for each hook call (and each `engram mcp` start) from the working directory Claude Code reports,
 * so `engram setup claude-code --user` serves every project without a scope per project.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { EngramError } from '../../core/errors.js';
import { assertScope } from '../../core/scope.js';
import { scopeSegment } from '../../core/scope-segment.js';

/** The template `engram setup claude-code` installs unless told otherwise. */
export const DEFAULT_SCOPE_TEMPLATE = '{tenant}/projects/{repo}';

const PLACEHOLDERS = new Set(['tenant', 'repo']);

export interface ScopeSettings {
  /** Explicit scopes (`--scope`): they win over the template; the first is where turns are stored. */
  scopes?: readonly string[];
  template?: string;
  tenant?: string;
  /** The user's own scope (HITL answers land here); read for context too. May use `{tenant}`. */
  userScope?: string;
  /** The directory of the session (the hook JSON's `cwd`, else the process's). */
  cwd: string;
}

export interface ResolvedScopes {
  /** Where turns are stored. */
  writeScope: string;
  /** What context is read from: the write scope, further explicit scopes, the user scope. */
  readScopes: string[];
  userScope?: string;
}

/** The top level of the git work tree holding `dir` (a `.git` folder or file), else `dir` itself. */
export function projectRoot(dir: string): string {
  let current = resolve(dir);
  for (;;) {
    if (existsSync(resolve(current, '.git'))) return current;
    const parent = dirname(current);
    if (parent === current) return resolve(dir);
    current = parent;
  }
}

/** The `{repo}` of a working directory: the basename of its git top level (else of itself), as a segment. */
export function repoSegment(cwd: string): string {
  return scopeSegment(basename(projectRoot(cwd)));
}

/** Fills `{tenant}` and `{repo}` in a template; throws `INVALID_INPUT` for anything it cannot fill. */
export function fillTemplate(template: string, values: { tenant?: string; cwd: string }): string {
  const unknown = [...template.matchAll(/\{([^}]*)\}/g)].map((m) => m[1] as string).filter((name) => !PLACEHOLDERS.has(name));
  if (unknown.length > 0) {
    throw new EngramError(
      'INVALID_INPUT',
      `The scope template "${template.slice(0, 100)}" has unknown placeholder {${unknown[0]?.slice(0, 40)}}: use {tenant} and {repo}, e.g. '{tenant}/projects/{repo}'.`,
    );
  }
  if (template.includes('{tenant}') && (values.tenant === undefined || values.tenant === '')) {
    throw new EngramError(
      'INVALID_INPUT',
      `The scope template "${template.slice(0, 100)}" needs a tenant: pass --tenant T (or set ENGRAM_TENANT).`,
    );
  }
  const filled = template.replaceAll('{tenant}', values.tenant ?? '').replace(/\{repo\}/g, () => repoSegment(values.cwd));
  return assertScope(filled);
}

/**
 * The scopes of one hook call: explicit scopes win over the template; the user scope is added to
 * the read scopes. Throws `INVALID_INPUT` when there is no scope at all.
 *
 * @example
 * ```ts
 * resolveScopes({ template: '{tenant}/projects/{repo}', tenant: 'me', cwd: '/home/me/src/shop/api' });
 * // { writeScope: 'me/projects/shop', readScopes: ['me/projects/shop'] } (with /home/me/src/shop/.git)
 * ```
 */
export function resolveScopes(settings: ScopeSettings): ResolvedScopes {
  const explicit = (settings.scopes ?? []).map((s) => assertScope(s));
  const fromTemplate =
    explicit.length === 0 && settings.template !== undefined && settings.template !== '' ? [fillTemplate(settings.template, settings)] : [];
  const own = [...explicit, ...fromTemplate];
  const writeScope = own[0];
  if (writeScope === undefined) {
    throw new EngramError(
      'INVALID_INPUT',
      "The hook needs a scope: pass --scope tenant/... or --scope-template '{tenant}/projects/{repo}' --tenant T (or set ENGRAM_SCOPES) in the hook command.",
    );
  }
  const userScope = settings.userScope !== undefined && settings.userScope !== '' ? fillTemplate(settings.userScope, settings) : undefined;
  const readScopes = [...new Set([...own, ...(userScope !== undefined ? [userScope] : [])])];
  return { writeScope, readScopes, ...(userScope !== undefined ? { userScope } : {}) };
}
