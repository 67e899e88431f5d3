/**
 * Scope templates: `acme/users/{user_id}` turns a record's ids into a scope. A placeholder value is
 * redacted (scopes are addresses: the write path stores them as given, so a secret in a conversation
 * title would be stored, and printed, in the scope), then made into one scope segment: a value that
 * is a valid segment already is kept as it is, any other gets a readable part and a digest of the
 * value (see {@link valueSegment}), so two different ids never share a scope; a record missing a
 * placeholder's value does not match the template, and the next template is tried.
 */
import { createRedactor, type Redactor } from '../../core/redact/redactor.js';
import { scopeProblem } from '../../core/scope.js';
import { scopeSegment } from '../../core/scope-segment.js';
import type { ImportContext } from './import-plan.js';

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The placeholders a template names, in order. */
export function placeholdersOf(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((m) => m[1] as string);
}

/**
 * Hex digits of the digest of a value that is not a valid segment: ids in scripts without Latin
 * letters all have the readable part `default`, and 64 bits keep millions of them apart.
 */
const DIGEST_LENGTH = 16;

/**
 * One value (an id, a title, a folder name) as a scope segment, distinct for distinct values. A value
 * that is a valid segment already (`[A-Za-z0-9_.-]`, not starting with `.`) is kept as it is, so a
 * re-import lands where earlier imports did; any other value becomes its readable part, `-` and 16
 * hex digits of the SHA-256 of its NFC form (the hooks' `{repo}` rule), so `张伟` and `李娜`, or
 * `bob@example.com` and `bob_example.com`, get two scopes, and `Été` composed or decomposed gets one.
 *
 * @example
 * ```ts
 * valueSegment('alice'); // 'alice'
 * valueSegment('alice@example.com'); // 'alice-example.com-' + 16 hex digits
 * ```
 */
export function valueSegment(value: string): string {
  const valid = !value.includes('/') && scopeProblem(value) === null;
  return valid ? value : scopeSegment(value, { digestLength: DIGEST_LENGTH });
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
    const scope = template.replace(PLACEHOLDER, (_m, name: string) => valueSegment(redactor.redact(all[name] as string).text));
    const problem = scopeProblem(scope);
    return problem === null ? { scope } : { problem: `scope "${scope.slice(0, 80)}" from --scope-template is invalid: ${problem}` };
  }
  if (context.scope !== undefined) return { scope: context.scope };
  if (missing.length > 0) return { problem: `no --scope-template matched (${missing.join('; ')}) and no --scope was given` };
  return { problem: 'no scope: pass --scope S or --scope-template T' };
}
