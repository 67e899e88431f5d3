/**
 * The exact vectors of an int8 HNSW index's rows, in a file written by the same build: the rows a
 * search returns are re-scored from it, since the index's int8 scores reorder near-ties in the top 10.
 *
 * Each vector is kept as IEEE half precision (float16, rounded to nearest even), as the f16 index kept
 * them: a cosine read back differs from the float32 one by well under 1e-4 (bfloat16, half the code,
 * was off by up to 3e-4 at 384-d, as much as the int8 scores it is to correct). Layout, little-endian:
 *
 *   header (32 bytes)  "EGAV", format (u32), dimension (u32), live rows (u32), stored rows (u32), 12 spare bytes
 *   stored rows        `dimension` float16 each, in the order they were added (a row added again supersedes)
 *   table              live rowids (f64, ascending), then each one's stored row (u32)
 *
 * A reader holds the table (12 bytes a row) and reads the rows it scores with one `pread` each.
 */
import { closeSync, fstatSync, fsyncSync, openSync, readSync, renameSync, rmSync } from 'node:fs';
import { writeFully } from '../../../atomic-file.js';

const MAGIC = 0x56414745; // "EGAV"
const FORMAT = 1;
const HEADER_BYTES = 32;
/** Rows buffered before a write. */
const BUFFERED_ROWS = 1024;

/** Writes a vectors file row by row (under a temporary path), then its table on `finish`. */
export class AnnVectorsWriter {
  readonly #path: string;
  readonly #dimension: number;
  #fd: number | undefined;
  /** Per stored row its rowid; a removal is an entry with no row (position -1). */
  #rowids = new Float64Array(4096);
  #positions = new Int32Array(4096);
  #entries = 0;
  #stored = 0;
  readonly #buffer: Uint16Array;
  #buffered = 0;

