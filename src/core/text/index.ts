/**
 * Text analysis shared by the write and read paths: tokens, stop words, stems, entities, dates and
 * sentences. Pure and fast; everything here runs on every `remember` and `recall`.
 */
export { tokenize, contentTerms, contentTermCount, countedContentTerms, normalizeTokens } from './tokenize.js';
export { hasCjk, segmentCjk, spaceCjkWords } from './cjk.js';
export { compatibilityForm, lexicalText } from './lexical-text.js';
export { STOP_WORDS, isStopWord } from './stop-words.js';
export { stem } from './stem.js';
export { extractEntities } from './entities.js';
export { parseTemporalExpression, extractDates, type TemporalWindow, type TemporalOptions } from './temporal.js';
export { isTimeZone } from './time-zone.js';
export { splitSentences, type TextSpan } from './sentences.js';
export { cutText } from './cut-text.js';
export { dropFormatCharacters } from './format-characters.js';
