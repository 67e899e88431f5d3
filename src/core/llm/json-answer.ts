/**
 * Strict parsing of a model's JSON answer: one JSON object (optionally inside a ```json fence),
 * validated by a zod schema. Anything else is a failure with a reason, never a half-read value.
 */
import type { z } from 'zod';

export type JsonAnswer<T> = { ok: true; value: T } | { ok: false; reason: string };

/** Parses `text` as one JSON object matching `schema`. */
export function parseJsonAnswer<S extends z.ZodType>(text: string, schema: S): JsonAnswer<z.output<S>> {
  const trimmed = text.trim();
  const fenced = /^```(?:json)?\s*([\s\S]*?)\s*```$/i.exec(trimmed);
  const body = fenced !== null ? (fenced[1] as string) : trimmed;
  if (body.length === 0) return { ok: false, reason: 'empty answer' };
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { ok: false, reason: 'not JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, reason: 'not a JSON object' };
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    return { ok: false, reason: `unexpected shape at ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}` };
  }
  return { ok: true, value: result.data };
}
