/**
 * `redact`: cleans what was stored before, scope by scope in pages of records (any status, chunks
 * included). A record with a secret in any field (content, summary, tags, entities, sources, history
 * wordings, episode fields) is rewritten and re-embedded from the cleaned text, in one transaction per
 * page; the text index follows the row. Edge metadata and the scopes' state documents are cleaned the
 * same way, and so are the descriptions and proposers of the relation types the scopes' tenants
 * registered; a type whose name holds a secret is reported, not renamed (its edges and the callers that
 * relate with it use the name). At the end the store compacts its indexes and files (`scrubDeleted`), so
 * the old text is not left on disk.
 */
import type { MemoryRecord } from '../memory.js';
import type { Clock } from '../ports/clock.js';
import type { Embedder } from '../ports/embedder.js';
import type { StateEntry, Store, StoreTransaction } from '../ports/store.js';
import { reembedText } from '../reembed/reembed-text.js';
import { redactRelationName, type RelationType } from '../relations.js';
import type { Scope } from '../scope.js';
import { redactRecord, redactValue } from './redact-values.js';
import { Redactor } from './redactor.js';

/** Input of `redact`. */
export interface RedactInput {
  /** The scopes to clean (each one whole). */
  scopes: readonly Scope[];
  /** Count what would change, write nothing. */
  dryRun?: boolean;
}

/** What `redact` found and changed. */
export interface RedactReport {
  dryRun: boolean;
  scopes: Scope[];
  /** Records read. */
  scanned: number;
  /** Records that held a secret (rewritten unless `dryRun`). */
  records: number;
  /** Records re-embedded from their cleaned text. */
  reembedded: number;
  /** Edges whose metadata held a secret. */
  edges: number;
  /** Relation types registered by the scopes' tenants whose description or proposer held a secret. */
  relationTypes: number;
  /**
   * State documents of the scopes that held a secret (an assistant's open question, a caution, a
   * consolidation report…), rewritten unless `dryRun`.
   */
  states: number;
  /**
   * Registered relation type names that hold a secret, shown redacted. They are not renamed (edges use
   * the name): rotate the secret, and relate with a new type if the name must go.
   */
  relationNames: string[];
  /** Secrets replaced. */
  redacted: number;
  /** Secrets replaced, by kind. */
  kinds: Record<string, number>;
}

export interface RedactDeps {
  store: Store;
  embedder: Embedder;
  clock: Clock;
  redactor: Redactor;
}

/** Records read and rewritten per transaction. */
const PAGE = 200;

interface Change {
  record: MemoryRecord;
  patch: ReturnType<typeof redactRecord>['patch'];
  /** The text the cleaned record is embedded from, when the cleaning changed it. */
  text?: string;
}

/** Cleans the stored records of `input.scopes`; see the module comment. */
/** Every secret the detectors find in the records of `scope` (secret → kind), read page by page. */
async function secretsOf(store: RedactDeps['store'], scope: Scope, redactor: Redactor): Promise<Map<string, string>> {
  const known = new Map<string, string>();
  let afterId: string | undefined;
  for (;;) {
    const page = await store.listMemories({ scopes: [scope], limit: PAGE, ...(afterId !== undefined ? { afterId } : {}) });
    if (page.length === 0) return known;
    afterId = (page[page.length - 1] as MemoryRecord).id;
    for (const record of page) for (const [secret, kind] of redactRecord(record, redactor).found) known.set(secret, kind);
  }
}

