import { readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { EngramError } from '../../core/errors.js';
import type { StaticVocabularyEntry } from './static-vocabulary.js';
import { makeDirectories } from '../../make-directories.js';

/** Identity of a table file, checked when it is read back. */
export interface StaticTableIdentity {
  /** The embedder name the table belongs to, e.g. `static-use-lite:512:v1`. */
  readonly name: string;
  /** Vector length. */
  readonly dimension: number;
}

interface StaticTableHeader extends StaticTableIdentity {
  readonly format: typeof FORMAT;
  readonly rows: number;
  readonly quantisation: 'int8-per-row';
  readonly keys: readonly string[];
  readonly createdAt: string;
}

const MAGIC = 'ENGRAMST';
const FORMAT = 1;
const PREFIX_BYTES = MAGIC.length + 4;

/**
 * The distilled token table: one vector per vocabulary key (the full model's embedding of the key's
 * text, minus the table's mean vector so that shared "sentence-ness" does not dominate averages), a
 * SIF weight per key, stored as int8 with one float scale per row (~18 MB for 38k keys × 512).
 *
 * File layout: `ENGRAMST`, u32 header length, JSON header (identity, keys), padding to 4 bytes,
 * float32 scales[rows], float32 weights[rows], int8 values[rows × dimension].
 *
 * @example
 * ```ts
 * const table = StaticTable.fromVectors({ entries, vectors, dimension: 512 });
 * await table.write('/tmp/table.bin', { name: 'static-use-lite:512:v1', dimension: 512 });
 * const again = await StaticTable.read('/tmp/table.bin', { name: 'static-use-lite:512:v1', dimension: 512 });
 * ```
 */
export class StaticTable {
  readonly dimension: number;
  readonly keys: readonly string[];
  readonly #index: Map<string, number>;
  readonly #scales: Float32Array;
  readonly #weights: Float32Array;
  readonly #values: Int8Array;

  private constructor(parts: {
    dimension: number;
    keys: readonly string[];
    scales: Float32Array;
    weights: Float32Array;
    values: Int8Array;
  }) {
    this.dimension = parts.dimension;
    this.keys = parts.keys;
    this.#scales = parts.scales;
    this.#weights = parts.weights;
    this.#values = parts.values;
    this.#index = new Map();
    parts.keys.forEach((key, row) => this.#index.set(key, row));
  }

  /**
   * Builds a table from the vocabulary and the full model's vectors for it (`entries.length ×
   * dimension` values, in entry order): subtracts the mean vector, then quantises each row to int8.
   */
  static fromVectors(input: { entries: readonly StaticVocabularyEntry[]; vectors: Float32Array; dimension: number }): StaticTable {
    const { entries, vectors, dimension } = input;
    const rows = entries.length;
    if (vectors.length !== rows * dimension) {
      throw new EngramError('EMBEDDING_FAILED', 'The distilled vectors do not match the vocabulary size.', {
        details: { rows, dimension, values: vectors.length },
      });
    }
    const mean = new Float64Array(dimension);
    for (let row = 0; row < rows; row++) {
      for (let j = 0; j < dimension; j++) mean[j] = (mean[j] as number) + (vectors[row * dimension + j] as number);
    }
    for (let j = 0; j < dimension; j++) mean[j] = (mean[j] as number) / Math.max(1, rows);
    const scales = new Float32Array(rows);
    const weights = Float32Array.from(entries, (entry) => entry.weight);
    const values = new Int8Array(rows * dimension);
    const centred = new Float64Array(dimension);
    for (let row = 0; row < rows; row++) {
      let maxAbs = 0;
      for (let j = 0; j < dimension; j++) {
        const value = (vectors[row * dimension + j] as number) - (mean[j] as number);
        centred[j] = value;
        maxAbs = Math.max(maxAbs, Math.abs(value));
      }
      const scale = maxAbs === 0 ? 0 : maxAbs / 127;
      scales[row] = scale;
      for (let j = 0; j < dimension; j++) {
        values[row * dimension + j] = scale === 0 ? 0 : Math.round((centred[j] as number) / scale);
      }
    }
    return new StaticTable({ dimension, keys: entries.map((entry) => entry.key), scales, weights, values });
  }

  /**
   * Reads a table file written by {@link StaticTable.write}. Throws `EngramError('STORAGE_CORRUPT')`
   * when the file is not a table, is truncated, or belongs to another name or dimension.
   */
  static async read(path: string, expected: StaticTableIdentity): Promise<StaticTable> {
    const bytes = await readFile(path);
    const corrupt = (why: string): EngramError =>
      new EngramError('STORAGE_CORRUPT', `The static embedding table ${path} is unusable (${why}); delete it to distil it again.`, {
        details: { path },
      });
    if (bytes.length < PREFIX_BYTES || bytes.toString('latin1', 0, MAGIC.length) !== MAGIC) throw corrupt('not a table file');
    const headerLength = bytes.readUInt32LE(MAGIC.length);
    let header: StaticTableHeader;
    try {
      header = JSON.parse(bytes.toString('utf8', PREFIX_BYTES, PREFIX_BYTES + headerLength)) as StaticTableHeader;
    } catch {
      throw corrupt('unreadable header');
    }
    if (header.format !== FORMAT) throw corrupt(`format ${String(header.format)}, expected ${FORMAT}`);
    if (header.name !== expected.name || header.dimension !== expected.dimension) {
      throw corrupt(`made for ${header.name} (${header.dimension}-d), expected ${expected.name} (${expected.dimension}-d)`);
    }
    const rows = header.rows;
    if (!Array.isArray(header.keys) || header.keys.length !== rows) throw corrupt('key count does not match rows');
    const start = align4(PREFIX_BYTES + headerLength);
    if (bytes.length !== start + rows * 8 + rows * header.dimension) throw corrupt('wrong length, probably truncated');
    // Floats are copied into aligned arrays (the Buffer may sit at any offset); the int8 values,
    // which need no alignment, stay a view on the file's bytes.
    const scales = new Float32Array(rows);
    const weights = new Float32Array(rows);
    new Uint8Array(scales.buffer).set(bytes.subarray(start, start + rows * 4));
    new Uint8Array(weights.buffer).set(bytes.subarray(start + rows * 4, start + rows * 8));
    const values = new Int8Array(bytes.buffer, bytes.byteOffset + start + rows * 8, rows * header.dimension);
    return new StaticTable({ dimension: header.dimension, keys: header.keys, scales, weights, values });
  }

  /** Writes the table atomically (temporary file, then rename), creating the directory if needed. */
  async write(path: string, identity: StaticTableIdentity): Promise<void> {
    const rows = this.keys.length;
    const header: StaticTableHeader = {
      format: FORMAT,
      name: identity.name,
      dimension: this.dimension,
      rows,
      quantisation: 'int8-per-row',
      keys: this.keys,
      createdAt: new Date().toISOString(),
    };
    const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
    const start = align4(PREFIX_BYTES + headerBytes.length);
    const file = Buffer.alloc(start + rows * 8 + this.#values.length);
    file.write(MAGIC, 0, 'latin1');
    file.writeUInt32LE(headerBytes.length, MAGIC.length);
    headerBytes.copy(file, PREFIX_BYTES);
    Buffer.from(this.#scales.buffer, this.#scales.byteOffset, rows * 4).copy(file, start);
    Buffer.from(this.#weights.buffer, this.#weights.byteOffset, rows * 4).copy(file, start + rows * 4);
    Buffer.from(this.#values.buffer, this.#values.byteOffset, this.#values.length).copy(file, start + rows * 8);
    makeDirectories(dirname(path));
    const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(temporary, file);
    await rename(temporary, path);
  }

  /** Row of a key, or undefined when the key is not in the vocabulary. */
  rowOf(key: string): number | undefined {
    return this.#index.get(key);
  }

  /** SIF weight of a row. */
  weightOf(row: number): number {
    return this.#weights[row] as number;
  }

  /** Adds `weight ×` the row's vector to `target` (length `dimension`). */
  addRow(target: Float32Array, row: number, weight: number): void {
    const factor = weight * (this.#scales[row] as number);
    const values = this.#values;
    const offset = row * this.dimension;
    const dimension = this.dimension;
    const whole = dimension - (dimension % 4);
    // unrolled (~1.4x on 512-d rows); each component is still one multiply-add, so the bits are the loop's
    let j = 0;
    for (; j < whole; j += 4) {
      target[j] = (target[j] as number) + factor * (values[offset + j] as number);
      target[j + 1] = (target[j + 1] as number) + factor * (values[offset + j + 1] as number);
      target[j + 2] = (target[j + 2] as number) + factor * (values[offset + j + 2] as number);
      target[j + 3] = (target[j + 3] as number) + factor * (values[offset + j + 3] as number);
    }
    for (; j < dimension; j++) target[j] = (target[j] as number) + factor * (values[offset + j] as number);
  }
}

function align4(value: number): number {
  return (value + 3) & ~3;
}
