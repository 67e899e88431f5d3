/**
 * Applies import units to a store through the engine's public write calls (remember, relate,
 * registerRelation), so every import gets the write path's redaction, capture, supersession, dedup
 * and same-source idempotency: importing the same source twice creates nothing the second time.
 * Counts what happened to every record and lists every record left out, with why.
 *
 * A relation is redacted here, with the engine's redactor, before its type is named: a secret in a
 * source's relation type (`pushes with ghp_…`) becomes its kind in the name (`PUSHES_WITH_GITHUB_TOKEN`)
 * and its placeholder in the description and metadata, so the name is valid and holds no secret.
 */
import { isEngramError } from '../../core/errors.js';
import type { RelateInput, RelateResult } from '../../core/graph/relations-api.js';
import { redactValue } from '../../core/redact/redact-values.js';
import type { Redactor } from '../../core/redact/redactor.js';
import type { UpdateInput } from '../../core/schemas.js';
import { normalizeRedactedRelationName, redactRelationName, type RelationType } from '../../core/relations.js';
import { parseInput, rememberInputSchema, type RememberInput } from '../../core/schemas.js';
import type { RememberResult } from '../../core/write/remember.js';
import type { ImportUnit, SkippedRecord } from './import-plan.js';

/** The engine calls an import needs (an `Engram` is one). */
export interface ImportTarget {
  remember(inputs: readonly RememberInput[]): Promise<RememberResult[]>;
  relate(input: RelateInput): Promise<RelateResult>;
  registerRelation(input: {
    scope: string;
    name: string;
    symmetric?: boolean;
    proposedBy?: string;
    description?: string;
  }): Promise<RelationType>;
  relations(options: { scopes: string[] }): Promise<RelationType[]>;
  update(id: string, patch: UpdateInput, options: { scope: string }): Promise<unknown>;
  /** The engine's redactor (relation types, their descriptions and metadata are redacted before they are named). */
  readonly redactor: Redactor;
}

/** The latest imported version of each source identity, per scope (state kept in the store). */
export interface VersionLedger {
  latest(scope: string, identity: string): Promise<{ id: string; at: number } | undefined>;
  remember(scope: string, identity: string, version: { id: string; at: number }): Promise<void>;
  /**
   * Is the record `id` also the latest version of a source identity other than `identity`? Two sources
   * saying the same thing are one record (the write path merges them); a new version of one of them
   * must not end what the other still says.
   */
  sharedWith?(scope: string, id: string, identity: string): Promise<boolean>;
}

type Actions = Record<RememberResult['action'], number>;

/** What an import did: counts by outcome, the scopes written, and every skipped record with its reason. */
export interface ImportReport {
  source: string;
  /** Units read (conversations, sessions, batches of memories or notes, graphs). */
  units: number;
  /** Memories written (turns, facts, entities, notes), by what the write path did with each. */
  memories: Actions;
  /** Claims read from captured turns, by what the write path did with each. */
  claims: Actions;
  /** Edges: created, or already present (left as they were). */
  edges: { created: number; existing: number };
  /** Relation types registered for a tenant as proposed by this import. */
  registeredTypes: string[];
  /** Memories written per scope. */
  scopes: Record<string, number>;
  /** Secrets replaced by `[redacted:<kind>]`. */
  redacted: number;
  /** Skipped records by reason. */
  skippedByReason: Record<string, number>;
  /** Every skipped record. */
  skipped: SkippedRecord[];
}

/** Options of {@link applyImport}. */
export interface ApplyOptions {
  /** Who proposes relation types the import registers (default `import:<source>`). */
  proposedBy?: string;
  /** Most inputs per remember call (one transaction each; default 200). */
  batchSize?: number;
  /** Called after each unit is applied. */
  onUnit?: (unit: ImportUnit, report: ImportReport) => void;
  /** Where versions of memories with a source identity are tracked; without it versions are not linked. */
  versions?: VersionLedger;
}

