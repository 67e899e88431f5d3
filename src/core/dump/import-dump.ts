/**
 * Reading a dump back: line by line (constant memory), each kind batched into short transactions of
 * raw restores that keep ids and every field. Idempotent, hence resumable: what a killed import
 * committed is found again and skipped, so running it again finishes the job with the same store.
 * With the importing engine's redaction on, each line's text is redacted first (see `ImportDumpDeps`).
 */
import type { z } from 'zod';
import { EngramError, isEngramError, messages } from '../errors.js';
import type { BeliefInterval, Edge, Layer, MemoryRecord, NewMemory } from '../memory.js';
import type { Embedder } from '../ports/embedder.js';
import { CONCEPT_REFS_CAP, type Store, type StoreReader } from '../ports/store.js';
import { DumpLineRedaction } from '../redact/redact-dump-line.js';
import { createRedactor, type Redactor } from '../redact/redactor.js';
import { reembedText } from '../reembed/reembed-text.js';
import { tenantOf, type Scope } from '../scope.js';
import { upgradeSourceKey } from '../write/new-record.js';
import { cutText } from '../text/cut-text.js';
import {
  canonicalJson,
  decodeVector,
  DUMP_FORMAT,
  DUMP_VERSION,
  dumpHeaderSchema,
  dumpLineSchema,
  type DumpHeader,
  type DumpLine,
} from './dump-format.js';
import { splitLines, type NumberedLine } from './dump-lines.js';

/** What happened to the lines of one kind. */
export interface DumpImportCounts {
  /** Written now. */
  created: number;
  /** Already in the store exactly as dumped, with the same belief intervals (a second import, or a resumed one). */
  skipped: number;
  /**
   * Already in the store with other content: the store's version is kept; or (an edge, a concept ref)
   * naming a record that neither the dump nor the store holds, and left out. Listed in `conflicts`.
   */
  conflicting: number;
}

export type DumpImportKind = 'record' | 'edge' | 'conceptRef' | 'relationType' | 'state' | 'audit';

/** What `importDump` did. */
export interface DumpImportReport {
  /** The dump's model, the store's, and where the vectors came from. */
  embedder: { dump: string; store: string; vectors: 'dump' | 'embedded' };
  /** Records embedded by the store's model (the dump had no usable vector for them). */
  embedded: number;
  lines: number;
  counts: Record<DumpImportKind, DumpImportCounts>;
  /** The first 100 lines counted as `conflicting`, with the reason. */
  conflicts: { kind: DumpImportKind; scope: string; key: string; reason: string }[];
  /** The end line was read and its counts matched. */
  complete: boolean;
  /**
   * Secrets the importing store's redaction replaced in the lines read (absent when none): counted on
   * every run, so a second import of the same dump counts them again and writes nothing.
   */
  redacted?: number;
}

export interface ImportDumpOptions {
  /** Called with every scope a line writes, before anything is written; throw to refuse it. */
  permitScope?: (scope: Scope) => void;
  /**
   * Called with every tenant of the header's scopes before anything is written, and with the tenant of
   * each relation type line; throw to refuse it. Without it, `permitScope` is asked with a relation
   * type line's tenant.
   */
  permitTenant?: (tenant: string) => void;
  /** Records per transaction (default 128); other kinds take four times as many. */
  batchSize?: number;
  /** Called after every committed batch with the report so far. */
  onProgress?: (report: DumpImportReport) => void;
}

export interface ImportDumpDeps {
  store: Store;
  embedder: Embedder;
  /**
   * The importing engine's redactor: when on, every line's text is redacted before it is compared with
   * the store and written, as on every write path. Without one (a backend migration), or off, lines are
   * written exactly as dumped.
   */
  redactor?: Redactor;
}

const MAX_CONFLICTS = 100;
type Line<K extends DumpLine['kind']> = Extract<DumpLine, { kind: K }> & { number: number };

/**
 * Imports a dump written by `exportDump` from `source` (chunks of text or bytes: a Node Readable, a
 * fetch body, an array of strings). Throws `INVALID_INPUT` naming the line for anything that is not a
 * dump line (a remember-input file gets a hint), after committing the batches before it.
 *
 * @example
 * ```ts
 * const report = await importDump({ store, embedder }, createReadStream('acme.jsonl'));
 * ```
 */
