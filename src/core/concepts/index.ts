/** Concepts: candidates of a record, extraction into concept records with refs, the background worker. */
export { conceptCandidates, conceptName, type ConceptCandidate } from './candidates.js';
export { extractConcepts, isConcept, newConceptRecord, type ConceptDeps, type ExtractionReport } from './extract.js';
export { BackgroundWorker, CONCEPT_JOB_KIND, drainConceptJobs, newWorkerOwner, type DrainOptions, type DrainReport } from './worker.js';