/** A report with nothing counted yet. */
export function emptyReport(source: string): ImportReport {
  const actions = (): Actions => ({ created: 0, merged: 0, superseded: 0, unchanged: 0 });
  return {
    source,
    units: 0,
    memories: actions(),
    claims: actions(),
    edges: { created: 0, existing: 0 },
    registeredTypes: [],
    scopes: {},
    redacted: 0,
    skippedByReason: {},
    skipped: [],
  };
}

/** Records a skipped source record in `report`. */
export function skip(report: ImportReport, skipped: SkippedRecord): void {
  report.skipped.push(skipped);
  report.skippedByReason[skipped.reason] = (report.skippedByReason[skipped.reason] ?? 0) + 1;
}

/** Counts one write-path result (and its captured claims) in `report`. */
export function countResult(report: ImportReport, result: RememberResult, scope: string): void {
  report.memories[result.action] += 1;
  if (result.action === 'unchanged') return;
  report.scopes[scope] = (report.scopes[scope] ?? 0) + 1;
  report.redacted += result.redacted ?? 0;
  for (const claim of result.claims ?? []) report.claims[claim.action] += 1;
}

/** Applies `units` in order to `target`, returning the report. Each remember batch is its own transaction. */
export async function applyImport(
  target: ImportTarget,
  source: string,
  units: Iterable<ImportUnit> | AsyncIterable<ImportUnit>,
  options: ApplyOptions = {},
): Promise<ImportReport> {
  const report = emptyReport(source);
  const ids = new Map<string, { id: string; scope: string }>();
  const known = new Map<string, Set<string>>();
  const batchSize = Math.max(1, options.batchSize ?? 200);
  for await (const unit of units) {
    report.units += 1;
    for (const skipped of unit.skipped) skip(report, skipped);
    const valid = unit.memories.filter((memory) => {
      try {
        parseInput(rememberInputSchema, memory.input, memory.ref);
        return true;
      } catch (error) {
        if (!isEngramError(error)) throw error;
        skip(report, { ref: memory.ref, reason: `invalid for Engram: ${error.message.replace(/^Invalid input: /, '').slice(0, 300)}` });
        return false;
      }
    });
    for (let i = 0; i < valid.length; i += batchSize) {
      const batch = valid.slice(i, i + batchSize);
      const results = await target.remember(batch.map((m) => m.input));
      for (const [index, result] of results.entries()) {
        const planned = batch[index];
        if (planned === undefined) continue;
        const id = result.mergedInto ?? result.id;
        const replaced =
          planned.version !== undefined && options.versions !== undefined
            ? await closePrevious(target, options.versions, planned, { id, unchanged: result.action === 'unchanged' })
            : false;
        countResult(report, replaced && result.action === 'created' ? { ...result, action: 'superseded' } : result, planned.input.scope);
        ids.set(planned.key, { id, scope: planned.input.scope });
      }
    }
    for (const planned of unit.relations) {
      const { relation, redacted } = redactRelation(planned, target.redactor);
      const from = ids.get(relation.from);
      const to = ids.get(relation.to);
      if (from === undefined || to === undefined) {
        skip(report, { ref: relation.ref, reason: 'relation to a record that was not imported' });
        continue;
      }
      if (from.scope !== to.scope) {
        skip(report, { ref: relation.ref, reason: 'relation across scopes (edges connect records of one scope)' });
        continue;
      }
      if (from.id === to.id) {
        skip(report, { ref: relation.ref, reason: 'relation of a record to itself (both ends were merged into one memory)' });
        continue;
      }
      let type: string;
      try {
        type = relationTypeName(relation.type, target.redactor);
      } catch (error) {
        if (!isEngramError(error)) throw error;
        skip(report, { ref: relation.ref, reason: 'relation type is not letters, digits and underscores' });
        continue;
      }
      if (!(await ensureType(target, known, from.scope, type, relation, options.proposedBy ?? `import:${source}`, report))) continue;
      const result = await target.relate({
        scope: from.scope,
        from: from.id,
        to: to.id,
        type,
        ...(relation.metadata !== undefined ? { metadata: relation.metadata } : {}),
      });
      if (result.action === 'created') {
        report.edges.created += 1;
        report.redacted += redacted;
      } else report.edges.existing += 1;
    }
    options.onUnit?.(unit, report);
  }
  return report;
}

