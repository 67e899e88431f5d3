import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EngramError } from '../../../core/errors.js';
import { findOnnxModel, ONNX_MODELS, type OnnxModelSource, type OnnxModelSpec } from '../onnx-model-catalogue.js';
import { modelDirectory } from './model-cache-dir.js';
import { checkModelFiles, MODEL_FILES, type ModelManifest } from './installed-models.js';
import { readZipEntry } from './zip-entry.js';
import { makeDirectories } from '../../../make-directories.js';

/** Options of {@link pullOnnxModel}. */
export interface PullOnnxModelOptions {
  readonly name: string;
  readonly cacheDir: string;
  /** Hugging Face endpoint; files are fetched from `<endpoint>/<repo>/resolve/<revision>/<file>`. */
  readonly hubEndpoint?: string;
  /** The `mvn` executable, or null to skip Maven Central (e.g. mvn is not on the PATH). */
  readonly mavenCommand?: string | null;
  /** `-Dmaven.repo.local`; default a temporary folder removed after the pull. */
  readonly mavenRepoLocal?: string;
  /** Keep the files that are already there with the right hashes (default true). */
  readonly ifMissing?: boolean;
  /** Time to the first response byte of one try. Default 5 s. */
  readonly connectTimeoutMs?: number;
  /** Time for one whole try. Default 120 s. */
  readonly totalTimeoutMs?: number;
  /** Told of each try as it starts and how it ended, for progress output. */
  readonly onProgress?: (line: string) => void;
  /** The catalogue to look the name up in; default {@link ONNX_MODELS} (tests pass small fakes). */
  readonly catalogue?: readonly OnnxModelSpec[];
}

/** What {@link pullOnnxModel} did. */
export interface PullOnnxModelResult {
  readonly name: string;
  /** `hub …` or `maven …`, or `cache` when the files were already there. */
  readonly source: string;
  readonly directory: string;
}

const DEFAULT_HUB = 'https://huggingface.co';
// Far above the largest catalogue file, so a wrong URL serving something huge stops early.
const MAX_FILE_BYTES = 256 * 1024 * 1024;

/**
 * Fetches a catalogue model into `<cacheDir>/models/<name>/`: each source in turn (the hub, then Maven
 * Central through `mvn`), each try bounded by a connect and a total time limit. Files whose sha256
 * differs from the catalogue's are refused, and nothing replaces the installed files unless both new
 * ones verify. Throws `EngramError('EMBEDDING_FAILED')` naming every failed try.
 *
 * @example
 * ```ts
 * const { source } = await pullOnnxModel({ name: 'bge-small-en-v1.5', cacheDir: '/home/ann/.cache/engram' });
 * ```
 */
export async function pullOnnxModel(options: PullOnnxModelOptions): Promise<PullOnnxModelResult> {
  const catalogue = options.catalogue ?? ONNX_MODELS;
  const spec = options.catalogue === undefined ? findOnnxModel(options.name) : catalogue.find((m) => m.name === options.name);
  if (spec === undefined) {
    throw new EngramError(
      'INVALID_INPUT',
      `Unknown model "${options.name.slice(0, 60)}": use one of ${catalogue.map((m) => m.name).join(', ')}.`,
    );
  }
  const directory = modelDirectory(options.cacheDir, spec.name);
  if (options.ifMissing !== false && (await checkModelFiles(options.cacheDir, spec)).ok)
    return { name: spec.name, source: 'cache', directory };
  const failures: string[] = [];
  for (const source of spec.sources) {
    if (source.kind === 'maven' && (options.mavenCommand ?? null) === null) {
      failures.push(`${describeSource(source)}: skipped, mvn is not on the PATH`);
      continue;
    }
    options.onProgress?.(`${spec.name}: trying ${describeSource(source)}`);
    try {
      const files = source.kind === 'hub' ? await fromHub(source, options) : await fromMaven(source, options);
      checkHash(spec, 'onnx', files.onnx);
      checkHash(spec, 'tokenizer', files.tokenizer);
      await install(directory, spec, { ...files, source: describeSource(source) });
      options.onProgress?.(`${spec.name}: installed from ${describeSource(source)}`);
      return { name: spec.name, source: describeSource(source), directory };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      failures.push(`${describeSource(source)}: ${reason}`);
      options.onProgress?.(`${spec.name}: ${describeSource(source)} failed: ${reason}`);
    }
  }
  throw new EngramError(
    'EMBEDDING_FAILED',
    `The model ${spec.name} could not be fetched (${failures.join('; ')}). Check the network, or install mvn for the Maven Central copy.`,
    {
      details: { model: spec.name, failures },
    },
  );
}

/** `hub Xenova/bge-small-en-v1.5@main` or `maven G:A:V`. */
export function describeSource(source: OnnxModelSource): string {
  return source.kind === 'hub' ? `hub ${source.repo}@${source.revision}` : `maven ${source.artifact}`;
}

function checkHash(spec: OnnxModelSpec, file: 'onnx' | 'tokenizer', data: Buffer): void {
  const actual = createHash('sha256').update(data).digest('hex');
  if (actual !== spec.sha256[file]) {
    throw new Error(
      `its ${file === 'onnx' ? '.onnx file' : 'tokenizer.json'} has sha256 ${actual}, not the expected ${spec.sha256[file]}; refused`,
    );
  }
}

