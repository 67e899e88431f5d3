import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { homedir } from 'node:os';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasModelFiles, resolveModelCacheDir } from '../../src/embeddings/onnx/index.js';
import { binBuilt, runCliAsync } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const realCache = resolveModelCacheDir(process.env, homedir());
const haveBge = hasModelFiles(realCache, 'bge-small-en-v1.5');
const needsBin = binBuilt ? '' : ' (skipped: needs the built bin, run `npm run build` first)';
// No mvn on this PATH, so only the hub source is tried.
const NO_MVN = { PATH: '/nonexistent' };

describe.skipIf(!binBuilt)(`engram models${needsBin}`, () => {
  const temp = tempDir('engram-cli-models-');
  let server: Server;
  let endpoint = '';

  beforeAll(async () => {
    // The hub's URL layout, serving the real bge files from this machine's cache when it has them.
    server = createServer((request, response) => {
      const files: Record<string, string> = {
        '/Xenova/bge-small-en-v1.5/resolve/main/onnx/model_quantized.onnx': join(realCache, 'models', 'bge-small-en-v1.5', 'model.onnx'),
        '/Xenova/bge-small-en-v1.5/resolve/main/tokenizer.json': join(realCache, 'models', 'bge-small-en-v1.5', 'tokenizer.json'),
      };
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

  it.skipIf(!haveBge)(
    `pulls the default model from the hub layout, then lists it with its source and hash${haveBge ? '' : ` (skipped: bge-small-en-v1.5 is not in ${realCache})`}`,
    async () => {
      const cache = join(temp.dir, 'cache');
      const env = { ENGRAM_CACHE_DIR: cache, ENGRAM_HF_ENDPOINT: endpoint, ...NO_MVN };
      const pulled = await runCliAsync(['models', 'pull', '--json'], { env });
      expect(pulled.status, pulled.stderr).toBe(0);
      expect(JSON.parse(pulled.stdout).models).toEqual([
        { name: 'bge-small-en-v1.5', source: 'hub Xenova/bge-small-en-v1.5@main', directory: join(cache, 'models', 'bge-small-en-v1.5') },
      ]);

      const db = join(temp.dir, 'onnx.db');
      const remembered = await runCliAsync(
        ['remember', '--db', db, '--embedder', 'bge-small-en-v1.5', '--scope', 't/a', 'Alice prefers window seats.'],
        { env },
      );
      expect(remembered.status, remembered.stderr).toBe(0);
      const listed = await runCliAsync(['models', 'list', '--db', db, '--json'], { env });
      expect(listed.status, listed.stderr).toBe(0);
      const answer = JSON.parse(listed.stdout);
      expect(answer.models.find((m: { name: string }) => m.name === 'bge-small-en-v1.5')).toMatchObject({
        installed: true,
        verified: true,
        source: 'hub Xenova/bge-small-en-v1.5@main',
        sha256: '6c9c6101a956d62dfb5e7190c538226c0c5bb9cb27b651234b6df063ee7dbfe4',
      });
      expect(answer.store).toEqual({ db, embedder: 'onnx:bge-small-en-v1.5:384:6c9c6101', model: 'bge-small-en-v1.5', installed: true });
    },
  );

  it('fails with every try named when no source has the model, and installs nothing', async () => {
    const cache = join(temp.dir, 'empty-cache');
    const result = await runCliAsync(['models', 'pull', 'e5-small-v2'], {
      env: { ENGRAM_CACHE_DIR: cache, ENGRAM_HF_ENDPOINT: endpoint, ...NO_MVN },
    });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/e5-small-v2 could not be fetched .*answered HTTP 404.*mvn is not on the PATH/);
    expect(existsSync(join(cache, 'models', 'e5-small-v2'))).toBe(false);
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
    expect(lines[0]).toMatch(
      /^engram: no embedding model fetched \(.*bge-small-en-v1\.5 could not be fetched.*\); USE-lite stays the embedder/,
    );
  });
});
