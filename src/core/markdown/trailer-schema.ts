/**
 * What an entry's engram comment may hold: the record's fields the export wrote, each checked like
 * any input, because people edit these files and a hand-changed `confidence: 42` must not be stored.
 */
import { z } from 'zod';
import { EngramError, messages } from '../errors.js';
import { isInstant } from '../instant.js';
import { LAYERS, PROVENANCE_KINDS, STATUSES } from '../memory.js';
import { emotionSchema, MAX_CONTENT_CHARS } from '../schemas.js';
import { dumpBeliefsSchema, recordDataCheck } from '../dump/dump-format.js';

const unit = z.number().min(0).max(1);
// a real instant in years 0001-9999, as every other date input
const instant = z.number().refine(isInstant, { message: 'is not a date in years 0001-9999 (integer epoch ms)' });
const count = z.number().int().min(0);
const text = z.string().max(20_000);
const id = z.string().min(1).max(200);
/** The line breaks a trailer's `lineBreaks` may list. */
const LINE_BREAKS = ['\n', '\r\n', '\r', '\u2028', '\u2029'] as const;

const edgeSchema = z
  .object({
    id,
    type: z.string().min(1).max(200),
    toId: id,
    weight: z.number().finite(),
    validFrom: instant,
    validTo: instant.nullable().optional(),
    recordedAt: instant,
    invalidatedAt: instant.nullable().optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
  })
  .strict()
  .transform((edge) => ({ validTo: null, invalidatedAt: null, metadata: {}, ...edge }));

/** The trailer after parsing: fields the export leaves out (defaults) stay absent. */
export const trailerSchema = z
  .object({
    id,
    layer: z.enum(LAYERS),
    validFrom: instant,
    /** The text's line breaks in order, when any is not `\n` (the entry shows each as a new line). */
    lineBreaks: z.array(z.enum(LINE_BREAKS)).max(MAX_CONTENT_CHARS).optional(),
    summary: text.nullable().optional(),
    tags: z.array(z.string().max(100)).max(100).optional(),
    entities: z.array(z.string().max(200)).max(200).optional(),
    importance: unit.nullable().optional(),
    salience: unit.optional(),
    surprise: unit.optional(),
    emotion: emotionSchema.nullable().optional(),
    pinned: z.boolean().optional(),
    mentionCount: count.optional(),
    accessCount: count.optional(),
    lastAccessedAt: instant.nullable().optional(),
    confidence: unit.optional(),
    status: z.enum(STATUSES).optional(),
    provenance: z
      .object({
        kind: z.enum(PROVENANCE_KINDS),
        sources: z.array(z.record(z.string(), z.unknown())).max(100),
        derivedFrom: z.array(z.string()).max(1000),
      })
      .strict()
      .optional(),
    validTo: instant.nullable().optional(),
    occurredAt: instant.nullable().optional(),
    recordedAt: instant.optional(),
    invalidatedAt: instant.nullable().optional(),
    sourceKey: z.string().max(2_000).nullable().optional(),
    updatedAt: instant.optional(),
    data: recordDataCheck.optional(),
    refs: z.partialRecord(z.enum(LAYERS), z.array(id).max(10_000)).optional(),
    edges: z.array(edgeSchema).max(10_000).optional(),
    /** The sleep cycle's identity keys naming this record or one of its edges: key → the id it names. */
    keys: z.record(z.string().min(1).max(1_000), id).optional(),
    /** The validities the store believed of the record before (as a dump carries them): `knownAt` reads. */
    beliefs: dumpBeliefsSchema.optional(),
  })
  .strict();

export type Trailer = z.output<typeof trailerSchema>;

/** The trailer of the entry at `file` `line`, or `INVALID_INPUT` naming the file, line and field. */
export function parseTrailer(value: unknown, file: string, line: number): Trailer {
  const result = trailerSchema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0] as z.core.$ZodIssue;
  const field = issue.path.map(String).join('.');
  const shown = field.length > 0 ? `field "${field}"` : 'the comment';
  const problem =
    issue.code === 'unrecognized_keys'
      ? `the engram comment has unknown field(s) ${issue.keys.join(', ')}`
      : `${shown} of the engram comment ${describe(issue)}`;
  return fail(file, line, field, `${problem}; restore it from the export, or delete the comment line to import the entry as a new memory`);
}

function describe(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'too_big':
      return `must be at most ${String(issue.maximum)}`;
    case 'too_small':
      return `must be at least ${String(issue.minimum)}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'invalid_type':
      return issue.expected === 'int' ? 'must be a whole number' : `must be ${issue.expected}`;
    default:
      return issue.message;
  }
}

/** Throws `INVALID_INPUT` for the entry at `file` `line`. */
export function fail(file: string, line: number, field: string | undefined, problem: string): never {
  throw new EngramError('INVALID_INPUT', messages.invalidInput(`${file} line ${line}: ${problem}`), {
    details: { file, line, ...(field !== undefined && field.length > 0 ? { field } : {}) },
  });
}
