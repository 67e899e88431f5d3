import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { temporaryPath, writeFileAtomically } from '../../../atomic-file.js';
import { findOnnxBlend, ONNX_MODELS, type OnnxModelSpec } from '../onnx-model-catalogue.js';
import { modelDirectory } from './model-cache-dir.js';

/** The files of an installed model, by their names in its folder. */
export const MODEL_FILES = { onnx: 'model.onnx', tokenizer: 'tokenizer.json', manifest: 'source.json', seal: 'verified.json' } as const;

/** What `engram models pull` writes beside the files: where they came from. */
export interface ModelManifest {
  readonly name: string;
  /** `hub Xenova/bge-small-en-v1.5@main` or `maven dev.langchain4j:…:0.36.2`. */
  readonly source: string;
  readonly sha256: { readonly onnx: string; readonly tokenizer: string };
}

/** One row of {@link listInstalledModels}. */
export interface InstalledModel {
  readonly name: string;
  readonly directory: string;
  /** Both files present. */
  readonly present: boolean;
  /** Hashes match the catalogue (only checked with `verify`; otherwise undefined). */
  readonly verified?: boolean;
  readonly source?: string;
  readonly sha256?: ModelManifest['sha256'];
}

/**
 * The sha256 (hex) of a file, streamed so a large model is never held whole in memory.
 *
 * @example
 * ```ts
 * await sha256File('/cache/models/bge-small-en-v1.5/model.onnx'); // '6c9c6101…'
 * ```
 */
export function sha256File(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')));
  });
}

/**
 * Are the model's two files in the cache (for a blend: every member's)? A cheap check (no hashing)
 * for choosing an embedder.
 *
 * @example
 * ```ts
 * hasModelFiles('/home/ann/.cache/engram', 'bge-small-en-v1.5'); // true after `engram models pull`
 * ```
 */
export function hasModelFiles(cacheDir: string, name: string): boolean {
  const blend = findOnnxBlend(name);
  if (blend !== undefined) return blend.members.every((member) => hasModelFiles(cacheDir, member.model));
  const directory = modelDirectory(cacheDir, name);
  return existsSync(join(directory, MODEL_FILES.onnx)) && existsSync(join(directory, MODEL_FILES.tokenizer));
}

/**
 * Hashes an installed model's files and compares them with the catalogue; true only when both match.
 *
 * @example
 * ```ts
 * await verifyModelFiles('/home/ann/.cache/engram', findOnnxModel('bge-small-en-v1.5')!); // true
 * ```
 */
export async function verifyModelFiles(cacheDir: string, spec: OnnxModelSpec): Promise<boolean> {
  if (!hasModelFiles(cacheDir, spec.name)) return false;
  const directory = modelDirectory(cacheDir, spec.name);
  const [onnx, tokenizer] = await Promise.all([
    sha256File(join(directory, MODEL_FILES.onnx)),
    sha256File(join(directory, MODEL_FILES.tokenizer)),
  ]);
  return onnx === spec.sha256.onnx && tokenizer === spec.sha256.tokenizer;
}

/** A model file as it was when its hash last matched the catalogue's. */
interface FileSeal {
  readonly sha256: string;
  readonly bytes: number;
  readonly ino: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
}

/** What `verified.json` holds: both files' seals. */
interface ModelSeal {
  readonly onnx: FileSeal;
  readonly tokenizer: FileSeal;
}

/** The outcome of {@link checkModelFiles}: whether the files are the catalogue's, and whether it hashed them to know. */
export interface ModelFilesCheck {
  readonly ok: boolean;
  readonly hashed: boolean;
}

/**
 * Whether an installed model's files are the catalogue's, as {@link verifyModelFiles} says, without
 * hashing them again while they are the very files that last matched. After a match, each file's size,
 * inode and modification and change times are noted beside it (`verified.json`); while all of them and
 * the catalogue's hashes are unchanged, the check is two `stat`s. Writing to a file, replacing it (a new
 * pull) or copying the folder changes its change time or inode, so such files are hashed again.
 * Hashing the default blend's ~58 MB took 120-230 ms of every process's first embedding on a 2-core
 * machine. The note is best effort: where the folder cannot be written the files are hashed each time.
 * `engram models list` always hashes.
 *
 * @example
 * ```ts
 * await checkModelFiles('/home/ann/.cache/engram', findOnnxModel('e5-small-v2')!); // { ok: true, hashed: false }
 * ```
 */
