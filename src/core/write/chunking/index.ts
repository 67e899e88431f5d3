/** Chunking of long texts into overlapping, sentence-aligned pieces. */
export { chunkText, shouldChunk, DEFAULT_CHUNK_CHARS, type TextChunk, type ChunkOptions } from './chunk-text.js';
