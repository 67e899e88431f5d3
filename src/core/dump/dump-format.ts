/**
 * The lossless dump format (`docs/dump-format.md`): NDJSON, one header line, then one line per record,
 * edge, concept ref, relation type registration, state document and audit entry, then an end line
 * with the counts. Serialisation is canonical (object keys in code-point order at every level, the
 * line's `kind` first), so two stores holding the same memory write byte-identical dumps.
 */
import { z } from 'zod';
import { isInstant } from '../instant.js';
import { LAYERS, PROVENANCE_KINDS, STATUSES, type BeliefInterval, type Edge, type MemoryRecord } from '../memory.js';
import type { AuditEntry, ConceptRef } from '../ports/store.js';
import { emotionSchema } from '../schemas.js';
import { scopeProblem } from '../scope.js';

/** The `format` of a dump's header line. */
export const DUMP_FORMAT = 'engram-dump';
/**
 * The version this Engram writes, and the newest it reads (every earlier one too). 2: records may carry
 * `beliefs`, which a version-1 reader refuses as an unknown key, so it is told to upgrade instead.
 */
export const DUMP_VERSION = 2;

/** The kinds of line after the header, in the order a dump holds them. */
export const DUMP_KINDS = ['record', 'edge', 'conceptRef', 'relationType', 'state', 'audit', 'end'] as const;
export type DumpKind = (typeof DUMP_KINDS)[number];

const scope = z
  .string()
  .refine((s) => scopeProblem(s) === null, { message: 'is not a valid scope (segments of [A-Za-z0-9_.-], never "." or "..")' });
const instant = z.number().refine(isInstant, { message: 'is not an instant (integer epoch ms in years 0001-9999)' });
const unit = z.number().min(0).max(1);
const count = z.number().int().min(0);
const id = z.string().min(1).max(200);
const json = z.record(z.string(), z.unknown());
const text = z.string();
const number = z.number().finite();
const texts = z.array(text);
const loose = <T extends z.ZodRawShape>(shape: T) => z.looseObject(shape).optional();

/**
 * A record's `data` as the engine reads it (`MemoryData`): the keys it knows must have their types, so
 * an edited dump cannot store a record that makes consolidation, context or update fail later (an
 * `action.tool` that is a number, a `history` that is not a list). Keys it does not know are kept, as
 * are extra keys inside the known objects: a dump of a newer Engram still reads.
 */
export const recordDataSchema = z.looseObject({
  perception: loose({ objects: texts.optional(), people: texts.optional(), salience: number.optional(), novelty: number.optional() }),
  context: loose({
    goal: text.optional(),
    location: text.optional(),
    sessionId: text.optional(),
    runId: text.optional(),
    question: text.optional(),
  }),
  decision: loose({ intent: text.optional(), confidence: number.optional(), rationale: text.optional() }),
  action: loose({ tool: text.optional(), args: json.optional() }),
  outcome: loose({ success: z.boolean().optional(), reward: number.optional(), detail: text.optional() }),
  name: text.optional(),
  definition: text.optional(),
  category: text.optional(),
  properties: json.optional(),
  priority: number.optional(),
  metric: json.optional(),
  parentId: text.optional(),
  chunkIndex: count.optional(),
  chunkCount: count.optional(),
  isChunkParent: z.boolean().optional(),
  span: z.tuple([count, count]).optional(),
  speaker: text.optional(),
  role: text.optional(),
  exempt: loose({
    decay: z.boolean().optional(),
    supersededBy: z
      .array(
        z.looseObject({
          wording: text,
          subject: text.optional(),
          attribute: text.optional(),
          value: text.optional(),
          at: number,
        }),
      )
      .optional(),
  }),
  decayedAt: number.optional(),
  expiredAt: number.optional(),
  tombstone: z.boolean().optional(),
  affect: loose({ intensity: number, flashbulb: z.boolean(), appraisedAt: number }),
  compressed: z.boolean().optional(),
  compressedFrom: texts.optional(),
  compressedInto: text.optional(),
  claim: loose({ subject: text, attribute: text, value: text, negated: z.boolean().optional() }),
  history: z.array(z.looseObject({ content: text, at: number, sources: z.array(json).optional() })).optional(),
  supersededBy: text.optional(),
  validToBefore: number.optional(),
  mergedInto: text.optional(),
  keptFrom: text.optional(),
  level: number.optional(),
  reflection: json.optional(),
  promotion: json.optional(),
  concept: z.boolean().optional(),
});

