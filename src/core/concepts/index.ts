/** Concepts: candidates of a record, extraction into concept records with refs, the job queue's drain. */
export { conceptCandidates, conceptName, type ConceptCandidate } from './candidates.js';
export { extractConcepts, newConceptRecord, type ConceptDeps, type ExtractionReport } from './extract.js';
export { isConcept } from '../record-kinds.js';
export { CONCEPT_JOB_KIND, drainConceptJobs, newWorkerOwner, type DrainOptions, type DrainReport } from './concept-jobs.js';
