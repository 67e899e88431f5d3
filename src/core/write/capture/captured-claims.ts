/**
 * The claim inputs a captured turn adds beside its episode: one semantic claim per claim-shaped
 * sentence, sourced from the turn (its source refs, and the episode it was read from), so the write
 * path dedups and supersedes them like any claim, in the episode's transaction.
 */
import type { MemoryRecord } from '../../memory.js';
import type { ParsedRememberInput } from '../../schemas.js';
import { toolKindsIn } from '../claims/index.js';
import { captureClaims } from './capture-claims.js';

/** The tag every captured claim carries. */
export const CAPTURED_TAG = 'captured';

/** Claims read from one turn at most (a pasted document is not a list of facts). */
export const MAX_CLAIMS_PER_TURN = 20;

/**
 * Claim inputs for the turn `input` stored as `episode`; `sentences` (an LLM's extraction) replace
 * the rules when given.
 */
export function capturedClaimInputs(
  input: ParsedRememberInput,
  episode: MemoryRecord,
  sentences?: readonly string[],
): ParsedRememberInput[] {
  const texts = sentences ?? captureClaims({ content: input.content, ...(input.tags !== undefined ? { tags: input.tags } : {}) });
  const contents = [...new Set(texts.map((t) => t.trim()).filter((t) => t.length > 0))].slice(0, MAX_CLAIMS_PER_TURN);
  return contents.map((content) => ({
    scope: input.scope,
    layer: 'semantic',
    content,
    // the kinds of the tools it names ("package manager" for "we switched to bun") find it by topic
    tags: [CAPTURED_TAG, ...toolKindsIn(content).keys()],
    provenance: { kind: 'episodic', sources: episode.provenance.sources, derivedFrom: [episode.id] },
    ...(input.occurredAt !== undefined ? { validFrom: input.occurredAt } : {}),
  }));
}
