export { createRedactor, placeholder, Redactor, type RedactedText, type RedactionOptions, type RedactionPattern } from './redactor.js';
export { redactInputs, redactRecord, redactValue } from './redact-values.js';
export { redactStored, type RedactInput, type RedactReport } from './redact-stored.js';
