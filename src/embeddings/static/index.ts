/** The fast embedder: a token table distilled once from USE-lite, averaged at query time. */
export { StaticEmbedder } from './static-embedder.js';
export type { StaticEmbedderOptions } from './static-embedder.js';
export { distilStaticTable } from './distil-static-table.js';
export type { StaticDistilOptions, StaticDistilProgress } from './distil-static-table.js';
export { StaticTable } from './static-table.js';
export type { StaticTableIdentity } from './static-table.js';
export { buildStaticVocabulary, readUsePieces } from './static-vocabulary.js';
export type { StaticVocabularyEntry, StaticVocabularyOptions } from './static-vocabulary.js';
