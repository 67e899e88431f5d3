import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { findOnnxBlend, ONNX_MODELS, type OnnxModelSpec } from '../onnx-model-catalogue.js';
import { modelDirectory } from './model-cache-dir.js';

/** The files of an installed model, by their names in its folder. */
export const MODEL_FILES = { onnx: 'model.onnx', tokenizer: 'tokenizer.json', manifest: 'source.json' } as const;

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