export async function redactStored(deps: RedactDeps, input: RedactInput): Promise<RedactReport> {
  // the command cleans even when redaction of new writes is switched off
  const redactor = deps.redactor.enabled ? deps.redactor : new Redactor({ ...deps.redactor.options, enabled: true });
  const dryRun = input.dryRun === true;
  const report: RedactReport = {
    dryRun,
    scopes: [...input.scopes],
    scanned: 0,
    records: 0,
    reembedded: 0,
    edges: 0,
    relationTypes: 0,
    states: 0,
    relationNames: [],
    redacted: 0,
    kinds: {},
  };
  const tally = (count: number, kinds: Record<string, number>): void => {
    report.redacted += count;
    for (const [kind, n] of Object.entries(kinds)) report.kinds[kind] = (report.kinds[kind] ?? 0) + n;
  };
  let written = false;
  // an edge between records of two pages is read twice: it counts once
  const seenEdges = new Set<string>();
  for (const scope of input.scopes) {
    // the secrets of the whole scope first: a record derived from another before redaction (a concept's
    // name, a claim's value) holds a copy no detector finds on its own ("ghp zq8vb…")
    const known = await secretsOf(deps.store, scope, redactor);
    let afterId: string | undefined;
    for (;;) {
      const page = await deps.store.listMemories({ scopes: [scope], limit: PAGE, ...(afterId !== undefined ? { afterId } : {}) });
      if (page.length === 0) break;
      afterId = (page[page.length - 1] as MemoryRecord).id;
      report.scanned += page.length;
      const changes: Change[] = [];
      for (const record of page) {
        const { patch, count, kinds } = redactRecord(record, redactor, known);
        if (count === 0) continue;
        tally(count, kinds);
        changes.push(withText(record, patch));
      }
      report.records += changes.length;
      const edgeChanges = await cleanEdges(
        deps.store,
        scope,
        page.map((r) => r.id),
        { redactor, seen: seenEdges, known },
      );
      for (const edge of edgeChanges) tally(edge.count, edge.kinds);
      report.edges += edgeChanges.length;
      if (dryRun || (changes.length === 0 && edgeChanges.length === 0)) continue;
      const embedded = changes.filter((c) => c.text !== undefined);
      const vectors = embedded.length > 0 ? await deps.embedder.embed(embedded.map((c) => c.text as string)) : [];
      const vectorOf = new Map(embedded.map((c, i) => [c.record.id, vectors[i] as Float32Array]));
      await deps.store.transaction(async (tx) => {
        report.reembedded += await rewrite(tx, scope, changes, vectorOf, { ...deps, redactor });
        for (const edge of edgeChanges) await tx.updateEdge(edge.id, scope, { metadata: edge.metadata });
      });
      written = true;
    }
    const states = await cleanStates(deps.store, scope, { redactor, known });
    for (const state of states) tally(state.count, state.kinds);
    report.states += states.length;
    if (!dryRun && states.length > 0) {
      await deps.store.transaction(async (tx) => {
        for (const state of states) await tx.setState(scope, state.key, state.value, deps.clock.now());
      });
      written = true;
    }
  }
  const types = await cleanRelationTypes(deps.store, input.scopes, redactor);
  for (const type of types.changed) tally(type.count, type.kinds);
  report.relationTypes = types.changed.length;
  report.relationNames = types.names;
  if (!dryRun && types.changed.length > 0) {
    await deps.store.transaction(async (tx) => {
      for (const { type, patch } of types.changed) await tx.updateRelationType(type.tenant as string, type.name, patch);
    });
    written = true;
  }
  if (written) await deps.store.scrubDeleted(input.scopes);
  return report;
}

/** State documents read per page. */
const STATE_PAGE = 500;

/**
 * The state documents of `scope` that hold a secret, with their cleaned values: the question an
 * assistant turn left open is a copy of that turn's text, and a later answer is read (and stored) with it.
 */
async function cleanStates(
  store: Store,
  scope: Scope,
  options: { redactor: Redactor; known: ReadonlyMap<string, string> },
): Promise<{ key: string; value: unknown; count: number; kinds: Record<string, number> }[]> {
  const changed: { key: string; value: unknown; count: number; kinds: Record<string, number> }[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await store.listState(scope, '', STATE_PAGE, after !== undefined ? { after } : {});
    for (const entry of page) {
      const { value, count, kinds } = redactValue(entry.value, options.redactor, [], options.known);
      if (count > 0) changed.push({ key: entry.key, value, count, kinds });
    }
    if (page.length < STATE_PAGE) return changed;
    after = (page[page.length - 1] as StateEntry).key;
  }
}

interface RelationTypeChange {
  type: RelationType;
  patch: { description?: string | null; proposedBy?: string | null };
  count: number;
  kinds: Record<string, number>;
}