/**
 * The same check as {@link recordDataSchema}, answering the value as given (its keys in their order),
 * for readers that write the record back as they read it (a Markdown trailer).
 */
export const recordDataCheck = json.superRefine((value, ctx) => {
  const result = recordDataSchema.safeParse(value);
  if (!result.success) for (const issue of result.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
});

export const dumpHeaderSchema = z
  .object({
    format: z.literal(DUMP_FORMAT),
    version: z.number().int().min(1),
    embedder: z.object({ name: z.string().min(1).max(500), dimension: z.number().int().min(1).max(65_536) }).strict(),
    embeddings: z.boolean(),
    scopes: z.array(scope).max(100_000),
  })
  .strict();
export type DumpHeader = z.output<typeof dumpHeaderSchema>;

/** Every field of a stored record: a dump leaves none out. */
export const dumpRecordSchema = z
  .object({
    id,
    scope,
    layer: z.enum(LAYERS),
    content: z.string().max(10_000_000),
    summary: z.string().nullable(),
    tags: z.array(z.string()),
    entities: z.array(z.string()),
    importance: unit.nullable(),
    salience: z.number().finite(),
    surprise: z.number().finite(),
    emotion: emotionSchema.nullable(),
    pinned: z.boolean(),
    mentionCount: count,
    accessCount: count,
    lastAccessedAt: instant.nullable(),
    confidence: z.number().finite(),
    status: z.enum(STATUSES),
    provenance: z.object({ kind: z.enum(PROVENANCE_KINDS), sources: z.array(json), derivedFrom: z.array(z.string()) }).strict(),
    validFrom: instant,
    validTo: instant.nullable(),
    occurredAt: instant.nullable(),
    recordedAt: instant,
    invalidatedAt: instant.nullable(),
    sourceKey: z.string().nullable(),
    updatedAt: instant,
    data: recordDataSchema,
  })
  .strict()
  // a zero-length validity is what a supersession at the same instant leaves; an end before the start never is
  .refine((record) => record.validTo === null || record.validTo >= record.validFrom, {
    path: ['validTo'],
    message: 'is before validFrom: a record is valid from validFrom until validTo',
  });

/** A validity the store once believed of a record (`BeliefInterval`): held during [`knownFrom`, `knownTo`). */
export const dumpBeliefSchema = z
  .object({ validFrom: instant, validTo: instant.nullable(), knownFrom: instant, knownTo: instant })
  .strict()
  .refine((belief) => belief.knownTo > belief.knownFrom, {
    path: ['knownTo'],
    message: 'is not after knownFrom: a belief was held from knownFrom until knownTo',
  });

/** A record's belief intervals, oldest first (as the store reads them back); a record without one has no `beliefs`. */
export const dumpBeliefsSchema = z
  .array(dumpBeliefSchema)
  .min(1)
  .refine((beliefs) => beliefs.every((belief, i) => i === 0 || belief.knownTo > beliefs[i - 1]!.knownTo), {
    message: 'are not in order of knownTo, each once (oldest first)',
  });

export const dumpEdgeSchema = z
  .object({
    id,
    scope,
    fromId: id,
    type: z.string().min(1).max(200),
    toId: id,
    weight: z.number().finite(),
    validFrom: instant,
    validTo: instant.nullable(),
    recordedAt: instant,
    invalidatedAt: instant.nullable(),
    metadata: json,
  })
  .strict();

/** One line after the header, by kind. */
export const dumpLineSchema = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('record'),
      record: dumpRecordSchema,
      vector: z.string().max(400_000).optional(),
      beliefs: dumpBeliefsSchema.optional(),
    })
    .strict(),
  z.object({ kind: z.literal('edge'), edge: dumpEdgeSchema }).strict(),
  z.object({ kind: z.literal('conceptRef'), scope, conceptId: id, layer: z.enum(LAYERS), refId: id }).strict(),
  z
    .object({
      kind: z.literal('relationType'),
      tenant: scope.refine((t) => !t.includes('/'), { message: 'is not a tenant (one scope segment)' }),
      name: z.string().regex(/^[A-Z][A-Z0-9_]{0,63}$/, { message: 'is not a relation type name (UPPER_SNAKE_CASE)' }),
      symmetric: z.boolean(),
      proposedBy: z.string().nullable(),
      description: z.string().nullable(),
      registeredAt: z.number().int().min(0),
    })
    .strict(),
  z.object({ kind: z.literal('state'), scope, key: z.string().min(1).max(2_000), value: z.unknown(), updatedAt: instant }).strict(),
  z
    .object({ kind: z.literal('audit'), id, at: instant, actor: z.string(), action: z.literal('purge'), scope, count, details: json })
    .strict(),
  z.object({ kind: z.literal('end'), counts: z.record(z.string(), count) }).strict(),
]);
export type DumpLine = z.output<typeof dumpLineSchema>;

