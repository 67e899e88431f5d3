/**
 * The lexical index on disk: `<database>.lexical`, one file holding the index's typed arrays and
 * posting lists as they are in memory, plus the high-water marks they reflect (highest rowid, last
 * `memory_changes.seq`). Loading it is one read and a checksum: the arrays become views into the
 * file's bytes, with no per-row parsing (posting lists and ids are decoded when first used).
 *
 * Layout: 8 bytes magic, the header's length (uint32 LE) and CRC-32, the header (JSON), then the
 * sections, each 8-byte aligned, whose CRC-32 the header holds. Like the ANN files it is derived data:
 * written under a temporary name, flushed, then renamed over the old one (a process killed at any
 * moment leaves the old file or the new one), and a file that is corrupt, of another format version or
 * of another database (the store id of the `meta` table) is ignored and rebuilt, never trusted.
 *
 * Beside it, `<database>.lexical.seal` records the file's inode, modification time, size and checksum
 * once the checksum was computed over it (written, or read and checked): a file that still matches its
 * seal is loaded without reading it twice (the checksum of a million rows' file took 0.3 s of a new
 * process's first recall), as the HNSW files are mapped by theirs. Any change to the file, or a seal of
 * another checksum, means a full check again.
 */
import { closeSync, fstatSync, openSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { temporaryPath, writeFileAtomically } from '../../../atomic-file.js';
import { crc32 } from '../derived-files.js';
import { LexicalData } from './lexical-data.js';
import { PostingTable } from './postings.js';

/** Bump when the layout or the meaning of a section changes: older files are then rebuilt. */
const FORMAT = 2;
const MAGIC = Buffer.from('ENGRLEX\0', 'latin1');
const PREFIX = 16;
/** Leftover temporary files older than this are removed. */
const TEMPORARY_STALE_MS = 60 * 60_000;

/** What a file says about itself; checked against the database before it is used. */
export interface LexicalFileHeader {
  readonly format: number;
  /** The `store.id` of the database it was built from. */
  readonly storeId: string;
  /** The last `memory_changes.seq` folded in (0: none), and that entry's `memory_rowid`. */
  readonly mark: number;
  readonly markRowid: number;
  /** The highest `memories.rowid` folded in. */
  readonly maxRowid: number;
  readonly rows: number;
  readonly bytes: number;
  readonly builtAt: string;
  readonly sections: readonly { name: string; offset: number; length: number }[];
  readonly checksum: number;
}

/** The index file of the database at `databasePath`. */
export function lexicalFilePath(databasePath: string): string {
  return `${databasePath}.lexical`;
}

type Section = { name: string; bytes: Uint8Array };

function typed(name: string, array: Int32Array | Float32Array | Float64Array | Uint8Array, length: number): Section {
  const view = array.subarray(0, length);
  return { name, bytes: new Uint8Array(view.buffer, view.byteOffset, view.byteLength) };
}

function text(name: string, value: unknown): Section {
  return { name, bytes: Buffer.from(JSON.stringify(value), 'utf8') };
}

/** The file's bytes for `data` (caught up to its marks); `markRowid` is the `memory_rowid` of `data.mark`. */
export function serializeLexicalData(data: LexicalData, identity: { storeId: string; markRowid: number }): Uint8Array {
  const n = data.maxRowid + 1;
  const sections: Section[] = [
    typed('present', data.present, n),
    typed('moved', data.moved, n),
    typed('posted', data.posted, n),
    typed('scope', data.scope, n),
    typed('layer', data.layer, n),
    typed('status', data.status, n),
    typed('validFrom', data.validFrom, n),
    typed('validTo', data.validTo, n),
    typed('recordedAt', data.recordedAt, n),
    typed('invalidatedAt', data.invalidatedAt, n),
    typed('ftsLength', data.ftsLength, n),
    typed('termCount', data.termCount, n),
    typed('bm25Length', data.bm25Length, n),
    typed('textHash', data.textHash, n),
    typed('ownStart', data.ownStart, n),
    typed('ownCount', data.ownCount, n),
    typed('ownStems', data.ownStems, data.ownUsed),
    typed('ownFreqs', data.ownFreqs, data.ownUsed),
  ];
  // ids of present rows only, as one UTF-8 run with a start per row
  const idStarts = new Int32Array(n + 1);
  const idParts: Buffer[] = [];
  let idLength = 0;
  for (let d = 0; d < n; d++) {
    idStarts[d] = idLength;
    if (data.present[d] !== 1) continue;
    const id = Buffer.from(data.idOf(d), 'utf8');
    idParts.push(id);
    idLength += id.length;
  }
  idStarts[n] = idLength;
  sections.push(typed('idStarts', idStarts, n + 1), { name: 'ids', bytes: Buffer.concat(idParts, idLength) });
  // posting lists: one run of rows and one of frequencies, a start per term
  const terms: string[] = [];
  let total = 0;
  data.postings.forEach((term, _docs, _freqs, length) => {
    terms.push(term);
    total += length;
  });
  const starts = new Int32Array(terms.length + 1);
  const docs = new Int32Array(total);
  const freqs = new Float32Array(total);
  let at = 0;
  let i = 0;
  data.postings.forEach((_term, termDocs, termFreqs, length) => {
    starts[i++] = at;
    docs.set(termDocs.subarray(0, length), at);
    freqs.set(termFreqs.subarray(0, length), at);
    at += length;
  });
  starts[i] = at;
  sections.push(
    typed('postingStarts', starts, starts.length),
    typed('postingDocs', docs, total),
    typed('postingFreqs', freqs, total),
    text('terms', terms),
    text('stems', [...data.stemIds.keys()]),
    text('scopes', { names: [...data.scopeIds.keys()], docs: data.scopeDocs, length: data.scopeLength }),
    text(
      'delta',
      [...data.delta].map(([d, row]) => [d, [...row]]),
    ),
  );
  return assemble(sections, {
    storeId: identity.storeId,
    mark: data.mark,
    markRowid: identity.markRowid,
    maxRowid: data.maxRowid,
    rows: data.rows,
    tokens: data.tokens,
  });
}

function align(n: number): number {
  return (n + 7) & ~7;
}

function assemble(sections: readonly Section[], fields: Record<string, unknown>): Uint8Array {
  let offset = 0;
  const placed = sections.map(({ name, bytes }) => {
    const at = offset;
    offset = align(offset + bytes.length);
    return { name, offset: at, length: bytes.length };
  });
  const body = new Uint8Array(offset);
  sections.forEach(({ bytes }, i) => body.set(bytes, (placed[i] as { offset: number }).offset));
  const checksum = crc32(body, 0);
  // the header's length decides where the body starts: fix it with a padded `bytes` field
  let headerBytes = Buffer.alloc(0);
  for (let size = 0; ;) {
    const header = { format: FORMAT, ...fields, bytes: size, builtAt: new Date().toISOString(), sections: placed, checksum };
    headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
    const total = align(PREFIX + headerBytes.length) + body.length;
    if (total === size) break;
    size = total;
  }
  const bodyStart = align(PREFIX + headerBytes.length);
  const file = new Uint8Array(bodyStart + body.length);
  file.set(MAGIC, 0);
  const view = new DataView(file.buffer);
  view.setUint32(8, headerBytes.length, true);
  view.setUint32(12, crc32(headerBytes, 0), true);
  file.set(headerBytes, PREFIX);
  file.set(body, bodyStart);
  return file;
}

/**
 * The header of `bytes`, or why they are not a usable index file. `verify: false` skips the contents'
 * checksum (bytes just built), as does a `sealedChecksum` equal to the header's (a file its seal vouches for).
 */
export function readLexicalHeader(
  bytes: Uint8Array,
  options: { verify?: boolean; sealedChecksum?: number } = {},
): LexicalFileHeader | string {
  if (bytes.length < PREFIX || !Buffer.from(bytes.buffer, bytes.byteOffset, 8).equals(MAGIC)) return 'not an index file';
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const length = view.getUint32(8, true);
  if (PREFIX + length > bytes.length) return 'truncated';
  const headerBytes = bytes.subarray(PREFIX, PREFIX + length);
  if (crc32(headerBytes, 0) !== view.getUint32(12, true)) return 'its header is corrupt';
  let header: LexicalFileHeader;
  try {
    header = JSON.parse(Buffer.from(headerBytes.buffer, headerBytes.byteOffset, headerBytes.length).toString('utf8')) as LexicalFileHeader;
  } catch {
    return 'its header is corrupt';
  }
  if (header.format !== FORMAT) return `it has format ${String(header.format)}, this Engram reads ${FORMAT}`;
  if (header.bytes !== bytes.length) return 'truncated';
  const body = bytes.subarray(align(PREFIX + length));
  const vouched = options.verify === false || (options.sealedChecksum !== undefined && options.sealedChecksum === header.checksum);
  if (!vouched && crc32(body, 0) !== header.checksum) return 'its contents are corrupt';
  return header;
}

/**
 * The index held by `bytes` (a whole file whose header `readLexicalHeader` accepted): the typed arrays
 * are views into `bytes`, which must not be reused.
 */
export function deserializeLexicalData(bytes: Uint8Array, header: LexicalFileHeader): LexicalData {
  const bodyStart = align(PREFIX + new DataView(bytes.buffer, bytes.byteOffset, bytes.length).getUint32(8, true));
  let owned = bytes;
  // typed views need their element alignment; a buffer from fs starts at offset 0, any other is copied
  if ((bytes.byteOffset + bodyStart) % 8 !== 0) owned = bytes.slice();
  const base = owned.byteOffset + bodyStart;
  const sections = new Map(header.sections.map((s) => [s.name, s]));
  const part = (name: string): { offset: number; length: number } => {
    const section = sections.get(name);
    if (section === undefined) throw new Error(`the lexical index file has no section "${name}"`);
    return section;
  };
  const i32 = (name: string): Int32Array => {
    const s = part(name);
    return new Int32Array(owned.buffer, base + s.offset, s.length / 4);
  };
  const f32 = (name: string): Float32Array => {
    const s = part(name);
    return new Float32Array(owned.buffer, base + s.offset, s.length / 4);
  };
  const f64 = (name: string): Float64Array => {
    const s = part(name);
    return new Float64Array(owned.buffer, base + s.offset, s.length / 8);
  };
  const u8 = (name: string): Uint8Array => {
    const s = part(name);
    return new Uint8Array(owned.buffer, base + s.offset, s.length);
  };
  const json = <T>(name: string): T => {
    const s = part(name);
    return JSON.parse(Buffer.from(owned.buffer, base + s.offset, s.length).toString('utf8')) as T;
  };
  const data = new LexicalData();
  data.present = u8('present');
  data.moved = u8('moved');
  data.posted = u8('posted');
  data.scope = i32('scope');
  data.layer = u8('layer');
  data.status = u8('status');
  data.validFrom = f64('validFrom');
  data.validTo = f64('validTo');
  data.recordedAt = f64('recordedAt');
  data.invalidatedAt = f64('invalidatedAt');
  data.ftsLength = i32('ftsLength');
  data.termCount = i32('termCount');
  data.bm25Length = i32('bm25Length');
  data.textHash = i32('textHash');
  data.ownStart = i32('ownStart');
  data.ownCount = i32('ownCount');
  data.ownStems = i32('ownStems');
  data.ownFreqs = f32('ownFreqs');
  data.ownUsed = data.ownStems.length;
  data.score = new Float64Array(data.present.length);
  const ids = part('ids');
  data.adoptIds(Buffer.from(owned.buffer, base + ids.offset, ids.length), i32('idStarts'));
  data.postings = PostingTable.fromArrays(json<string[]>('terms'), i32('postingStarts'), i32('postingDocs'), f32('postingFreqs'));
  json<string[]>('stems').forEach((stem, id) => data.stemIds.set(stem, id));
  const scopes = json<{ names: string[]; docs: number[]; length: number[] }>('scopes');
  scopes.names.forEach((name, id) => data.scopeIds.set(name, id));
  data.scopeDocs = scopes.docs;
  data.scopeLength = scopes.length;
  for (const [d, row] of json<[number, [string, number][]][]>('delta')) data.delta.set(d, new Map(row));
  const fields = header as LexicalFileHeader & { tokens: number };
  data.rows = fields.rows;
  data.tokens = fields.tokens;
  data.maxRowid = fields.maxRowid;
  data.mark = fields.mark;
  return data;
}

/** An index file's bytes, its identity on disk, and the checksum its seal vouches for (when the seal matches it). */
export interface LexicalFileRead {
  readonly bytes: Uint8Array;
  readonly identity: FileIdentity;
  readonly sealedChecksum: number | undefined;
}

/** What a seal matches a file by. */
interface FileIdentity {
  readonly ino: number;
  readonly mtimeMs: number;
  readonly size: number;
}

/** The seal file: the identity of the index file its checksum was last computed over. */
interface LexicalSeal extends FileIdentity {
  readonly checksum: number;
}

/** The index file at `path` as read (with what its seal vouches for), or `undefined` when there is none. */
export function readLexicalFile(path: string): LexicalFileRead | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    // the identity of the file read (one descriptor): a file replaced meanwhile is not taken for it
    const { ino, mtimeMs, size } = fstatSync(fd);
    const bytes = readFileSync(fd);
    const identity = { ino, mtimeMs, size };
    const seal = readSeal(path);
    const sealedChecksum = seal !== undefined && sameIdentity(seal, identity) ? seal.checksum : undefined;
    return { bytes, identity, sealedChecksum };
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * Records that the file at `path` with `identity` holds contents of `checksum` (just written, or read and
 * checked). Best effort: without a seal the next load checks the file again.
 */
export function sealLexicalFile(path: string, identity: FileIdentity, checksum: number): void {
  const seal: LexicalSeal = { ino: identity.ino, mtimeMs: identity.mtimeMs, size: identity.size, checksum };
  try {
    writeFileAtomically(sealPath(path), temporaryPath(sealPath(path)), `${JSON.stringify(seal)}\n`);
  } catch {
    // a read-only directory, a full disk: the file is checked when next loaded
  }
}

/** Writes `bytes` as the index file at `path`: a temporary file, flushed, then renamed over it; then seals it. */
export function writeLexicalFile(path: string, bytes: Uint8Array): void {
  writeFileAtomically(path, temporaryPath(path), bytes);
  const header = readLexicalHeader(bytes, { verify: false });
  if (typeof header !== 'string') {
    const { ino, mtimeMs, size } = statSync(path);
    // another process may have replaced the file meanwhile: its header's checksum will not match the seal's
    sealLexicalFile(path, { ino, mtimeMs, size }, header.checksum);
  }
  removeLeftovers(path);
  removeLeftovers(sealPath(path));
}

/** Removes the index file and its seal (after a purge, so no file keeps a purged record's terms). */
export function removeLexicalFile(path: string): void {
  rmSync(path, { force: true });
  rmSync(sealPath(path), { force: true });
}

function sealPath(path: string): string {
  return `${path}.seal`;
}

function readSeal(path: string): LexicalSeal | undefined {
  try {
    const seal = JSON.parse(readFileSync(sealPath(path), 'utf8')) as Partial<LexicalSeal>;
    const numbers = [seal.ino, seal.mtimeMs, seal.size, seal.checksum];
    return numbers.every((n) => typeof n === 'number' && Number.isFinite(n)) ? (seal as LexicalSeal) : undefined;
  } catch {
    return undefined;
  }
}

function sameIdentity(a: FileIdentity, b: FileIdentity): boolean {
  return a.ino === b.ino && a.mtimeMs === b.mtimeMs && a.size === b.size;
}

/** Temporary files a killed writer left behind. */
function removeLeftovers(path: string): void {
  const directory = dirname(path);
  const prefix = `${basename(path)}.tmp-`;
  let names: string[];
  try {
    names = readdirSync(directory);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    try {
      if (Date.now() - statSync(join(directory, name)).mtimeMs > TEMPORARY_STALE_MS) rmSync(join(directory, name), { force: true });
    } catch {
      // removed meanwhile
    }
  }
}