  constructor(path: string, dimension: number) {
    this.#path = path;
    this.#dimension = dimension;
    this.#buffer = new Uint16Array(BUFFERED_ROWS * dimension);
    this.#fd = openSync(path, 'w');
    writeFully(this.#fd, new Uint8Array(HEADER_BYTES));
  }

  /** Adds the row `rowid` (`dimension` components of `vectors` from `offset`); it supersedes an earlier one. */
  add(rowid: number, vectors: Float32Array, offset = 0): void {
    const dimension = this.#dimension;
    const base = this.#buffered * dimension;
    for (let i = 0; i < dimension; i++) this.#buffer[base + i] = toFloat16(vectors[offset + i] as number);
    this.#buffered++;
    this.#entry(rowid, this.#stored++);
    if (this.#buffered === BUFFERED_ROWS) this.#flush();
  }

  /** Drops the row `rowid` (added earlier or not). */
  remove(rowid: number): void {
    this.#entry(rowid, -1);
  }

  /** Writes the table and the header, flushes the file to disk and renames it to `path`. */
  finish(path: string): void {
    const fd = this.#open();
    this.#flush();
    // the last entry of each rowid wins: entries sorted by rowid, ties in the order they came
    const entries = this.#entries;
    const order = new Uint32Array(entries);
    for (let i = 0; i < entries; i++) order[i] = i;
    const rowids = this.#rowids;
    order.sort((a, b) => (rowids[a] as number) - (rowids[b] as number) || a - b);
    const liveRowids = new Float64Array(entries);
    const livePositions = new Uint32Array(entries);
    let live = 0;
    for (let i = 0; i < entries; i++) {
      const entry = order[i] as number;
      const next = order[i + 1];
      if (next !== undefined && rowids[next] === rowids[entry]) continue;
      const position = this.#positions[entry] as number;
      if (position < 0) continue;
      liveRowids[live] = rowids[entry] as number;
      livePositions[live] = position;
      live++;
    }
    const tableOffset = HEADER_BYTES + this.#stored * this.#dimension * 2;
    writeFully(fd, new Uint8Array(liveRowids.buffer, 0, live * 8), tableOffset);
    writeFully(fd, new Uint8Array(livePositions.buffer, 0, live * 4), tableOffset + live * 8);
    const header = new DataView(new ArrayBuffer(HEADER_BYTES));
    header.setUint32(0, MAGIC, true);
    header.setUint32(4, FORMAT, true);
    header.setUint32(8, this.#dimension, true);
    header.setUint32(12, live, true);
    header.setUint32(16, this.#stored, true);
    writeFully(fd, new Uint8Array(header.buffer), 0);
    fsyncSync(fd);
    closeSync(fd);
    this.#fd = undefined;
    renameSync(this.#path, path);
  }

  /** Closes and removes the unfinished file. */
  abort(): void {
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
    rmSync(this.#path, { force: true });
  }

  #open(): number {
    if (this.#fd === undefined) throw new Error('the vectors file was already finished or aborted');
    return this.#fd;
  }

  #entry(rowid: number, position: number): void {
    if (this.#entries === this.#rowids.length) {
      const rowids = new Float64Array(this.#entries * 2);
      rowids.set(this.#rowids);
      this.#rowids = rowids;
      const positions = new Int32Array(this.#entries * 2);
      positions.set(this.#positions);
      this.#positions = positions;
    }
    this.#rowids[this.#entries] = rowid;
    this.#positions[this.#entries] = position;
    this.#entries++;
  }

  #flush(): void {
    if (this.#buffered === 0) return;
    const bytes = new Uint8Array(this.#buffer.buffer, 0, this.#buffered * this.#dimension * 2);
    writeFully(this.#open(), bytes, HEADER_BYTES + (this.#stored - this.#buffered) * this.#dimension * 2);
    this.#buffered = 0;
  }
}

/** A vectors file opened for scoring; `close` releases its descriptor. */
export class AnnVectorsReader {
  readonly #fd: number;
  readonly #dimension: number;
  readonly #rowids: Float64Array;
  readonly #positions: Uint32Array;
  readonly #row: Buffer;
  readonly #halves: Uint16Array;
  readonly #floats = float16Table();
  #closed = false;

  private constructor(fd: number, dimension: number, rowids: Float64Array, positions: Uint32Array) {
    this.#fd = fd;
    this.#dimension = dimension;
    this.#rowids = rowids;
    this.#positions = positions;
    this.#row = Buffer.alloc(dimension * 2);
    this.#halves = new Uint16Array(this.#row.buffer, this.#row.byteOffset, dimension);
  }

  /** Opens `path`; throws when it is not a vectors file of `dimension`-d rows whose size matches its header. */
  static open(path: string, dimension: number): AnnVectorsReader {
    const fd = openSync(path, 'r');
    try {
      const header = Buffer.alloc(HEADER_BYTES);
      if (readSync(fd, header, 0, HEADER_BYTES, 0) !== HEADER_BYTES) throw new Error('the vectors file is truncated');
      if (header.readUInt32LE(0) !== MAGIC || header.readUInt32LE(4) !== FORMAT) throw new Error('not a vectors file of this format');
      if (header.readUInt32LE(8) !== dimension)
        throw new Error(`the vectors file holds ${header.readUInt32LE(8)}-d vectors, not ${dimension}`);
      const live = header.readUInt32LE(12);
      const stored = header.readUInt32LE(16);
      const tableOffset = HEADER_BYTES + stored * dimension * 2;
      if (fstatSync(fd).size !== tableOffset + live * 12 || live > stored) throw new Error('the vectors file does not match its header');
      const rowids = new Float64Array(live);
      const positions = new Uint32Array(live);
      readAll(fd, new Uint8Array(rowids.buffer), tableOffset);
      readAll(fd, new Uint8Array(positions.buffer), tableOffset + live * 8);
      for (let i = 0; i < live; i++) {
        if ((positions[i] as number) >= stored || (i > 0 && (rowids[i] as number) <= (rowids[i - 1] as number))) {
          throw new Error('the vectors file has a malformed table');
        }
      }
      return new AnnVectorsReader(fd, dimension, rowids, positions);
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }

  get size(): number {
    return this.#rowids.length;
  }

  /** The cosine of `query` and the row `rowid`, or `undefined` when the file does not hold it. */
  cosine(rowid: number, query: Float32Array, queryInverseNorm: number): number | undefined {
    const slot = this.#find(rowid);
    if (slot < 0) return undefined;
    const dimension = this.#dimension;
    readAll(this.#fd, this.#row, HEADER_BYTES + (this.#positions[slot] as number) * dimension * 2);
    // decoded, multiplied and squared in one pass (half the time of decoding first, then two passes)
    const halves = this.#halves;
    const floats = this.#floats;
    let dot0 = 0;
    let dot1 = 0;
    let norm0 = 0;
    let norm1 = 0;
    const even = dimension - (dimension % 2);
    for (let i = 0; i < even; i += 2) {
      const a = floats[halves[i] as number] as number;
      const b = floats[halves[i + 1] as number] as number;
      dot0 += a * (query[i] as number);
      dot1 += b * (query[i + 1] as number);
      norm0 += a * a;
      norm1 += b * b;
    }
    if (even < dimension) {
      const a = floats[halves[even] as number] as number;
      dot0 += a * (query[even] as number);
      norm0 += a * a;
    }
    const norm = norm0 + norm1;
    return norm > 0 ? ((dot0 + dot1) / Math.sqrt(norm)) * queryInverseNorm : 0;
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    closeSync(this.#fd);
  }

  #find(rowid: number): number {
    const rowids = this.#rowids;
    let low = 0;
    let high = rowids.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const value = rowids[middle] as number;
      if (value === rowid) return middle;
      if (value < rowid) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }
}

const bits = new Uint32Array(1);
const float = new Float32Array(bits.buffer);

/** The float16 code nearest to `value` (ties to even; too large: ±infinity; NaN stays NaN). */
export function toFloat16(value: number): number {
  float[0] = value;
  const x = bits[0] as number;
  const sign = (x >>> 16) & 0x8000;
  const exponent = (x >>> 23) & 0xff;
  const mantissa = x & 0x7fffff;
  if (exponent === 0xff) return sign | 0x7c00 | (mantissa !== 0 ? 0x200 : 0);
  const half = exponent - 127 + 15;
  if (half >= 0x1f) return sign | 0x7c00;
  if (half <= 0) {
    // a subnormal float16: the value in units of 2^-24
    if (half < -10) return sign;
    const shift = 14 - half;
    const full = mantissa | 0x800000;
    const rest = full & ((1 << shift) - 1);
    const middle = 1 << (shift - 1);
    let code = full >>> shift;
    if (rest > middle || (rest === middle && (code & 1) === 1)) code++;
    return sign | code;
  }
  let code = (half << 10) | (mantissa >>> 13);
  const rest = mantissa & 0x1fff;
  // a carry out of the mantissa steps the exponent up, which is the right rounding (up to infinity)
  if (rest > 0x1000 || (rest === 0x1000 && (code & 1) === 1)) code++;
  return sign | code;
}

/** The value of a float16 code. */
export function fromFloat16(code: number): number {
  const sign = (code & 0x8000) !== 0 ? -1 : 1;
  const exponent = (code >>> 10) & 0x1f;
  const mantissa = code & 0x3ff;
  if (exponent === 0) return sign * mantissa * 2 ** -24;
  if (exponent === 0x1f) return mantissa !== 0 ? Number.NaN : sign * Number.POSITIVE_INFINITY;
  return sign * (1 + mantissa / 1024) * 2 ** (exponent - 15);
}

let table: Float32Array | undefined;

/** Every float16 code's value (256 KiB, made on first use). */
function float16Table(): Float32Array {
  if (table === undefined) {
    table = new Float32Array(65536);
    for (let code = 0; code < 65536; code++) table[code] = fromFloat16(code);
  }
  return table;
}

function readAll(fd: number, bytes: Uint8Array, position: number): void {
  for (let at = 0; at < bytes.length;) {
    const read = readSync(fd, bytes, at, bytes.length - at, position + at);
    if (read === 0) throw new Error('the vectors file is truncated');
    at += read;
  }
}
