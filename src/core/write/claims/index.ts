/**
 * Claim slots and supersession for the write path (§11.1-2, §11.12): extract
 * `subject / attribute / value` from semantic and procedural statements, and decide whether a new
 * claim supersedes, agrees with, or coexists with an existing one.
 */
export { extractClaim, analyzeClaim, claimClauses, type ClaimAnalysis } from './claim-extractor.js';
export { compareClaims, type ClaimComparison, type ClaimRelation, type CompareClaimsOptions } from './claim-comparison.js';
export { toolKindsIn, toolsOfSameKind } from './tool-kinds.js';
export type { ExtractedSlot } from './extracted-slot.js';
export type { ClaimMarker } from './clause-markers.js';
export type { Cardinality } from './attribute-families.js';