async function fromHub(
  source: Extract<OnnxModelSource, { kind: 'hub' }>,
  options: PullOnnxModelOptions,
): Promise<{ onnx: Buffer; tokenizer: Buffer }> {
  const endpoint = (options.hubEndpoint ?? DEFAULT_HUB).replace(/\/+$/, '');
  const url = (file: string): string => `${endpoint}/${source.repo}/resolve/${encodeURIComponent(source.revision)}/${file}`;
  const deadline = { totalMs: options.totalTimeoutMs ?? 120_000, startedAt: performance.now() };
  const tokenizer = await download(url(source.tokenizerFile), options.connectTimeoutMs ?? 5_000, deadline);
  const onnx = await download(url(source.onnxFile), options.connectTimeoutMs ?? 5_000, deadline);
  return { onnx, tokenizer };
}

async function download(url: string, connectTimeoutMs: number, deadline: { totalMs: number; startedAt: number }): Promise<Buffer> {
  const controller = new AbortController();
  const remaining = Math.max(1, deadline.totalMs - (performance.now() - deadline.startedAt));
  let why = 'timed out';
  const connectTimer = setTimeout(() => {
    why = `no answer within ${connectTimeoutMs} ms`;
    controller.abort();
  }, connectTimeoutMs);
  const totalTimer = setTimeout(() => {
    why = `not finished within ${deadline.totalMs} ms`;
    controller.abort();
  }, remaining);
  try {
    const response = await fetch(url, { signal: controller.signal, redirect: 'follow' });
    clearTimeout(connectTimer);
    if (!response.ok || response.body === null) throw new Error(`${url} answered HTTP ${response.status}`);
    const chunks: Buffer[] = [];
    let bytes = 0;
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      if (bytes > MAX_FILE_BYTES) throw new Error(`${url} sent more than ${MAX_FILE_BYTES} bytes`);
      chunks.push(Buffer.from(chunk));
    }
    return Buffer.concat(chunks);
  } catch (error) {
    if (controller.signal.aborted) throw new Error(`${url}: ${why}`);
    throw error instanceof Error && error.message.startsWith(url)
      ? error
      : new Error(
          `${url}: ${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)}`,
        );
  } finally {
    clearTimeout(connectTimer);
    clearTimeout(totalTimer);
  }
}

async function fromMaven(
  source: Extract<OnnxModelSource, { kind: 'maven' }>,
  options: PullOnnxModelOptions,
): Promise<{ onnx: Buffer; tokenizer: Buffer }> {
  const [group, artifact, version] = source.artifact.split(':') as [string, string, string];
  const temporary = options.mavenRepoLocal === undefined;
  const repo = options.mavenRepoLocal ?? join(options.cacheDir, 'models', `.maven-${randomUUID()}`);
  try {
    const connectMs = options.connectTimeoutMs ?? 5_000;
    const totalMs = options.totalTimeoutMs ?? 120_000;
    await run(
      options.mavenCommand as string,
      [
        '-q',
        '-B',
        'dependency:get',
        '-Dtransitive=false',
        `-Dartifact=${source.artifact}`,
        `-Dmaven.repo.local=${repo}`,
        `-Daether.connector.connectTimeout=${connectMs}`,
        `-Daether.connector.requestTimeout=${totalMs}`,
      ],
      totalMs,
    );
    const jar = await readFile(join(repo, ...group.split('.'), artifact, version, `${artifact}-${version}.jar`));
    const onnx = readZipEntry(jar, source.onnxEntry);
    const tokenizer = readZipEntry(jar, source.tokenizerEntry);
    if (onnx === undefined || tokenizer === undefined)
      throw new Error(`the jar has no ${onnx === undefined ? source.onnxEntry : source.tokenizerEntry}`);
    return { onnx, tokenizer };
  } finally {
    if (temporary) await rm(repo, { recursive: true, force: true });
  }
}

function run(command: string, args: readonly string[], timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { timeout: timeoutMs, maxBuffer: 4 * 1024 * 1024, killSignal: 'SIGKILL' }, (error, stdout, stderr) => {
      if (error === null) return resolve();
      const output = `${stdout}\n${stderr}`
        .split('\n')
        .filter((line) => /ERROR|Could not|not find/i.test(line))
        .slice(0, 2)
        .join(' ')
        .replace(/\u001b\[[0-9;]*m/g, '');
      reject(
        new Error(
          error.killed ? `mvn did not finish within ${timeoutMs} ms` : `mvn failed${output !== '' ? `: ${output.slice(0, 300)}` : ''}`,
        ),
      );
    });
  });
}

/** Writes both files and the manifest into a fresh folder, then swaps it in, so a failure leaves the old install. */
async function install(directory: string, spec: OnnxModelSpec, files: { onnx: Buffer; tokenizer: Buffer; source: string }): Promise<void> {
  const staging = `${directory}.staging-${randomUUID()}`;
  makeDirectories(staging);
  try {
    const manifest: ModelManifest = { name: spec.name, source: files.source, sha256: spec.sha256 };
    await writeFile(join(staging, MODEL_FILES.onnx), files.onnx);
    await writeFile(join(staging, MODEL_FILES.tokenizer), files.tokenizer);
    await writeFile(join(staging, MODEL_FILES.manifest), `${JSON.stringify(manifest, null, 2)}\n`);
    const previous = `${directory}.old-${randomUUID()}`;
    await rename(directory, previous).catch(() => undefined);
    await rename(staging, directory);
    await rm(previous, { recursive: true, force: true });
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
}
