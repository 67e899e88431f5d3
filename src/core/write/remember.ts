/**
 * The write path (DESIGN §3): normalise → derive signals → embed → (supersession → dedup) → insert.
 */
import type { MemoryRecord, NewMemory } from '../memory.js';
import type { Clock } from '../ports/clock.js';
import type { Embedder } from '../ports/embedder.js';
import type { Store } from '../ports/store.js';
import type { ParsedRememberInput } from '../schemas.js';
import { extractEntities } from '../text/index.js';
import { analyzeEmotion, scoreImportance } from './salience/index.js';
import { buildRecord } from './new-record.js';

/** What `remember` did with one input (CLI/MCP/HTTP contract). */
export interface RememberResult {
  id: string;
  action: 'created' | 'merged' | 'superseded' | 'unchanged';
  mergedInto?: string;
  superseded?: string[];
}

export interface WriteDeps {
  store: Store;
  embedder: Embedder;
  clock: Clock;
}

/** Derives the write-time signals of one input (pure, cheap). */
export function deriveSignals(input: ParsedRememberInput): Pick<MemoryRecord, 'entities' | 'importance' | 'emotion' | 'salience' | 'surprise'> {
  const text = input.content;
  const emotion = input.emotion ?? analyzeEmotion(text);
  const importance = input.importance ?? scoreImportance(text, { emotionIntensity: emotion.intensity });
  return {
    entities: input.entities ?? extractEntities(text),
    importance,
    emotion,
    salience: importance,
    surprise: 0.5,
  };
}

/**
 * Writes validated inputs in one transaction. Inputs whose source key was already ingested are
 * returned as `unchanged` with the existing id (idempotent re-ingest).
 */
export async function rememberAll(deps: WriteDeps, inputs: readonly ParsedRememberInput[]): Promise<RememberResult[]> {
  const now = deps.clock.now();
  const records = inputs.map((input) => buildRecord(input, deriveSignals(input), now));
  const embeddings = await deps.embedder.embed(records.map((r) => embeddingText(r)));
  return deps.store.transaction(async (tx) => {
    const existingByScope = new Map<string, Map<string, string>>();
    for (const record of records) {
      if (record.sourceKey === null) continue;
      let keys = existingByScope.get(record.scope);
      if (keys === undefined) {
        const scopeKeys = records.filter((r) => r.scope === record.scope && r.sourceKey !== null).map((r) => r.sourceKey as string);
        keys = await tx.findBySourceKey(record.scope, scopeKeys);
        existingByScope.set(record.scope, keys);
      }
    }
    const results: RememberResult[] = [];
    const toInsert: NewMemory[] = [];
    records.forEach((record, index) => {
      const known = record.sourceKey === null ? undefined : existingByScope.get(record.scope)?.get(record.sourceKey);
      if (known !== undefined) {
        results.push({ id: known, action: 'unchanged' });
        return;
      }
      if (record.sourceKey !== null) existingByScope.get(record.scope)?.set(record.sourceKey, record.id);
      toInsert.push({ record, embedding: embeddings[index] as Float32Array });
      results.push({ id: record.id, action: 'created' });
    });
    if (toInsert.length > 0) await tx.insertMemories(toInsert);
    return results;
  });
}

/** The text a record is embedded from: its content, prefixed by name/summary when those exist. */
export function embeddingText(record: MemoryRecord): string {
  const name = typeof record.data.name === 'string' ? `${record.data.name}: ` : '';
  return `${name}${record.content}`;
}