/**
 * The relation types the tenants of `scopes` registered (never the built-ins) whose description or
 * proposer holds a secret, with the cleaned values; and the names holding one, redacted (see
 * {@link redactRelationName}).
 */
async function cleanRelationTypes(
  store: Store,
  scopes: readonly Scope[],
  redactor: Redactor,
): Promise<{ changed: RelationTypeChange[]; names: string[] }> {
  const changed: RelationTypeChange[] = [];
  const names: string[] = [];
  for (const type of await store.getRelationTypes(scopes)) {
    if (type.builtIn || type.tenant === null) continue;
    const fields = { description: type.description, proposedBy: type.proposedBy };
    const { value, count, kinds } = redactValue(fields, redactor);
    if (count > 0) {
      const patch: RelationTypeChange['patch'] = {};
      if (value.description !== fields.description) patch.description = value.description;
      if (value.proposedBy !== fields.proposedBy) patch.proposedBy = value.proposedBy;
      changed.push({ type, patch, count, kinds });
    }
    const held = redactRelationName(type.name, redactor, [type.description, type.proposedBy]);
    if (held.kinds.length > 0) names.push(held.name);
  }
  return { changed, names };
}

/** The change of one record, with the text to embed when the cleaning changed what it is embedded from. */
function withText(record: MemoryRecord, patch: Change['patch']): Change {
  const before = reembedText(record);
  const after = reembedText({ ...record, ...patch });
  return after === before ? { record, patch } : { record, patch, text: after };
}

/**
 * Writes the changes of one page inside its transaction. A record changed since it was read (another
 * writer) is cleaned again from its current state, and embedded here if its text differs.
 */
async function rewrite(
  tx: StoreTransaction,
  scope: Scope,
  changes: readonly Change[],
  vectorOf: ReadonlyMap<string, Float32Array>,
  deps: RedactDeps,
): Promise<number> {
  const current = new Map(
    (
      await tx.getMemories(
        changes.map((c) => c.record.id),
        [scope],
      )
    ).map((r) => [r.id, r]),
  );
  const now = deps.clock.now();
  let reembedded = 0;
  for (const change of changes) {
    const fresh = current.get(change.record.id);
    if (fresh === undefined) continue;
    let { patch, text } = change;
    let vector = vectorOf.get(fresh.id);
    if (fresh.updatedAt !== change.record.updatedAt) {
      const again = withText(fresh, redactRecord(fresh, deps.redactor).patch);
      if (Object.keys(again.patch).length === 0) continue;
      if (again.text !== text) vector = again.text === undefined ? undefined : (await deps.embedder.embed([again.text]))[0];
      ({ patch, text } = again);
    }
    await tx.updateMemory(fresh.id, scope, { ...patch, updatedAt: now });
    if (text !== undefined && vector !== undefined) {
      await tx.updateEmbedding(fresh.id, scope, vector);
      reembedded += 1;
    }
  }
  return reembedded;
}

/**
 * Edges of `ids` not `seen` yet whose metadata holds a secret, with the cleaned metadata. The scope's
 * `known` secrets are replaced there too: the cycle writes copies of a record's words into edges (a
 * co-occurrence's concept names, a supersession's reason) that no detector finds on their own.
 */
async function cleanEdges(
  store: Store,
  scope: Scope,
  ids: readonly string[],
  { redactor, seen, known }: { redactor: Redactor; seen: Set<string>; known: ReadonlyMap<string, string> },
): Promise<{ id: string; metadata: Record<string, unknown>; count: number; kinds: Record<string, number> }[]> {
  const out: { id: string; metadata: Record<string, unknown>; count: number; kinds: Record<string, number> }[] = [];
  for (const edge of await store.getEdges({ scopes: [scope], ids })) {
    if (seen.has(edge.id)) continue;
    seen.add(edge.id);
    const { value, count, kinds } = redactValue(edge.metadata, redactor, [], known);
    if (count > 0) out.push({ id: edge.id, metadata: value, count, kinds });
  }
  return out;
}
