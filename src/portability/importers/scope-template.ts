/**
 * Scope templates: `acme/users/{user_id}` turns a record's ids into a scope. A placeholder value is
 * redacted (scopes are addresses: the write path stores them as given, so a secret in a conversation
 * title would be stored, and printed, in the scope), then made into one scope segment by replacing
 * every character outside `[A-Za-z0-9_.-]` with `_` (and a leading `.` with `_`), so
 * `alice@example.com` becomes `alice_example.com`; a record missing a placeholder's value does not
 * match the template, and the next template is tried.
 */
import { createRedactor, type Redactor } from '../../core/redact/redactor.js';
import { scopeProblem } from '../../core/scope.js';
import type { ImportContext } from './import-plan.js';

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The placeholders a template names, in order. */
export function placeholdersOf(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((m) => m[1] as string);
}

/**
 * One value as a scope segment.
 *
 * @example
 * ```ts
 * scopeSegment('alice@example.com'); // 'alice_example.com'
 * ```
 */
export function scopeSegment(value: string): string {
  const replaced = value.trim().replace(/[^A-Za-z0-9_.-]/g, '_');
  return replaced.startsWith('.') ? `_${replaced.slice(1)}` : replaced;
}

/** The outcome of resolving a record's scope: a scope, or why there is none. */
export type ScopeResolution = { scope: string } | { problem: string };

/** The redactor of contexts that bring none (the built-in detectors), built when first needed. */
let builtIn: Redactor | undefined;

/**
 * The scope of a record: the first template whose placeholders all have values, else `context.scope`.
 * Values come from the record (`values`) and the flags (`context.values`); each is redacted with
 * `context.redactor` (else the built-in detectors) before it becomes a segment.
 *
 * @example
 * ```ts
 * resolveScope({ scopeTemplates: ['acme/users/{user_id}'] }, { user_id: 'alice' }); // { scope: 'acme/users/alice' }
 * ```
 */
export function resolveScope(context: ImportContext, values: Readonly<Record<string, string | undefined>>): ScopeResolution {
  const all: Record<string, string | undefined> = { ...context.values, ...values };
  const missing: string[] = [];
  for (const template of context.scopeTemplates ?? []) {
    const names = placeholdersOf(template);
    const absent = names.filter((name) => typeof all[name] !== 'string' || (all[name] as string).trim() === '');
    if (absent.length > 0) {
      missing.push(`${template} lacks ${absent.map((a) => `{${a}}`).join(', ')}`);
      continue;
    }
    const redactor = context.redactor ?? (builtIn ??= createRedactor());
    const scope = template.replace(PLACEHOLDER, (_m, name: string) => scopeSegment(redactor.redact(all[name] as string).text));
    const problem = scopeProblem(scope);
    return problem === null ? { scope } : { problem: `scope "${scope.slice(0, 80)}" from --scope-template is invalid: ${problem}` };
  }
  if (context.scope !== undefined) return { scope: context.scope };
  if (missing.length > 0) return { problem: `no --scope-template matched (${missing.join('; ')}) and no --scope was given` };
  return { problem: 'no scope: pass --scope S or --scope-template T' };
}