export async function importDump(
  deps: ImportDumpDeps,
  source: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>,
  options: ImportDumpOptions = {},
): Promise<DumpImportReport> {
  const run = new DumpImport(deps, options);
  let header: DumpHeader | undefined;
  for await (const line of splitLines(source)) {
    const value = parseJson(line);
    if (header === undefined) {
      header = parseHeader(value, line);
      run.begin(header);
      continue;
    }
    await run.add(parseLine(value, line), line.number);
  }
  if (header === undefined) throw new EngramError('INVALID_INPUT', messages.invalidInput(EMPTY_DUMP));
  await run.flush();
  return run.finish();
}

/**
 * The header of the dump `source` starts with, read as `importDump` reads it (the same refusals: an empty
 * file, a line that is not JSON, a file of remember inputs, a newer version); only the first line is read,
 * so a caller can check a file before opening a store for it.
 *
 * @example
 * ```ts
 * const { embedder } = await readDumpHeader(createReadStream('acme.jsonl'));
 * ```
 */
export async function readDumpHeader(source: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>): Promise<DumpHeader> {
  for await (const line of splitLines(source)) return parseHeader(parseJson(line), line);
  throw new EngramError('INVALID_INPUT', messages.invalidInput(EMPTY_DUMP));
}

const EMPTY_DUMP = 'the file is empty: pass a dump written by "engram export jsonl"';

function parseJson(line: NumberedLine): unknown {
  try {
    return JSON.parse(line.text);
  } catch {
    throw new EngramError(
      'INVALID_INPUT',
      messages.invalidInput(
        `line ${line.number} is not JSON${line.number === 1 ? ': this is not an Engram dump (engram export jsonl writes one)' : ''}`,
      ),
      {
        details: { line: line.number },
      },
    );
  }
}

function parseHeader(value: unknown, line: NumberedLine): DumpHeader {
  const object = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  if (object.format !== DUMP_FORMAT) {
    const remember = typeof object.content === 'string';
    throw new EngramError(
      'INVALID_INPUT',
      remember
        ? 'This is a file of remember inputs (one memory per line), not an Engram dump: load it with "engram remember --file FILE". "engram import jsonl" reads what "engram export jsonl" writes.'
        : messages.invalidInput(
            'line 1 is not the header of an Engram dump ({"format":"engram-dump",…}): pass a file written by "engram export jsonl"',
          ),
      { details: { line: line.number } },
    );
  }
  if (typeof object.version === 'number' && object.version > DUMP_VERSION) {
    throw new EngramError(
      'INVALID_INPUT',
      messages.invalidInput(
        `this dump has format version ${object.version}, newer than this Engram reads (${DUMP_VERSION}): import it with a newer Engram`,
      ),
      {
        details: { version: object.version },
      },
    );
  }
  return validated(dumpHeaderSchema, value, line);
}

function parseLine(value: unknown, line: NumberedLine): DumpLine {
  const failure = exportFailure(value);
  if (failure !== null) {
    throw new EngramError(
      'INVALID_INPUT',
      `Line ${line.number} is the error that stopped the export writing this dump, so the dump is incomplete: ${cutText(failure, 500)} Fix that, then export again.`,
      { details: { line: line.number } },
    );
  }
  return validated(dumpLineSchema, value, line);
}

/** The message of an export's error line (`{"error": {"code", "message"}}`, written over HTTP after a 200), or null. */
function exportFailure(value: unknown): string | null {
  if (value === null || typeof value !== 'object' || 'kind' in value || !('error' in value)) return null;
  const { error } = value as { error: unknown };
  if (error === null || typeof error !== 'object') return null;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return typeof message === 'string' ? `${typeof code === 'string' ? `${code}: ` : ''}${message}` : null;
}

function validated<T>(schema: z.ZodType<T>, value: unknown, line: NumberedLine): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.map(String).join('.');
  throw new EngramError(
    'INVALID_INPUT',
    messages.invalidInput(`line ${line.number}${field.length > 0 ? `, field "${field}"` : ''}: ${issue.message}`),
    {
      details: { line: line.number, field },
    },
  );
}

class DumpImport {
  readonly #deps: ImportDumpDeps;
  readonly #options: ImportDumpOptions;
  readonly #batchSize: number;
  readonly #redaction: DumpLineRedaction;
  #useVectors = false;
  #batch: (DumpLine & { number: number })[] = [];
  readonly #seen: Record<string, number> = {};
  #ended = false;
  /** The header's scopes and their tenants: every line must write within them (see `add`). */
  #scopes = new Set<string>();
  #tenants = new Set<string>();
  readonly report: DumpImportReport;

