export { createRedactor, placeholder, Redactor, type RedactedText, type RedactionOptions, type RedactionPattern } from './redactor.js';
