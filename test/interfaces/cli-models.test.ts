import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { homedir } from 'node:os';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ONNX_MODEL, ONNX_MODELS, hasModelFiles, modelsNeededBy, resolveModelCacheDir } from '../../src/embeddings/onnx/index.js';
import { binBuilt, runCliAsync } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const realCache = resolveModelCacheDir(process.env, homedir());
const haveDefault = hasModelFiles(realCache, DEFAULT_ONNX_MODEL);
// The English models the hub layout below serves (from this machine's cache); bge-small-zh-v1.5 answers 404.
const SERVED = ['bge-small-en-v1.5', 'e5-small-v2', 'all-minilm-l6-v2'];
const needsBin = binBuilt ? '' : ' (skipped: needs the built bin, run `npm run build` first)';
// No mvn on this PATH, so only the hub source is tried.
const NO_MVN = { PATH: '/nonexistent' };

describe.skipIf(!binBuilt)(`engram models${needsBin}`, () => {
  const temp = tempDir('engram-cli-models-');
  let server: Server;
  let endpoint = '';

  beforeAll(async () => {
    // The hub's URL layout, serving the real files of the English models from this machine's cache when it has them.
    const files: Record<string, string> = {};
    for (const spec of ONNX_MODELS.filter((m) => SERVED.includes(m.name))) {
      const hub = spec.sources.find((source) => source.kind === 'hub');
      if (hub?.kind !== 'hub') continue;
      files[`/${hub.repo}/resolve/${hub.revision}/${hub.onnxFile}`] = join(realCache, 'models', spec.name, 'model.onnx');
      files[`/${hub.repo}/resolve/${hub.revision}/${hub.tokenizerFile}`] = join(realCache, 'models', spec.name, 'tokenizer.json');
    }
    server = createServer((request, response) => {
      const file = files[request.url ?? ''];
      if (file === undefined || !existsSync(file)) {
        response.writeHead(404).end();
        return;
      }
      response.writeHead(200);
      createReadStream(file).pipe(response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    temp.cleanup();
  });

  it.skipIf(!haveDefault)(
    `pulls the default model (a blend: both members) from the hub layout; a new store takes it; lists it with its source and hash${haveDefault ? '' : ` (skipped: ${DEFAULT_ONNX_MODEL} is not in ${realCache})`}`,
    async () => {
      const cache = join(temp.dir, 'cache');
      const env = { ENGRAM_CACHE_DIR: cache, ENGRAM_HF_ENDPOINT: endpoint, ENGRAM_EMBEDDER: '', ...NO_MVN };
      const pulled = await runCliAsync(['models', 'pull', '--json'], { env });
      expect(pulled.status, pulled.stderr).toBe(0);
      expect(modelsNeededBy(DEFAULT_ONNX_MODEL)).toEqual(['e5-small-v2', 'all-minilm-l6-v2']);
      expect(JSON.parse(pulled.stdout).models).toEqual([
        { name: 'e5-small-v2', source: 'hub Xenova/e5-small-v2@main', directory: join(cache, 'models', 'e5-small-v2') },
        { name: 'all-minilm-l6-v2', source: 'hub Xenova/all-MiniLM-L6-v2@main', directory: join(cache, 'models', 'all-minilm-l6-v2') },
      ]);

      // no --embedder: a new store takes the default now that it is installed
      const db = join(temp.dir, 'onnx.db');
      const remembered = await runCliAsync(['remember', '--db', db, '--scope', 't/a', 'Alice prefers window seats.'], { env });
      expect(remembered.status, remembered.stderr).toBe(0);
      const listed = await runCliAsync(['models', 'list', '--db', db, '--json'], { env });
      expect(listed.status, listed.stderr).toBe(0);
      const answer = JSON.parse(listed.stdout);
      expect(answer.models.find((m: { name: string }) => m.name === 'e5-small-v2')).toMatchObject({
        installed: true,
        verified: true,
        source: 'hub Xenova/e5-small-v2@main',
      });
      expect(answer.models.find((m: { name: string }) => m.name === 'bge-small-en-v1.5')).toMatchObject({ installed: false });
      expect(answer.store).toMatchObject({ db, model: DEFAULT_ONNX_MODEL, installed: true });
      expect(answer.store.embedder).toMatch(/^onnx:blend-e5-minilm:768:[0-9a-f]{8}$/);
    },
  );

  it('fails with every try named when no source has the model, and installs nothing', async () => {
    const cache = join(temp.dir, 'empty-cache');
    const result = await runCliAsync(['models', 'pull', 'bge-small-zh-v1.5'], {
      env: { ENGRAM_CACHE_DIR: cache, ENGRAM_HF_ENDPOINT: endpoint, ...NO_MVN },
    });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/bge-small-zh-v1\.5 could not be fetched .*answered HTTP 404.*mvn is not on the PATH/);
    expect(existsSync(join(cache, 'models', 'bge-small-zh-v1.5'))).toBe(false);
  });

  it('refuses an unknown model name and an unknown --embedder, listing the names', async () => {
    const pull = await runCliAsync(['models', 'pull', 'gpt-5'], { env: { ENGRAM_CACHE_DIR: join(temp.dir, 'c2') } });
    expect(pull.status).not.toBe(0);
    expect(pull.stderr).toMatch(/Unknown model "gpt-5": use one of bge-small-en-v1\.5/);
    const open = await runCliAsync(['remember', '--db', join(temp.dir, 'x.db'), '--embedder', 'bert', '--scope', 't/a', 'hello']);
    expect(open.status).not.toBe(0);
    expect(open.stderr).toMatch(/Unknown embedder "bert": use one of use, static, hash, auto, bge-small-en-v1\.5/);
    expect(existsSync(join(temp.dir, 'x.db'))).toBe(false);
  });

  it('says which embedder a store uses, and that a new store has none yet', async () => {
    const db = join(temp.dir, 'hash.db');
    expect((await runCliAsync(['remember', '--db', db, '--embedder', 'hash', '--scope', 't/a', 'hello'])).status).toBe(0);
    const listed = await runCliAsync(['models', 'list', '--db', db], { env: { ENGRAM_CACHE_DIR: join(temp.dir, 'c3') } });
    expect(listed.status, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/bge-small-en-v1\.5 +384-d +MIT +not installed/);
    expect(listed.stdout).toContain(`${db} uses hash`);
  });

  it('postinstall never fails the install: one line, exit 0, whether skipped or nothing could be fetched', () => {
    const script = fileURLToPath(new URL('../../scripts/postinstall-models.mjs', import.meta.url));
    const run = (env: Record<string, string>) =>
      spawnSync(process.execPath, [script], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 120_000 });
    const skipped = run({ ENGRAM_SKIP_MODEL_DOWNLOAD: '1' });
    expect(skipped.status).toBe(0);
    expect(skipped.stdout.trim().split('\n')).toEqual([
      'engram: model download skipped (ENGRAM_SKIP_MODEL_DOWNLOAD=1); USE-lite stays the embedder until "engram models pull".',
    ]);
    // A path prefix the server does not know, so the hub answers 404 even when it could serve bge.
    const failed = run({ ENGRAM_CACHE_DIR: join(temp.dir, 'postinstall-cache'), ENGRAM_HF_ENDPOINT: `${endpoint}/nowhere`, ...NO_MVN });
    expect(failed.status).toBe(0);
    const lines = failed.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^engram: no embedding model fetched \(.*e5-small-v2 could not be fetched.*\); USE-lite stays the embedder/);
  });
});
