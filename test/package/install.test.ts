/**
 * The packed tarball installs and works as a user gets it: `npm pack`, then an OFFLINE install from
 * the npm cache into a temporary app (`npm install --offline --prefix <app> engram-<version>.tgz`), and
 * the installed `engram` runs `--help`, remember/recall, `engram mcp` through the MCP SDK's stdio
 * client, the library import from a script in the app, and `postinstall` prints its model notice
 * (ENGRAM_SKIP_MODEL_DOWNLOAD unset; the model cache is the user's, so it says the model is there or
 * that USE-lite stays).
 *
 * Offline on purpose, and how: the app gets a package-lock.json built from the repository's lock (its
 * production entries), so npm needs only the cached tarballs, not registry metadata (a global install
 * ignores lockfiles and would need every package's metadata cached). better-sqlite3 has no prebuilt
 * binary in the cache and its install falls back to compiling from source (about a minute on an idle
 * machine, with the system's node headers); to keep this test near a minute, the addon this repository
 * compiled is handed to prebuild-install as a local prebuild (`npm_config_better_sqlite3_local_prebuilds`).
 * ENGRAM_PACKAGE_TEST_FROM_SOURCE=1 compiles it instead.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binBuilt } from '../helpers/cli.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { name: string; version: string };
const work = mkdtempSync(join(tmpdir(), 'engram-package-'));
const app = join(work, 'app');
const bin = join(app, 'node_modules', '.bin', 'engram');
const SCOPE = 'acme/projects/shop';
let installOutput = '';

/** Runs a command; throws with its output when it fails. */
function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string | undefined>; input?: string; timeout?: number },
) {
  const env = { ...process.env, ...options.env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
  const result = spawnSync(command, args, {
    cwd: options.cwd,
    env,
    encoding: 'utf8',
    input: options.input,
    timeout: options.timeout ?? 240_000,
  });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.status}:\n${result.stdout}\n${result.stderr}`);
  return result;
}

/** The production part of the repository's lock, as the lock of an app that depends on the tarball. */
function appLock(tarball: string): unknown {
  const lock = JSON.parse(readFileSync(join(REPO, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
  const packages: Record<string, unknown> = { '': { name: 'app', version: '1.0.0', dependencies: { [pkg.name]: `file:${tarball}` } } };
  for (const [path, entry] of Object.entries(lock.packages))
    if (path.startsWith('node_modules/') && entry.dev !== true) packages[path] = entry;
  return { name: 'app', version: '1.0.0', lockfileVersion: 3, requires: true, packages };
}

/** better-sqlite3's compiled addon as the prebuild archive prebuild-install looks for. */
function localPrebuild(): string {
  const addon = join(REPO, 'node_modules', 'better-sqlite3');
  const { version } = JSON.parse(readFileSync(join(addon, 'package.json'), 'utf8')) as { version: string };
  const dir = join(work, 'prebuilds');
  const stage = join(work, 'prebuild-stage');
  mkdirSync(join(stage, 'build', 'Release'), { recursive: true });
  mkdirSync(dir, { recursive: true });
  cpSync(join(addon, 'build', 'Release', 'better_sqlite3.node'), join(stage, 'build', 'Release', 'better_sqlite3.node'));
  run(
    'tar',
    [
      '-czf',
      join(dir, `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`),
      '-C',
      stage,
      'build',
    ],
    { cwd: work },
  );
  return dir;
}

const skip = !binBuilt || !existsSync(join(REPO, 'package-lock.json'));

beforeAll(() => {
  if (skip) return;
  run('npm', ['pack', '--ignore-scripts', '--offline', '--pack-destination', work], { cwd: REPO });
  const tarball = join(work, `${pkg.name}-${pkg.version}.tgz`);
  mkdirSync(app);
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({ name: 'app', version: '1.0.0', private: true, type: 'module', dependencies: { [pkg.name]: `file:${tarball}` } }),
  );
  writeFileSync(join(app, 'package-lock.json'), JSON.stringify(appLock(tarball)));
  // onnxruntime-node's own install script would fetch its CUDA provider: not wanted offline (as in the repo's .npmrc).
  writeFileSync(join(app, '.npmrc'), 'onnxruntime-node-install=skip\n');
  const fromSource = process.env.ENGRAM_PACKAGE_TEST_FROM_SOURCE === '1';
  const install = run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--foreground-scripts', '--prefix', app, tarball], {
    cwd: app,
    env: { ENGRAM_SKIP_MODEL_DOWNLOAD: undefined, ...(fromSource ? {} : { npm_config_better_sqlite3_local_prebuilds: localPrebuild() }) },
    timeout: 600_000,
  });
  installOutput = `${install.stdout}\n${install.stderr}`;
}, 660_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe.skipIf(skip)('the packed tarball, installed offline', () => {
  it('postinstall says which embedding model the user gets, in one line', () => {
    expect(installOutput).toMatch(
      /^engram: (embedding models? \S+ (already installed|installed from [^,]+)(, \S+ (already installed|installed from .+))?\.|no embedding model fetched .*USE-lite stays the embedder.*)$/m,
    );
    expect(installOutput.match(/^engram: (embedding model|no embedding model)/gm)).toHaveLength(1);
  });

  it('engram --help, remember and recall run from the installed bin', () => {
    expect(run(bin, ['--help'], { cwd: app }).stdout).toContain('Usage: engram');
    const db = join(work, 'cli.db');
    run(bin, ['remember', '--db', db, '--scope', SCOPE, '--layer', 'semantic', 'The shop deploys to production on Fridays.'], { cwd: app });
    const recalled = JSON.parse(
      run(bin, ['recall', '--db', db, '--scope', SCOPE, '--json', 'when do we deploy the shop?'], { cwd: app }).stdout,
    ) as { hits: { content: string }[] };
    expect(recalled.hits[0]?.content).toBe('The shop deploys to production on Fridays.');
    const setup = JSON.parse(run(bin, ['setup', 'claude-code', '--dir', app, '--json'], { cwd: app }).stdout) as {
      files: { part: { mcpServers?: { engram: { command: string } } } }[];
    };
    expect(setup.files[0]?.part.mcpServers?.engram.command).toBe('engram');
  });

  it('engram mcp answers the MCP SDK client over stdio', async () => {
    const db = join(work, 'mcp.db');
    const transport = new StdioClientTransport({
      command: bin,
      args: ['mcp', '--db', db, '--scope', SCOPE, '--embedder', 'hash'],
      cwd: app,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'package-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const tools = (await client.listTools()).tools.map((t) => t.name);
      expect(tools).toEqual(expect.arrayContaining(['memory_remember', 'memory_recall', 'memory_context']));
      await client.callTool({ name: 'memory_remember', arguments: { content: 'We use bun for this repository.', layer: 'semantic' } });
      const result = (await client.callTool({ name: 'memory_recall', arguments: { query: 'which package manager?' } })) as {
        structuredContent?: { hits: { content: string }[] };
      };
      expect(result.structuredContent?.hits[0]?.content).toBe('We use bun for this repository.');
    } finally {
      await client.close();
    }
  });

  it('the library imports from a script in the app', () => {
    writeFileSync(
      join(app, 'probe.mjs'),
      `import { Engram } from 'engram';
const engram = await Engram.open({ path: ${JSON.stringify(join(work, 'lib.db'))}, embedder: 'hash' });
await engram.remember({ scope: '${SCOPE}', layer: 'semantic', content: 'The billing service is owned by team B.' });
const { hits } = await engram.recall('who owns billing?', { scopes: ['${SCOPE}'] });
await engram.close();
console.log(JSON.stringify({ first: hits[0]?.content }));
`,
    );
    const out = run(process.execPath, ['probe.mjs'], { cwd: app });
    expect(JSON.parse(out.stdout.trim())).toEqual({ first: 'The billing service is owned by team B.' });
  });
});