/**
 * JSON with object keys in code-point order at every level (arrays keep their order): the one
 * serialisation of a dump, so equal values always give equal bytes.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const source = value as Record<string, unknown>;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(source).sort(compareCodePoints)) {
    if (source[key] !== undefined) sorted[key] = sortKeys(source[key]);
  }
  return sorted;
}

/** Code-point order (UTF-16 order differs from it only beyond the BMP). */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/** One dump line (without its newline): `{"kind":…` first, then the body's keys in canonical order. */
export function dumpLine(kind: Exclude<DumpKind, never>, body: Record<string, unknown>): string {
  const rest = canonicalJson(body);
  return rest === '{}' ? `{"kind":${JSON.stringify(kind)}}` : `{"kind":${JSON.stringify(kind)},${rest.slice(1)}`;
}

/** The header line: `format` and `version` first, then the rest in canonical order. */
export function headerLine(header: DumpHeader): string {
  const { format, version, ...rest } = header;
  return `{"format":${JSON.stringify(format)},"version":${version},${canonicalJson(rest).slice(1)}`;
}

/** A record line: the record, its belief intervals when its validity ever changed, its vector when dumped with them. */
export const recordLine = (record: MemoryRecord, extras: { vector?: Float32Array; beliefs?: readonly BeliefInterval[] } = {}): string =>
  dumpLine('record', {
    record,
    ...(extras.beliefs !== undefined && extras.beliefs.length > 0 ? { beliefs: extras.beliefs } : {}),
    ...(extras.vector !== undefined ? { vector: encodeVector(extras.vector) } : {}),
  });
export const edgeLine = (edge: Edge): string => dumpLine('edge', { edge });
export const auditLine = (entry: AuditEntry): string => dumpLine('audit', { ...entry });
export const conceptRefLine = (ref: ConceptRef): string => dumpLine('conceptRef', { ...ref });

/** A vector as base64 of its float32 components, little-endian (exact, and a third of the decimal size). */
export function encodeVector(vector: Float32Array): string {
  const bytes = new Uint8Array(vector.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < vector.length; i++) view.setFloat32(i * 4, vector[i]!, true);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The inverse of `encodeVector`; null when the text is not base64 of whole float32s. */
export function decodeVector(text: string): Float32Array | null {
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    return null;
  }
  if (binary.length % 4 !== 0) return null;
  const view = new DataView(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) view.setUint8(i, binary.charCodeAt(i));
  const vector = new Float32Array(binary.length / 4);
  for (let i = 0; i < vector.length; i++) vector[i] = view.getFloat32(i * 4, true);
  return vector;
}

/**
 * The JSON Schema (draft-07, which every validator reads) every line of a dump validates against, generated from the schemas
 * the importer uses (committed as `docs/engram-dump.schema.json`; a test keeps the two equal).
 */
export function dumpJsonSchema(): Record<string, unknown> {
  const line = z.union([dumpHeaderSchema, dumpLineSchema]);
  const generated = z.toJSONSchema(line, { io: 'output', unrepresentable: 'any', target: 'draft-7' }) as Record<string, unknown>;
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'Engram dump line',
    description:
      'One line of an Engram dump (NDJSON, docs/dump-format.md): line 1 is the header ({"format":"engram-dump","version":2,…}; version 1 dumps read too), then record lines (with their belief intervals, when the validity of a record ever changed), edge, conceptRef, relationType, state and audit lines, then one end line with the counts. Scopes are paths of segments [A-Za-z0-9_-][A-Za-z0-9_.-]*; times are integer epoch milliseconds.',
    ...Object.fromEntries(Object.entries(generated).filter(([key]) => key !== '$schema')),
  };
}