export async function checkModelFiles(cacheDir: string, spec: OnnxModelSpec): Promise<ModelFilesCheck> {
  if (!hasModelFiles(cacheDir, spec.name)) return { ok: false, hashed: false };
  const directory = modelDirectory(cacheDir, spec.name);
  const paths = { onnx: join(directory, MODEL_FILES.onnx), tokenizer: join(directory, MODEL_FILES.tokenizer) };
  const sealPath = join(directory, MODEL_FILES.seal);
  // the files' identity before any hashing, so a file changed while it is read is never sealed
  const [seal, stats] = await Promise.all([
    readSeal(sealPath),
    Promise.all([stat(paths.onnx), stat(paths.tokenizer)]).catch(() => undefined),
  ]);
  if (stats === undefined) return { ok: await verifyModelFiles(cacheDir, spec), hashed: true };
  const [onnx, tokenizer] = stats;
  if (seal !== undefined && sealMatches(seal.onnx, onnx, spec.sha256.onnx) && sealMatches(seal.tokenizer, tokenizer, spec.sha256.tokenizer))
    return { ok: true, hashed: false };
  const ok = await verifyModelFiles(cacheDir, spec);
  if (ok) writeSeal(sealPath, { onnx: fileSeal(onnx, spec.sha256.onnx), tokenizer: fileSeal(tokenizer, spec.sha256.tokenizer) });
  return { ok, hashed: true };
}

type FileStat = Awaited<ReturnType<typeof stat>>;

function fileSeal(stats: FileStat, sha256: string): FileSeal {
  return { sha256, bytes: Number(stats.size), ino: Number(stats.ino), mtimeMs: Number(stats.mtimeMs), ctimeMs: Number(stats.ctimeMs) };
}

function sealMatches(seal: FileSeal | undefined, stats: FileStat, sha256: string): boolean {
  if (seal === undefined) return false;
  const now = fileSeal(stats, sha256);
  return (
    seal.sha256 === now.sha256 &&
    seal.bytes === now.bytes &&
    seal.ino === now.ino &&
    seal.mtimeMs === now.mtimeMs &&
    seal.ctimeMs === now.ctimeMs
  );
}

async function readSeal(path: string): Promise<Partial<ModelSeal> | undefined> {
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as unknown;
    return typeof parsed === 'object' && parsed !== null ? (parsed as Partial<ModelSeal>) : undefined;
  } catch {
    return undefined;
  }
}

/** Writes the seal whole or not at all; a folder that cannot be written keeps no seal. */
function writeSeal(path: string, seal: ModelSeal): void {
  try {
    writeFileAtomically(path, temporaryPath(path), `${JSON.stringify(seal, null, 2)}\n`);
  } catch {
    // best effort: the files are hashed again next time
  }
}

/**
 * Every catalogue model that has a folder in the cache, with its source (from `source.json`) and,
 * with `verify`, whether its files still have the catalogue's hashes.
 *
 * @example
 * ```ts
 * const models = await listInstalledModels('/home/ann/.cache/engram', { verify: true });
 * ```
 */
export async function listInstalledModels(cacheDir: string, options: { verify?: boolean } = {}): Promise<InstalledModel[]> {
  const rows: InstalledModel[] = [];
  for (const spec of ONNX_MODELS) {
    const directory = modelDirectory(cacheDir, spec.name);
    if (!existsSync(directory)) continue;
    const manifest = await readManifest(directory);
    const present = hasModelFiles(cacheDir, spec.name);
    rows.push({
      name: spec.name,
      directory,
      present,
      ...(options.verify === true ? { verified: present && (await verifyModelFiles(cacheDir, spec)) } : {}),
      ...(manifest !== undefined ? { source: manifest.source, sha256: manifest.sha256 } : {}),
    });
  }
  return rows;
}

async function readManifest(directory: string): Promise<ModelManifest | undefined> {
  try {
    const parsed = JSON.parse(await readFile(join(directory, MODEL_FILES.manifest), 'utf8')) as Partial<ModelManifest>;
    return typeof parsed.source === 'string' && typeof parsed.sha256 === 'object' ? (parsed as ModelManifest) : undefined;
  } catch {
    return undefined;
  }
}
