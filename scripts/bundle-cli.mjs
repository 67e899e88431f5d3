// Bundles the command line's own modules. `tsc` leaves ~420 ES modules under dist/, and a one-shot
// `engram recall` spent more of its time finding, reading and linking them (and zod's 95) than running.
// The bundle replaces dist/interfaces/cli/program.js, which main.js imports for every command but
// `hooks` (main.js routes hooks to their own few small modules first). What a command imports with
// import() becomes a chunk beside it, loaded when the command runs; the packages stay in node_modules
// (zod and the MCP SDK aside, see BUNDLED), so a command still loads only what it uses. Every other file of dist/ stays as tsc wrote
// it: the library's entry points, the worker scripts. Each bundled module keeps its own import.meta.url
// (worker scripts, assets and createRequire resolve beside the file tsc wrote, as before).
// Run by `npm run build` after tsc; `tsc` alone leaves the unbundled CLI, which works the same, slower.
//   node scripts/bundle-cli.mjs
import { build } from 'esbuild';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');
const ENTRY = join(DIST, 'interfaces/cli/program.js');
const MARK = '// engram: bundled CLI';
const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8'));
/** Chunks are written beside the entry, so that each module's path relative to its chunk is known. */
const CHUNK_PREFIX = 'program-chunk-';
/** Beside the entry: each output file and the modules in it. */
const MODULES_FILE = 'program-modules.json';

/**
 * Packages bundled into the chunks that use them: zod (95 files, ~0.15 s to load on a 2-core machine,
 * used by every command that opens the engine) and the MCP SDK with what it imports (zod-to-json-schema,
 * ajv: ~200 more files for `engram mcp` and `serve`), which then shares the bundled zod.
 */
const BUNDLED = new Set(['zod', '@modelcontextprotocol/sdk']);
/** Every other package the CLI's code imports stays in node_modules (natives, those loaded on demand). */
const EXTERNAL = Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies, ...pkg.peerDependencies })
  .filter((name) => !BUNDLED.has(name))
  .flatMap((name) => [name, `${name}/*`]);

const source = await readFile(ENTRY, 'utf8');
if (source.includes(MARK)) throw new Error(`${ENTRY} is already a bundle: run tsc -p tsconfig.build.json first`);

const result = await build({
  entryPoints: [ENTRY],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: EXTERNAL,
  // what a command imports with import() becomes a chunk of its own, loaded when the command runs, with
  // the packages it imports: one file would import every package for every command
  splitting: true,
  outdir: dirname(ENTRY),
  chunkNames: `${CHUNK_PREFIX}[hash]`,
  write: false,
  metafile: true,
  absWorkingDir: ROOT,
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
  banner: { js: MARK },
  plugins: [
    {
      name: 'own-import-meta-url',
      setup(b) {
        b.onLoad({ filter: /\.js$/ }, async (args) => {
          const text = await readFile(args.path, 'utf8');
          if (!text.includes('import.meta.url')) return { contents: text, loader: 'js' };
          const own = relative(dirname(ENTRY), args.path).split('\\').join('/');
          return { contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(own)}, import.meta.url).href`), loader: 'js' };
        });
      },
    },
  ],
});
// the chunks of an earlier bundle
for (const name of await readdir(dirname(ENTRY))) if (name.startsWith(CHUNK_PREFIX)) await rm(join(dirname(ENTRY), name), { force: true });
for (const file of result.outputFiles) await writeFile(file.path, file.contents);
// which modules each file holds, for tests that check what a command loads (test/interfaces/cli-startup.test.ts)
const modules = {};
for (const [output, { inputs }] of Object.entries(result.metafile.outputs))
  if (output.endsWith('.js')) modules[relative(dirname(ENTRY), join(ROOT, output))] = Object.keys(inputs).sort();
await writeFile(join(dirname(ENTRY), MODULES_FILE), `${JSON.stringify(modules, null, 1)}\n`);
const scripts = result.outputFiles.filter((f) => f.path.endsWith('.js'));
const size = scripts.find((f) => f.path === ENTRY)?.contents.length ?? 0;
process.stdout.write(`bundled the CLI: ${relative(ROOT, ENTRY)} (${(size / 1024).toFixed(0)} KiB) and ${scripts.length - 1} chunks\n`);