  constructor(deps: ImportDumpDeps, options: ImportDumpOptions) {
    this.#deps = deps;
    this.#options = options;
    this.#batchSize = Math.max(1, Math.floor(options.batchSize ?? 128));
    this.#redaction = new DumpLineRedaction(deps.redactor ?? createRedactor({ enabled: false }));
    const counts = () => ({ created: 0, skipped: 0, conflicting: 0 });
    this.report = {
      embedder: { dump: '', store: deps.embedder.name, vectors: 'embedded' },
      embedded: 0,
      lines: 0,
      counts: { record: counts(), edge: counts(), conceptRef: counts(), relationType: counts(), state: counts(), audit: counts() },
      conflicts: [],
      complete: false,
    };
  }

  begin(header: DumpHeader): void {
    this.report.lines = 1;
    this.report.embedder.dump = header.embedder.name;
    this.#useVectors =
      header.embeddings && header.embedder.name === this.#deps.embedder.name && header.embedder.dimension === this.#deps.embedder.dimension;
    if (this.#useVectors) this.report.embedder.vectors = 'dump';
    this.#scopes = new Set(header.scopes);
    this.#tenants = new Set(header.scopes.map(tenantOf));
    for (const scope of header.scopes) this.#options.permitScope?.(scope);
    // the tenants too, up front, when the caller tells them apart from scopes
    if (this.#options.permitTenant !== undefined) for (const tenant of this.#tenants) this.#options.permitTenant(tenant);
  }

  #permitTenant(tenant: string): void {
    if (this.#options.permitTenant !== undefined) this.#options.permitTenant(tenant);
    else this.#options.permitScope?.(tenant);
  }

  async add(line: DumpLine, number: number): Promise<void> {
    if (this.#ended)
      throw new EngramError(
        'INVALID_INPUT',
        messages.invalidInput(`line ${number} comes after the end line: the file was edited or two dumps were joined`),
      );
    this.report.lines++;
    if (line.kind === 'end') {
      await this.flush();
      this.#checkEnd(line.counts, number);
      return;
    }
    this.#seen[line.kind] = (this.#seen[line.kind] ?? 0) + 1;
    // Every line writes within the header's scopes (a relation type within their tenants), which were
    // permitted before anything was written: a line outside them means an edited or joined file, and
    // is refused as such, so a permission failure can only come before the first write.
    const written =
      line.kind === 'record'
        ? line.record.scope
        : line.kind === 'edge'
          ? line.edge.scope
          : line.kind === 'relationType'
            ? line.tenant
            : line.scope;
    if (!(line.kind === 'relationType' ? this.#tenants : this.#scopes).has(written)) {
      throw new EngramError(
        'INVALID_INPUT',
        messages.invalidInput(
          `line ${number} writes ${line.kind === 'relationType' ? 'tenant' : 'scope'} "${cutText(written, 120)}", which the header's scopes do not include: the file was edited or two dumps were joined (export the scopes again, or add it to the header's "scopes")`,
        ),
        { details: { line: number, scope: written } },
      );
    }
    if (line.kind === 'relationType') this.#permitTenant(written);
    else this.#options.permitScope?.(written);
    const redacted = this.#redaction.redact(line);
    if (redacted.count > 0) this.report.redacted = (this.report.redacted ?? 0) + redacted.count;
    const current = this.#batch[0]?.kind;
    if (current !== undefined && current !== line.kind) await this.flush();
    this.#batch.push({ ...redacted.line, number });
    if (this.#batch.length >= (line.kind === 'record' ? this.#batchSize : this.#batchSize * 4)) await this.flush();
  }

  async flush(): Promise<void> {
    const batch = this.#batch;
    if (batch.length === 0) return;
    this.#batch = [];
    switch (batch[0]!.kind) {
      case 'record':
        await this.#records(batch as Line<'record'>[]);
        break;
      case 'edge':
        await this.#edges(batch as Line<'edge'>[]);
        break;
      case 'conceptRef':
        await this.#conceptRefs(batch as Line<'conceptRef'>[]);
        break;
      case 'relationType':
        await this.#relationTypes(batch as Line<'relationType'>[]);
        break;
      case 'state':
        await this.#state(batch as Line<'state'>[]);
        break;
      case 'audit':
        await this.#audit(batch as Line<'audit'>[]);
        break;
      default:
        break;
    }
    this.#options.onProgress?.(this.report);
  }

  finish(): DumpImportReport {
    if (!this.#ended) {
      throw new EngramError(
        'INVALID_INPUT',
        messages.invalidInput(
          'the dump ends without its end line, so it was cut off: what it held is imported; import the whole file again to finish (nothing is written twice)',
        ),
        { details: { report: this.report } },
      );
    }
    return this.report;
  }

  #checkEnd(counts: Record<string, number>, number: number): void {
    for (const kind of new Set([...Object.keys(counts), ...Object.keys(this.#seen)])) {
      if ((counts[kind] ?? 0) !== (this.#seen[kind] ?? 0)) {
        throw new EngramError(
          'INVALID_INPUT',
          messages.invalidInput(
            `line ${number}: the end line counts ${counts[kind] ?? 0} ${kind} lines but the dump holds ${this.#seen[kind] ?? 0}: the file was edited or damaged`,
          ),
          { details: { line: number, kind } },
        );
      }
    }
    this.#ended = true;
    this.report.complete = true;
  }

  #conflict(kind: DumpImportKind, scope: string, key: string, reason: string): void {
    this.report.counts[kind].conflicting++;
    if (this.report.conflicts.length < MAX_CONFLICTS) this.report.conflicts.push({ kind, scope, key, reason });
  }

  async #records(batch: Line<'record'>[]): Promise<void> {
    const { store } = this.#deps;
    const counts = this.report.counts.record;
    const records = batch.map((line) => ({ line, record: restored(line.record) }));
    const scopes = [...new Set(records.map((r) => r.record.scope))];
    const stored = new Map(
      (
        await store.getMemories(
          records.map((r) => r.record.id),
          scopes,
        )
      ).map((r) => [r.id, r]),
    );
    const storedBeliefs = stored.size === 0 ? new Map<string, BeliefInterval[]>() : await store.getBeliefs([...stored.keys()], scopes);
    const fresh: { line: Line<'record'>; record: MemoryRecord }[] = [];
    const batchIds = new Set<string>();
    for (const item of records) {
      const existing = stored.get(item.record.id);
      if (batchIds.has(item.record.id))
        this.#conflict('record', item.record.scope, item.record.id, 'the dump holds this id more than once (the first is kept)');
      else if (existing === undefined) {
        batchIds.add(item.record.id);
        fresh.push(item);
      } else this.#held(item, { record: existing, beliefs: storedBeliefs.get(existing.id) });
    }
    if (fresh.length === 0) return;
    const memories = await this.#withVectors(fresh);
    // What was not inserted was stored meanwhile (another import of the same dump, say): read it in
    // the same transaction, so that it is told apart truthfully. A record's beliefs are written with it.
    const { inserted, held, heldBeliefs } = await store.transaction(async (tx) => {
      const inserted = new Set(await tx.restoreMemories(memories));
      const beliefs = fresh.flatMap(({ line, record }) =>
        inserted.has(record.id) ? (line.beliefs ?? []).map((b) => ({ ...b, memoryId: record.id, scope: record.scope })) : [],
      );
      if (beliefs.length > 0) await tx.restoreBeliefs(beliefs);
      const others = fresh.map(({ record }) => record).filter((record) => !inserted.has(record.id));
      if (others.length === 0) return { inserted, held: new Map<string, MemoryRecord>(), heldBeliefs: new Map<string, BeliefInterval[]>() };
      const otherIds = others.map((r) => r.id);
      const otherScopes = [...new Set(others.map((r) => r.scope))];
      const held = await tx.getMemories(otherIds, otherScopes);
      return { inserted, held: new Map(held.map((r) => [r.id, r])), heldBeliefs: await tx.getBeliefs(otherIds, otherScopes) };
    });
    for (const item of fresh) {
      const { id } = item.record;
      if (inserted.has(id)) counts.created++;
      else {
        const existing = held.get(id);
        this.#held(item, existing === undefined ? undefined : { record: existing, beliefs: heldBeliefs.get(id) });
      }
    }
  }

  /** A dumped record whose id the store already holds (`existing`, with its beliefs; undefined: in a scope of no line of the batch). */
  #held(
    dumped: { line: Line<'record'>; record: MemoryRecord },
    existing: { record: MemoryRecord; beliefs: readonly BeliefInterval[] | undefined } | undefined,
  ): void {
    const { record } = dumped;
    if (existing === undefined || existing.record.scope !== record.scope)
      this.#conflict('record', record.scope, record.id, 'the store holds this id in another scope (kept)');
    else if (canonicalJson(existing.record) !== canonicalJson(record))
      this.#conflict('record', record.scope, record.id, 'the store holds this id with other content (kept)');
    else if (canonicalJson(existing.beliefs ?? []) !== canonicalJson(dumped.line.beliefs ?? []))
      this.#conflict('record', record.scope, record.id, 'the store holds this record with another history of its validity (kept)');
    else this.report.counts.record.skipped++;
  }

  async #withVectors(items: readonly { line: Line<'record'>; record: MemoryRecord }[]): Promise<NewMemory[]> {
    const { embedder } = this.#deps;
    const vectors: (Float32Array | undefined)[] = items.map(({ line }) => {
      if (!this.#useVectors || line.vector === undefined) return undefined;
      const vector = decodeVector(line.vector);
      if (vector === null || vector.length !== embedder.dimension) {
        throw new EngramError(
          'INVALID_INPUT',
          messages.invalidInput(`line ${line.number}: "vector" is not ${embedder.dimension} base64 float32 components`),
          { details: { line: line.number } },
        );
      }
      return vector;
    });
    const missing = items.flatMap((item, i) => (vectors[i] === undefined ? [i] : []));
    if (missing.length > 0) {
      const embedded = await embedder.embed(missing.map((i) => reembedText(items[i]!.record)));
      missing.forEach((i, j) => (vectors[i] = embedded[j]));
      this.report.embedded += missing.length;
    }
    return items.map(({ record }, i) => ({ record, embedding: vectors[i]! }));
  }

  async #edges(batch: Line<'edge'>[]): Promise<void> {
    const counts = this.report.counts.edge;
    const { inserted, whole, dangling } = await this.#deps.store.transaction(async (tx) => {
      const held = await heldRecords(
        tx,
        batch.flatMap(({ edge }) => [
          { scope: edge.scope, id: edge.fromId },
          { scope: edge.scope, id: edge.toId },
        ]),
      );
      const whole: Edge[] = [];
      const dangling: { edge: Edge; missing: string }[] = [];
      for (const { edge } of batch) {
        const missing = [edge.fromId, edge.toId].find((id) => !held.has(recordKey(edge.scope, id)));
        if (missing === undefined) whole.push(edge);
        else dangling.push({ edge, missing });
      }
      return { inserted: whole.length === 0 ? [] : await tx.restoreEdges(whole), whole: whole.length, dangling };
    });
    counts.created += inserted.length;
    counts.skipped += whole - inserted.length;
    for (const { edge, missing } of dangling) this.#conflict('edge', edge.scope, edge.id, missingRecord(missing, 'edge'));
  }

  async #conceptRefs(batch: Line<'conceptRef'>[]): Promise<void> {
    const { store } = this.#deps;
    const counts = this.report.counts.conceptRef;
    const key = (ref: { scope: string; conceptId: string; layer: string; refId: string }): string =>
      [ref.scope, ref.conceptId, ref.layer, ref.refId].join('\u0000');
    const held = new Set<string>();
    for (const scope of new Set(batch.map((b) => b.scope))) {
      const conceptIds = [...new Set(batch.filter((b) => b.scope === scope).map((b) => b.conceptId))];
      for (const ref of await store.getConceptRefs({ scopes: [scope], conceptIds })) held.add(key(ref));
    }
    const writes = batch.filter((ref) => !held.has(key(ref)));
    counts.skipped += batch.length - writes.length;
    if (writes.length === 0) return;
    // one ref at a time, in the dump's order: the store's insertion order becomes the dump's
    const dangling = await store.transaction(async (tx) => {
      const records = await heldRecords(
        tx,
        writes.flatMap((ref) => [
          { scope: ref.scope, id: ref.conceptId },
          { scope: ref.scope, id: ref.refId },
        ]),
      );
      const dangling: { ref: Line<'conceptRef'>; missing: string }[] = [];
      for (const ref of writes) {
        const missing = [ref.conceptId, ref.refId].find((id) => !records.has(recordKey(ref.scope, id)));
        if (missing !== undefined) {
          dangling.push({ ref, missing });
          continue;
        }
        await tx.addConceptRefs({
          scope: ref.scope,
          conceptId: ref.conceptId,
          layer: ref.layer as Layer,
          refIds: [ref.refId],
          cap: CONCEPT_REFS_CAP,
        });
      }
      return dangling;
    });
    counts.created += writes.length - dangling.length;
    for (const { ref, missing } of dangling)
      this.#conflict('conceptRef', ref.scope, `${ref.conceptId}/${ref.layer}/${ref.refId}`, missingRecord(missing, 'concept ref'));
  }

  async #relationTypes(batch: Line<'relationType'>[]): Promise<void> {
    const { store } = this.#deps;
    const counts = this.report.counts.relationType;
    for (const line of batch) {
      const { kind: _kind, number: _number, ...type } = line;
      const known = (await store.getRelationTypes([type.tenant])).find(
        (t) => t.name === type.name && (t.tenant === type.tenant || t.builtIn),
      );
      if (known === undefined) {
        try {
          await store.transaction((tx) => tx.registerRelationType({ ...type, builtIn: false }));
          counts.created++;
        } catch (error) {
          if (!isEngramError(error) || error.code !== 'CONFLICT') throw error;
          this.#conflict('relationType', type.tenant, type.name, 'registered meanwhile with another direction (kept)');
        }
      } else if (!known.builtIn && canonicalJson({ ...known, builtIn: false }) === canonicalJson({ ...type, builtIn: false }))
        counts.skipped++;
      else
        this.#conflict(
          'relationType',
          type.tenant,
          type.name,
          known.builtIn ? 'a built-in type of this name exists (kept)' : 'the tenant registered this type otherwise (kept)',
        );
    }
  }

  async #state(batch: Line<'state'>[]): Promise<void> {
    const { store } = this.#deps;
    const counts = this.report.counts.state;
    const writes: Line<'state'>[] = [];
    for (const line of batch) {
      const held = await store.getState(line.scope, line.key);
      if (held === null) writes.push(line);
      else if (canonicalJson([held.value, held.updatedAt]) === canonicalJson([line.value, line.updatedAt])) counts.skipped++;
      else this.#conflict('state', line.scope, line.key, 'the store holds this document with other content (kept)');
    }
    if (writes.length === 0) return;
    await store.transaction(async (tx) => {
      for (const line of writes) await tx.setState(line.scope, line.key, line.value ?? null, line.updatedAt);
    });
    counts.created += writes.length;
  }

  async #audit(batch: Line<'audit'>[]): Promise<void> {
    const entries = batch.map(({ kind: _kind, number: _number, ...entry }) => entry);
    const inserted = await this.#deps.store.transaction((tx) => tx.restoreAudit(entries));
    this.report.counts.audit.created += inserted.length;
    this.report.counts.audit.skipped += batch.length - inserted.length;
  }
}

