/**
 * The relationship registry: built-in edge types with their direction, plus types an agent
 * registers at run time (persisted by the store, marked proposed, with who proposed them). Registered
 * types belong to the tenant that registered them; built-ins belong to every tenant.
 */
import { EngramError, messages } from './errors.js';
import { redactValue } from './redact/redact-values.js';
import type { Redactor } from './redact/redactor.js';
import { scopeProblem, tenantOf, type Scope } from './scope.js';
import { cutText } from './text/cut-text.js';

/** One edge type of the registry. */
export interface RelationType {
  /** UPPER_SNAKE_CASE, e.g. `IS_A`. */
  name: string;
  /** Symmetric edges read the same from both ends (`A RELATED_TO B` is `B RELATED_TO A`). */
  symmetric: boolean;
  /** Shipped with Engram (true) or proposed at run time (false). */
  builtIn: boolean;
  /** Who proposed a run-time type (agent or person); null for built-ins. */
  proposedBy: string | null;
  description: string | null;
  /** Epoch ms the type was registered (0 for built-ins). */
  registeredAt: number;
  /** The tenant whose scopes may use a registered type; null for built-ins (every tenant). */
  tenant: string | null;
}

/** The edge types that link a decision chain (MAPLE's third layer): see `src/core/chains/`. */
export const CHAIN_RELATIONS = ['DECIDED', 'REJECTED', 'LED_TO'] as const;

/** The built-in relation types, seeded into every store. */
export const BUILT_IN_RELATIONS: readonly RelationType[] = Object.freeze(
  (
    [
      ['IS_A', false, 'a kind of: coffee_mug IS_A container'],
      ['HAS_PART', false, 'whole to part: robot_arm HAS_PART gripper'],
      ['CAUSES', false, 'cause to effect: grasp_action CAUSES object_held'],
      ['PREDICTS', false, 'antecedent to expected outcome: morning_activity PREDICTS high_success'],
      ['PHASE_LOCKED_TO', false, 'a metric locked to a cycle (metadata: phase, coupling)'],
      ['RELATED_TO', true, 'co-occurrence; weight is the Jaccard similarity of shared episodes'],
      ['TRENDS_WITH', true, 'two metrics moving together over time'],
      ['CORRELATES_WITH', true, 'a confirmed cross-metric correlation'],
      ['DERIVED_FROM', false, 'provenance: a derived record to its evidence'],
      ['SUPERSEDES', false, 'a newer claim to the claim it replaced'],
      ['STATISTICALLY_CONFIRMS', false, 'a statistical record to the knowledge it confirms'],
      ['MENTIONS', false, 'a record to a concept it mentions'],
      ['BRIDGES', true, 'two distant memories that share rare concepts, entities or a causal link (metadata: evidenceIds, shared)'],
      ['DECIDED', false, 'decision chains: a rationale or deliberation to the decision it settled on'],
      ['REJECTED', false, 'decision chains: a decision to an alternative it turned down'],
      ['LED_TO', false, 'decision chains: a decision to its outcome or to a follow-up decision'],
    ] as const
  ).map(([name, symmetric, description]) =>
    Object.freeze({ name, symmetric, builtIn: true, proposedBy: null, description, registeredAt: 0, tenant: null }),
  ),
);

const RELATION_NAME = /^[A-Z][A-Z0-9_]{0,63}$/;

/**
 * Normalises a relation type name as typed (`related to`, `Related-To` → `RELATED_TO`) and validates it.
 *
 * @example
 * ```ts
 * normalizeRelationName('is a'); // 'IS_A'
 * ```
 */
export function normalizeRelationName(name: string): string {
  const normalised = String(name)
    .trim()
    .replace(/[\s-]+/g, '_')
    .toUpperCase();
  if (!RELATION_NAME.test(normalised)) {
    throw new EngramError(
      'INVALID_INPUT',
      messages.invalidInput(
        `relation type "${cutText(String(name), 80)}" must be letters, digits and underscores, starting with a letter, at most 64 characters (e.g. IS_A)`,
      ),
      { details: { field: 'type' } },
    );
  }
  return normalised;
}

/** A placeholder of the redactor (`[redacted:github-token]`), its kind captured. */
const PLACEHOLDER = /\[redacted:([a-z0-9-]+)\]/g;

