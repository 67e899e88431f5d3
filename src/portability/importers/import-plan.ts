/**
 * What an importer yields: units of work (a conversation, a session, a note, a graph), each with the
 * memories to remember (keyed, so relations can name them before they have ids), the relations
 * between them, the relation types they need, and every source record left out, with why.
 * Importers are pure: they read parsed JSON or text and never touch a file or a store.
 */
import type { Redactor } from '../../core/redact/redactor.js';
import type { RememberInput } from '../../core/schemas.js';

/** One memory to remember, named by a key unique within the import. */
export interface PlannedMemory {
  key: string;
  input: RememberInput;
  /** Where the record came from, for reports ("conversation 6f1…, message 9a2…"). */
  ref: string;
  /**
   * The source's own id of what this memory describes, the same across versions (a mem0 memory id),
   * with the instant this version holds from: a new version ends the previous one's validity there.
   */
  version?: { identity: string; at: number };
}

/** An edge between two planned memories (by key) of one scope. */
export interface PlannedRelation {
  from: string;
  to: string;
  /** A relation type as the source names it (`works_at`, `links to`); normalised by the registry. */
  type: string;
  /** Register the type for the tenant as proposed when the registry does not know it. */
  register?: { description: string; symmetric?: boolean };
  metadata?: Record<string, unknown>;
  ref: string;
}

/** A source record that was not imported, and why (reports group by `reason`). */
export interface SkippedRecord {
  ref: string;
  reason: string;
}

/** One unit of an import, applied in order; later units may relate to earlier units' keys. */
export interface ImportUnit {
  /** What the progress bar and the report call it. */
  label: string;
  memories: PlannedMemory[];
  relations: PlannedRelation[];
  skipped: SkippedRecord[];
}

/** Flags every importer understands: where records go and when they happened, when the source does not say. */
export interface ImportContext {
  /** Every record goes into this scope (unless a template is given and resolves). */
  scope?: string;
  /** Scope templates tried in order; the first whose placeholders all resolve is used (see `scope-template.ts`). */
  scopeTemplates?: readonly string[];
  /** Placeholder values that come from flags rather than records (`{tenant}`). */
  values?: Readonly<Record<string, string>>;
  /** Epoch ms for records without a time of their own; without it such records are skipped. */
  defaultTime?: number;
  /**
   * Redacts placeholder values before they become scope segments (the engine's, so its patterns and
   * its switch apply); without one, the built-in detectors do.
   */
  redactor?: Redactor;
}

/** A fresh, empty unit. */
export function emptyUnit(label: string): ImportUnit {
  return { label, memories: [], relations: [], skipped: [] };
}
