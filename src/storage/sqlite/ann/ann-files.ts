/**
 * The ANN index on disk, in `<database>.ann/`: per scope (named by a hash of the scope) one JSON
 * manifest and the index file it names (and, for an int8 index, the file of its rows' exact vectors).
 * Files are only ever written under a temporary name, flushed, then renamed, and a new index gets new
 * file names before the manifest points to them, so a process killed at any moment leaves the previous
 * manifest and its files intact. A build lock file keeps
 * processes from building the same scope twice at once; a dead holder's lock is taken over.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { temporaryPath, writeFileAtomically } from '../../../atomic-file.js';
import { crc32 } from '../derived-files.js';
import type { AnnParameters } from './ann-library.js';
import { makeDirectories } from '../../../make-directories.js';

/** Bump when the manifest or file layout changes: older files are then rebuilt. */
const FORMAT = 1;
/** A build lock older than this is taken over even if its holder seems alive. */
const LOCK_STALE_MS = 6 * 60 * 60_000;
/** Leftover temporary files older than this are removed. */
const TEMPORARY_STALE_MS = 60 * 60_000;
const READ_BLOCK = 8 << 20;

/** Everything needed to decide whether an index file can serve a scope, and from where to catch up. */
export interface AnnManifest {
  readonly format: number;
  readonly library: 'usearch';
  readonly scope: string;
  readonly embedder: { readonly name: string; readonly dimension: number };
  readonly parameters: Omit<AnnParameters, 'expansionSearch' | 'compactExpansionSearch' | 'compactRows'>;
  /** Identifies the database (its creation time), so a recreated file at the same path never matches. */
  readonly databaseId: string;
  /** The last `vector_changes.seq` of this scope folded into the file (0: none). */
  readonly highWaterMark: number;
  /** `memory_rowid` of that change, to check that the log is still the one the file was built from. */
  readonly highWaterRowid: number;
  readonly count: number;
  /** The index file's name inside the directory. */
  readonly file: string;
  readonly bytes: number;
  /** `crc32:<hex>` of the index file. */
  readonly checksum: string;
  /** An int8 index's file of exact vectors (`ann-vectors.ts`), written by the same build. */
  readonly vectors?: AnnFileEntry;
  /**
   * The published file's inode and modification time. An index file is written once, under a fresh
   * name, and never changed in place: while both still match, the file is the one the checksum was
   * computed over, and opening it skips reading all of it again (375 ms at 100k vectors). A copy of the
   * directory (another inode) is checked by its checksum. Absent in manifests written before it existed.
   */
  readonly sealed?: { readonly ino: number; readonly mtimeMs: number };
  readonly builtAt: string;
}

/** A published file beside the index file: its name, size, checksum and seal (as the index file's). */
export interface AnnFileEntry {
  readonly file: string;
  readonly bytes: number;
  readonly checksum: string;
  readonly sealed?: { readonly ino: number; readonly mtimeMs: number };
}

/** The manifest fields a builder supplies; the rest is filled in on save. */
export type AnnManifestFields = Omit<
  AnnManifest,
  'format' | 'library' | 'scope' | 'file' | 'bytes' | 'checksum' | 'sealed' | 'builtAt' | 'vectors'
>;

/** File name endings of a scope's published files. */
const INDEX_SUFFIX = '.usearch';
const VECTORS_SUFFIX = '.vectors';

export class AnnFiles {
  readonly directory: string;
  readonly #keys = new Map<string, string>();

  constructor(directory: string) {
    this.directory = directory;
  }