/**
 * The relation type name of a text whose secrets were redacted: each placeholder reads as its kind,
 * then {@link normalizeRelationName} (a placeholder's brackets and colon cannot be in a name).
 *
 * @example
 * ```ts
 * normalizeRedactedRelationName('pushes with [redacted:github-token]'); // 'PUSHES_WITH_GITHUB_TOKEN'
 * ```
 */
export function normalizeRedactedRelationName(text: string): string {
  return normalizeRelationName(String(text).replace(PLACEHOLDER, '$1'));
}

/** The shortest run of words of a name read as a possible secret (no detector finds a shorter one). */
const MIN_SECRET_PIECE = 8;

/**
 * A relation type name with the secrets it holds replaced by their placeholders (not a valid name:
 * for refusing or reporting it). Names are upper-cased with `_` between words, which hides a secret
 * from its detector (`PUSHES_WITH_GHP_…` holds the GitHub token `ghp_…`, `KEY_AKIA…` an AWS key id):
 * each run of its words is read alone, as given and in lower case. Copies of the secrets `quoted`
 * holds (its description) count too.
 *
 * @example
 * ```ts
 * redactRelationName('PUSHES_WITH_GHP_…', createRedactor()); // { name: 'PUSHES_WITH_[redacted:github-token]', kinds: ['github-token'] }
 * ```
 */
export function redactRelationName(
  name: string,
  redactor: Redactor,
  quoted: readonly (string | null)[] = [],
): { name: string; kinds: string[] } {
  const words = name.split('_');
  const pieces: string[] = [];
  for (let start = 0; start < words.length; start += 1) {
    for (let end = start + 1; end <= words.length; end += 1) {
      const piece = words.slice(start, end).join('_');
      if (piece.length >= MIN_SECRET_PIECE) pieces.push(piece, piece.toLowerCase());
    }
  }
  const { value, kinds } = redactValue({ name, pieces, quoted }, redactor);
  return { name: value.name, kinds: value.name === name ? [] : Object.keys(kinds) };
}

/**
 * Whether edges of a type are symmetric in a given scope, from a registry read for that scope's
 * tenant (two tenants may register the same name with different directions).
 *
 * @example
 * ```ts
 * const isSymmetric = symmetryOf(await store.getRelationTypes(scopes));
 * isSymmetric('acme/a', 'RELATED_TO'); // true
 * ```
 */
export function symmetryOf(types: readonly RelationType[]): (scope: Scope, type: string) => boolean {
  const builtIn = new Map<string, boolean>(BUILT_IN_RELATIONS.map((t) => [t.name, t.symmetric]));
  const registered = new Map<string, boolean>();
  for (const t of types) {
    if (t.tenant === null) builtIn.set(t.name, t.symmetric);
    else registered.set(`${t.tenant}\u0000${t.name}`, t.symmetric);
  }
  return (scope, type) => builtIn.get(type) ?? registered.get(`${tenantOf(scope)}\u0000${type}`) ?? false;
}

/**
 * A registry read plus the built-in types a store seeded before they shipped (a store seeds the
 * built-ins when it is created; types added to Engram later are known from this list).
 *
 * @example
 * ```ts
 * withBuiltInRelations(await store.getRelationTypes(scopes)).some((t) => t.name === 'BRIDGES'); // true
 * ```
 */
export function withBuiltInRelations(types: readonly RelationType[]): RelationType[] {
  const present = new Set(types.filter((t) => t.tenant === null).map((t) => t.name));
  const missing = BUILT_IN_RELATIONS.filter((t) => !present.has(t.name));
  return missing.length === 0
    ? [...types]
    : [...types, ...missing].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : (a.tenant ?? '') < (b.tenant ?? '') ? -1 : 1));
}

/** The tenant of a type to register: one valid scope segment (registered types always have one). */
export function assertRelationTenant(tenant: unknown): string {
  const problem = typeof tenant === 'string' && tenant.includes('/') ? 'a tenant is one segment, without "/"' : scopeProblem(tenant);
  if (problem !== null) {
    throw new EngramError(
      'INVALID_INPUT',
      messages.invalidInput(`the tenant of a registered relation type is invalid (${problem}); register it with the scope it is for`),
      {
        details: { field: 'tenant' },
      },
    );
  }
  return tenant as string;
}

/** A type registered again with the other direction. */
export function relationConflict(name: string, storedSymmetric: boolean): EngramError {
  return new EngramError(
    'CONFLICT',
    `Relation type ${name} is already registered as ${storedSymmetric ? 'symmetric' : 'directed'}; register a new name instead of changing its direction.`,
    { details: { name } },
  );
}
