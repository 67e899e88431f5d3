/**
 * The turns a storing hook sends, in batches: far below what `engram serve` takes in one request
 * (5,000 turns, an 8 MiB body), each stored on its own and moving the session's cursor, so an unstored
 * tail of any size is stored and a failure part-way keeps what was stored.
 */
import type { Turn } from './transcript.js';

/** Most turns, and most bytes of turns as JSON, in one ingest request (short to store within a hook's timeout too). */
export const INGEST_BATCH_TURNS = 500;
export const INGEST_BATCH_BYTES = 2 * 1024 * 1024;

/** `turns` in order, cut into batches of at most `INGEST_BATCH_TURNS` turns and `INGEST_BATCH_BYTES` (a longer turn alone). */
export function ingestBatches(turns: readonly Turn[]): Turn[][] {
  const batches: Turn[][] = [];
  let batch: Turn[] = [];
  let bytes = 0;
  for (const turn of turns) {
    const size = Buffer.byteLength(JSON.stringify(turn));
    if (batch.length > 0 && (batch.length === INGEST_BATCH_TURNS || bytes + size > INGEST_BATCH_BYTES)) {
      batches.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(turn);
    bytes += size;
  }
  batches.push(batch);
  return batches;
}

/** The ingest answers of a hook's batches added up into one report. */
export class IngestTotal {
  #stored = 0;
  #unchanged = 0;
  #redacted = 0;
  #claims: Record<string, number> = {};
  #lastUuid: unknown;
  #batches = 0;

  add(result: Record<string, unknown>): void {
    this.#batches += 1;
    this.#stored += Number(result.stored ?? 0);
    this.#unchanged += Number(result.unchanged ?? 0);
    this.#redacted += Number(result.redacted ?? 0);
    this.#lastUuid = result.lastUuid ?? this.#lastUuid;
    for (const [action, n] of Object.entries((result.claims ?? {}) as Record<string, unknown>))
      this.#claims[action] = (this.#claims[action] ?? 0) + Number(n);
  }

  toDetail(): Record<string, unknown> {
    return {
      stored: this.#stored,
      unchanged: this.#unchanged,
      ...(this.#lastUuid !== undefined ? { lastUuid: this.#lastUuid } : {}),
      ...(this.#redacted > 0 ? { redacted: this.#redacted } : {}),
      ...(Object.keys(this.#claims).length > 0 ? { claims: this.#claims } : {}),
      ...(this.#batches > 1 ? { batches: this.#batches } : {}),
    };
  }
}
