/**
 * A persona (seed 004): dispositions of an agent per scope — curiosity, caution, sociability or any
 * other, each 0..1 (0.5 is neutral) — and the memories each favours (layers and kinds, tags, moods).
 * Stored as a procedural record with `category: "persona"`, its values in `properties`; each change is
 * a new version that supersedes the last, so the history is the SUPERSEDES chain and nothing is lost.
 */
import { z } from 'zod';
import type { MemoryRecord } from '../memory.js';
import { isPromoted, isReflection, isRule } from '../record-kinds.js';

/** The category of a persona record. */
export const PERSONA_CATEGORY = 'persona';

/** What a disposition favours: memory kinds (layers and derived kinds, see {@link memoryKindsOf}), tags and moods. */
export interface DispositionFavours {
  kinds?: string[];
  tags?: string[];
  moods?: string[];
}

/** A persona: dispositions 0..1 and, per disposition, what it favours (built-in defaults fill the rest). */
export interface Persona {
  dispositions: Record<string, number>;
  favours?: Record<string, DispositionFavours>;
}

/** Kinds a memory can be of beside its layer. */
export const MEMORY_KINDS = [
  'episodic',
  'semantic',
  'procedural',
  'statistical',
  'reflection',
  'promoted',
  'decision',
  'success',
  'failure',
  'surprising',
  'emotional',
  'social',
] as const;

/** What the three built-in dispositions favour unless a persona says otherwise. */
export const DEFAULT_FAVOURS: Readonly<Record<string, DispositionFavours>> = Object.freeze({
  curiosity: {
    kinds: ['reflection', 'surprising'],
    tags: ['question', 'idea', 'insight', 'learning', 'research', 'explore'],
    moods: ['curious', 'interested', 'excited', 'surprised', 'fascinated'],
  },
  caution: {
    kinds: ['failure', 'decision'],
    tags: ['warning', 'caution', 'risk', 'incident', 'failure', 'safety', 'danger'],
    moods: ['afraid', 'anxious', 'worried', 'fear', 'nervous', 'scared'],
  },
  sociability: {
    kinds: ['social'],
    tags: ['people', 'social', 'team', 'friend', 'conversation', 'family'],
    moods: ['happy', 'grateful', 'joy', 'warm', 'love'],
  },
});

const name = z
  .string()
  .trim()
  .min(1)
  .max(40)
  .regex(/^[a-z][a-z0-9_-]*$/i, 'must be a word (letters, digits, "_" or "-"), e.g. curiosity');
const word = z.string().trim().min(1).max(100);

export const dispositionFavoursSchema = z
  .object({
    kinds: z.array(word).max(20).optional(),
    tags: z.array(word).max(50).optional(),
    moods: z.array(word).max(20).optional(),
  })
  .strict();

/** A persona as an input gives it. */
export const personaSchema = z
  .object({
    dispositions: z
      .record(name, z.number().min(0, 'must be from 0 to 1').max(1, 'must be from 0 to 1'))
      .refine((d) => Object.keys(d).length > 0, 'must name at least one disposition, e.g. { "curiosity": 0.7 }')
      .refine((d) => Object.keys(d).length <= 20, 'may name at most 20 dispositions'),
    favours: z.record(name, dispositionFavoursSchema).optional(),
  })
  .strict();

/** Is this record a persona? */
export function isPersona(record: Pick<MemoryRecord, 'layer' | 'data'>): boolean {
  return isRule(record) && record.data.category === PERSONA_CATEGORY;
}

const IN_TEXT = /\b([a-z][a-z_-]{2,39})\s*[:=]?\s*(0(?:\.\d+)?|1(?:\.0+)?)\b/gi;

/**
 * The persona of a record: its `properties` (dispositions, favours), else dispositions read from its
 * text ("curiosity 0.8, caution 0.3"); null when neither holds one.
 */
export function personaOfRecord(record: Pick<MemoryRecord, 'content' | 'data'>): Persona | null {
  const properties = record.data.properties as { dispositions?: unknown; favours?: unknown } | undefined;
  const given = personaSchema.safeParse({
    dispositions: properties?.dispositions,
    ...(properties?.favours !== undefined ? { favours: properties.favours } : {}),
  });
  if (given.success) return given.data;
  const dispositions: Record<string, number> = {};
  for (const match of record.content.matchAll(IN_TEXT)) dispositions[(match[1] as string).toLowerCase()] = Number(match[2]);
  return Object.keys(dispositions).length > 0 ? { dispositions } : null;
}

/** The text form of a persona (what a persona record's content says). */
export function renderPersona(persona: Persona): string {
  const values = Object.entries(persona.dispositions).map(([d, v]) => `${d} ${round(v)}`);
  const favours = Object.entries(persona.favours ?? {}).map(([d, f]) => {
    const parts = [
      f.kinds?.length ? `kinds ${f.kinds.join(', ')}` : '',
      f.tags?.length ? `tags ${f.tags.join(', ')}` : '',
      f.moods?.length ? `moods ${f.moods.join(', ')}` : '',
    ].filter((p) => p !== '');
    return parts.length > 0 ? ` ${d} favours ${parts.join('; ')}.` : '';
  });
  return `Persona: ${values.join(', ')}.${favours.join('')}`;
}

/** What each disposition of `persona` favours: its own favours, else the built-in defaults. */
export function favoursOf(persona: Persona, disposition: string): DispositionFavours {
  const own = persona.favours?.[disposition];
  const fallback = DEFAULT_FAVOURS[disposition];
  return own ?? fallback ?? {};
}

/** The kinds of a memory: its layer and what it is beside (reflection, decision, failure, surprising…). */
export function memoryKindsOf(record: Pick<MemoryRecord, 'layer' | 'provenance' | 'data' | 'tags' | 'surprise' | 'emotion'>): Set<string> {
  const kinds = new Set<string>([record.layer]);
  if (isReflection(record)) kinds.add('reflection');
  if (isPromoted(record)) kinds.add('promoted');
  if (record.data.decision !== undefined || record.tags.includes('decision')) kinds.add('decision');
  if (record.data.outcome?.success === true) kinds.add('success');
  if (record.data.outcome?.success === false) kinds.add('failure');
  if (record.surprise >= 0.7) kinds.add('surprising');
  if ((record.emotion?.intensity ?? 0) >= 5) kinds.add('emotional');
  if ((record.data.perception?.people?.length ?? 0) > 0) kinds.add('social');
  return kinds;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