function recordKey(scope: string, id: string): string {
  return `${scope}\u0000${id}`;
}

/** Which of `wanted` are records of their scope in the store (`recordKey`), read in the transaction that writes the lines naming them. */
async function heldRecords(tx: StoreReader, wanted: readonly { scope: string; id: string }[]): Promise<Set<string>> {
  const byScope = new Map<string, Set<string>>();
  for (const { scope, id } of wanted) {
    const ids = byScope.get(scope) ?? new Set<string>();
    ids.add(id);
    byScope.set(scope, ids);
  }
  const held = new Set<string>();
  for (const [scope, ids] of byScope) for (const record of await tx.getMemories([...ids], [scope])) held.add(recordKey(scope, record.id));
  return held;
}

/** Why a line naming a record that neither the dump nor the store holds in its scope is left out. */
function missingRecord(id: string, what: string): string {
  return `record ${id} is in neither the dump nor the store (in this scope), so this ${what} is left out (the dump was taken while the store was written?)`;
}

/** The record as the store will hold it (parsed lines are plain JSON; a legacy source key takes its current form). */
function restored(record: Line<'record'>['record']): MemoryRecord {
  const value = record as unknown as MemoryRecord;
  return value.sourceKey === null ? value : { ...value, sourceKey: upgradeSourceKey(value.sourceKey) };
}