  /** The manifest of `scope`, or `undefined` when missing or unreadable (then the scope is rebuilt). */
  readManifest(scope: string): AnnManifest | undefined {
    try {
      const manifest = JSON.parse(readFileSync(this.#manifestPath(scope), 'utf8')) as AnnManifest;
      return manifest.format === FORMAT && manifest.scope === scope ? manifest : undefined;
    } catch {
      return undefined;
    }
  }

  /** Does `scope` have a manifest (cheap: no read)? */
  hasManifest(scope: string): boolean {
    return existsSync(this.#manifestPath(scope));
  }

  indexPath(manifest: AnnManifest): string {
    return join(this.directory, manifest.file);
  }

  vectorsPath(manifest: AnnManifest): string | undefined {
    return manifest.vectors === undefined ? undefined : join(this.directory, manifest.vectors.file);
  }

  /**
   * Whether the index file (and the vectors file it has) exists with the recorded size and checksum (a
   * corrupt file must never reach the native loader): `'sealed'` when their seals still match (the files
   * the checksums were computed over, not read again), `'checked'` when one was read and every checksum
   * matches, else false.
   */
  verify(manifest: AnnManifest): 'sealed' | 'checked' | false {
    const entries: AnnFileEntry[] = [manifest, ...(manifest.vectors === undefined ? [] : [manifest.vectors])];
    let result: 'sealed' | 'checked' = 'sealed';
    for (const entry of entries) {
      const verified = verifyFile(join(this.directory, entry.file), entry);
      if (verified === false) return false;
      if (verified === 'checked') result = 'checked';
    }
    return result;
  }

  /**
   * Seals a manifest whose file was just verified by its checksum (one written before seals existed,
   * or a copied directory), so later opens skip reading the whole file. Only under the scope's build
   * lock, and only while the manifest still names that file: a builder's newer manifest is never
   * overwritten. False when it did not seal.
   */
  seal(scope: string, manifest: AnnManifest): boolean {
    const release = this.tryLock(scope);
    if (release === undefined) return false;
    try {
      const current = this.readManifest(scope);
      if (current === undefined || current.file !== manifest.file || current.checksum !== manifest.checksum) return false;
      const stat = statSync(this.indexPath(current));
      if (stat.size !== current.bytes) return false;
      let vectors = current.vectors;
      if (vectors !== undefined) {
        const vectorsStat = statSync(join(this.directory, vectors.file));
        if (vectorsStat.size !== vectors.bytes) return false;
        vectors = { ...vectors, sealed: { ino: vectorsStat.ino, mtimeMs: vectorsStat.mtimeMs } };
      }
      const sealed: AnnManifest = {
        ...current,
        sealed: { ino: stat.ino, mtimeMs: stat.mtimeMs },
        ...(vectors === undefined ? {} : { vectors }),
      };
      this.#writeAtomically(this.#manifestPath(scope), `${JSON.stringify(sealed, null, 2)}\n`);
      return true;
    } catch {
      return false;
    } finally {
      release();
    }
  }

  /**
   * Saves an index through `save(path)` under a fresh file name (and, with `saveVectors`, its vectors
   * file through `saveVectors(path)`), then points the scope's manifest to them and removes the scope's
   * older files. Returns the new manifest.
   */
  publish(scope: string, fields: AnnManifestFields, save: (path: string) => void, saveVectors?: (path: string) => void): AnnManifest {
    makeDirectories(this.directory);
    const key = scopeKey(scope);
    const stem = `${key}.${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
    const index = this.#publishFile(`${stem}${INDEX_SUFFIX}`, save);
    const vectors = saveVectors === undefined ? undefined : this.#publishFile(`${stem}${VECTORS_SUFFIX}`, saveVectors);
    const manifest: AnnManifest = {
      format: FORMAT,
      library: 'usearch',
      scope,
      ...fields,
      ...index,
      ...(vectors === undefined ? {} : { vectors }),
      builtAt: new Date().toISOString(),
    };
    this.#writeAtomically(this.#manifestPath(scope), `${JSON.stringify(manifest, null, 2)}\n`);
    this.#removeOlderFiles(key, stem);
    return manifest;
  }

  /** Removes the manifest and every index file of `scope` (other processes may still map one, which POSIX allows). */
  remove(scope: string): void {
    const key = scopeKey(scope);
    rmSync(this.#manifestPath(scope), { force: true });
    let names: string[];
    try {
      names = readdirSync(this.directory);
    } catch {
      return;
    }
    for (const name of names) if (isScopeFile(name, key)) rmSync(join(this.directory, name), { force: true });
  }

  /**
   * Takes the build lock of `scope`: a release function, or `undefined` while another live builder
   * holds it. A lock whose process is gone (same host) or that is older than hours is taken over.
   */
  tryLock(scope: string): (() => void) | undefined {
    makeDirectories(this.directory);
    const path = join(this.directory, `${scopeKey(scope)}.lock`);
    const token = `${hostname()} ${process.pid} ${Date.now()} ${randomBytes(4).toString('hex')}`;
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const fd = openSync(path, 'wx');
        try {
          writeSync(fd, token);
        } finally {
          closeSync(fd);
        }
        return () => {
          try {
            if (readFileSync(path, 'utf8') === token) rmSync(path, { force: true });
          } catch {
            // already gone
          }
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || !isStaleLock(path)) return undefined;
        rmSync(path, { force: true });
      }
    }
    return undefined;
  }

  /** Removes temporary files that a killed builder left behind. */
  removeLeftovers(): void {
    let names: string[];
    try {
      names = readdirSync(this.directory);
    } catch {
      return;
    }
    for (const name of names) {
      if (!name.includes('.tmp-')) continue;
      const path = join(this.directory, name);
      try {
        if (Date.now() - statSync(path).mtimeMs > TEMPORARY_STALE_MS) rmSync(path, { force: true });
      } catch {
        // removed meanwhile
      }
    }
  }

  /** A temporary path in the directory for a file of `scope` being written (a leftover is removed later). */
  temporaryFile(scope: string): string {
    makeDirectories(this.directory);
    return this.#temporaryPath(`${scopeKey(scope)}${VECTORS_SUFFIX}`);
  }

  #manifestPath(scope: string): string {
    let key = this.#keys.get(scope);
    if (key === undefined) {
      key = scopeKey(scope);
      this.#keys.set(scope, key);
    }
    return join(this.directory, `${key}.json`);
  }

  #temporaryPath(name: string): string {
    return temporaryPath(join(this.directory, name));
  }

  #writeAtomically(path: string, text: string): void {
    writeFileAtomically(path, this.#temporaryPath(path.slice(this.directory.length + 1)), text);
  }

  /** Writes `name` through `write(temporary)`, flushes it and renames it into place; its entry. */
  #publishFile(name: string, write: (path: string) => void): AnnFileEntry {
    const temporary = this.#temporaryPath(name);
    try {
      write(temporary);
      syncFile(temporary);
      const sum = checksum(temporary);
      renameSync(temporary, join(this.directory, name));
      // after the rename, which keeps the inode and modification time
      const stat = statSync(join(this.directory, name));
      return { file: name, bytes: stat.size, checksum: sum, sealed: { ino: stat.ino, mtimeMs: stat.mtimeMs } };
    } finally {
      rmSync(temporary, { force: true });
    }
  }

  /** Older files of the scope (those not of `stem`); other processes may still map one, which POSIX allows. */
  #removeOlderFiles(key: string, stem: string): void {
    for (const name of readdirSync(this.directory)) {
      if (!name.startsWith(`${stem}.`) && isScopeFile(name, key)) {
        try {
          rmSync(join(this.directory, name), { force: true });
        } catch {
          // in use on a platform that forbids removing it; a later build retries
        }
      }
    }
  }
}

function sealedBy(entry: AnnFileEntry, stat: { ino: number; mtimeMs: number }): boolean {
  return entry.sealed !== undefined && entry.sealed.ino === stat.ino && entry.sealed.mtimeMs === stat.mtimeMs;
}

function verifyFile(path: string, entry: AnnFileEntry): 'sealed' | 'checked' | false {
  try {
    const stat = statSync(path);
    if (stat.size !== entry.bytes) return false;
    if (sealedBy(entry, stat)) return 'sealed';
    return checksum(path) === entry.checksum ? 'checked' : false;
  } catch {
    return false;
  }
}

/** An index or vectors file of the scope keyed `key` (a temporary one ends otherwise). */
function isScopeFile(name: string, key: string): boolean {
  return name.startsWith(`${key}.`) && (name.endsWith(INDEX_SUFFIX) || name.endsWith(VECTORS_SUFFIX));
}

/** The file-name key of a scope: a hash, since scopes contain `/` and may be long. */
export function scopeKey(scope: string): string {
  return createHash('sha256').update(scope).digest('hex').slice(0, 24);
}

function checksum(path: string): string {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(READ_BLOCK);
    let value = 0;
    for (;;) {
      const read = readSync(fd, buffer, 0, READ_BLOCK, null);
      if (read === 0) break;
      value = crc32(buffer.subarray(0, read), value);
    }
    return `crc32:${value.toString(16).padStart(8, '0')}`;
  } finally {
    closeSync(fd);
  }
}

function syncFile(path: string): void {
  const fd = openSync(path, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function isStaleLock(path: string): boolean {
  try {
    const [host, pid, at] = readFileSync(path, 'utf8').split(' ');
    // empty for a moment after its creator opened it
    if (!Number.isFinite(Number(at))) return Date.now() - statSync(path).mtimeMs > 60_000;
    if (Date.now() - Number(at) > LOCK_STALE_MS) return true;
    if (host !== hostname()) return false;
    try {
      process.kill(Number(pid), 0);
      return false;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'ESRCH';
    }
  } catch {
    // released meanwhile: try again
    return true;
  }
}