/** Most characters of a registered type's description (the registry's bound). */
const MAX_DESCRIPTION = 2_000;

/**
 * A planned relation with the secrets of its type, registration and metadata replaced (and its `ref`,
 * which reports print), and how many the edge's type and metadata held. `from` and `to` are keys.
 */
function redactRelation(
  planned: ImportUnit['relations'][number],
  redactor: Redactor,
): { relation: ImportUnit['relations'][number]; redacted: number } {
  const { from, to, register, ...rest } = planned;
  const edge = redactValue({ type: rest.type, ...(rest.metadata !== undefined ? { metadata: rest.metadata } : {}) }, redactor);
  const relation = {
    ...rest,
    from,
    to,
    type: edge.value.type,
    ...(edge.value.metadata !== undefined ? { metadata: edge.value.metadata } : {}),
    ...(register !== undefined
      ? { register: { ...register, description: redactor.redact(register.description).text.slice(0, MAX_DESCRIPTION) } }
      : {}),
    ref: redactor.redact(rest.ref).text,
  };
  return { relation, redacted: edge.count };
}

/**
 * The registry name of a redacted relation type: a placeholder reads as its kind. A name read again
 * may still hold a secret its source did not show (upper-cased, an AWS key id written in lower case):
 * that is reduced to its kind too, so neither `registerRelation` nor `relate` finds one in it.
 */
function relationTypeName(type: string, redactor: Redactor): string {
  const name = normalizeRedactedRelationName(type);
  const held = redactRelationName(name, redactor);
  return held.kinds.length === 0 ? name : normalizeRedactedRelationName(held.name);
}

/**
 * A new version of a source identity ends the validity of the version imported before it (at the
 * new version's instant) and becomes the latest; true when an older version was ended.
 */
async function closePrevious(
  target: ImportTarget,
  versions: VersionLedger,
  planned: ImportUnit['memories'][number],
  written: { id: string; unchanged: boolean },
): Promise<boolean> {
  const { scope } = planned.input;
  const { id } = written;
  const version = planned.version as { identity: string; at: number };
  const previous = await versions.latest(scope, version.identity);
  if (previous?.id === id) return false;
  // a version already stored (an older export imported again) changes nothing
  if (written.unchanged) {
    if (previous === undefined) await versions.remember(scope, version.identity, { id, at: version.at });
    return false;
  }
  if (previous !== undefined && previous.at > version.at) {
    // an older version arriving after a newer one held until the newer one began
    await target.update(id, { validTo: previous.at }, { scope });
    return false;
  }
  let replaced = false;
  if (previous !== undefined && previous.at < version.at && (await versions.sharedWith?.(scope, previous.id, version.identity)) !== true) {
    try {
      await target.update(previous.id, { validTo: version.at }, { scope });
      replaced = true;
    } catch (error) {
      // the previous version is gone (forgotten, purged): the new one simply starts
      if (!isEngramError(error) || error.code !== 'NOT_FOUND') throw error;
    }
  }
  await versions.remember(scope, version.identity, { id, at: version.at });
  return replaced;
}

/** Makes sure `type` is usable in `scope`: built in, already registered, or registered now as proposed. */
async function ensureType(
  target: ImportTarget,
  known: Map<string, Set<string>>,
  scope: string,
  type: string,
  relation: ImportUnit['relations'][number],
  proposedBy: string,
  report: ImportReport,
): Promise<boolean> {
  let names = known.get(scope);
  if (names === undefined) {
    names = new Set((await target.relations({ scopes: [scope] })).map((t) => t.name));
    known.set(scope, names);
  }
  if (names.has(type)) return true;
  if (relation.register === undefined) {
    skip(report, { ref: relation.ref, reason: `relation type ${type} is not registered` });
    return false;
  }
  await target.registerRelation({
    scope,
    name: type,
    proposedBy,
    description: relation.register.description,
    ...(relation.register.symmetric !== undefined ? { symmetric: relation.register.symmetric } : {}),
  });
  names.add(type);
  if (!report.registeredTypes.includes(type)) report.registeredTypes.push(type);
  return true;
}
