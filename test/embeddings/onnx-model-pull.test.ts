import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { listInstalledModels, pullOnnxModel, type OnnxModelSpec } from '../../src/embeddings/onnx/index.js';
import { tempDir } from '../helpers/temp.js';
import { FAKE_ONNX, FAKE_TOKENIZER, fakeModelSpec } from '../helpers/fake-model.js';

/** A local server in the hub's URL layout: /<repo>/resolve/<revision>/<file>. */
let served: Record<string, string> = {};
const requests: string[] = [];
let server: Server;
let endpoint = '';

beforeAll(async () => {
  server = createServer((request, response) => {
    requests.push(request.url ?? '');
    if (request.url === '/Silent/model/resolve/v1/tokenizer.json') return; // never answers
    const body = served[request.url ?? ''];
    if (body === undefined) {
      response.writeHead(404).end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('pullOnnxModel against a local hub', () => {
  const temp = tempDir('engram-pull-');
  afterEach(() => {
    served = {};
    requests.length = 0;
  });
  afterAll(() => temp.cleanup());

  it('fetches both files from <endpoint>/<repo>/resolve/<revision>/<file>, verifies them and records the source', async () => {
    const spec = fakeModelSpec('fake-a', { onnx: FAKE_ONNX, tokenizer: FAKE_TOKENIZER });
    served = { '/Fake/model/resolve/v1/onnx/model_quantized.onnx': FAKE_ONNX, '/Fake/model/resolve/v1/tokenizer.json': FAKE_TOKENIZER };
    const result = await pullOnnxModel({
      name: 'fake-a',
      cacheDir: temp.dir,
      hubEndpoint: endpoint,
      mavenCommand: null,
      catalogue: [spec],
    });
    expect(result.source).toBe('hub Fake/model@v1');
    const directory = join(temp.dir, 'models', 'fake-a');
    expect(result.directory).toBe(directory);
    expect(readFileSync(join(directory, 'model.onnx'), 'utf8')).toBe(FAKE_ONNX);
    expect(readFileSync(join(directory, 'tokenizer.json'), 'utf8')).toBe(FAKE_TOKENIZER);
    expect(JSON.parse(readFileSync(join(directory, 'source.json'), 'utf8'))).toMatchObject({
      name: 'fake-a',
      source: 'hub Fake/model@v1',
      sha256: spec.sha256,
    });
    expect(requests.sort()).toEqual(['/Fake/model/resolve/v1/onnx/model_quantized.onnx', '/Fake/model/resolve/v1/tokenizer.json']);

    // A second pull finds the verified files and fetches nothing.
    requests.length = 0;
    const again = await pullOnnxModel({ name: 'fake-a', cacheDir: temp.dir, hubEndpoint: endpoint, mavenCommand: null, catalogue: [spec] });
    expect(again.source).toBe('cache');
    expect(requests).toEqual([]);
  });

  it('refuses a file whose sha256 differs and installs nothing', async () => {
    const spec = fakeModelSpec('fake-b', { onnx: FAKE_ONNX, tokenizer: FAKE_TOKENIZER });
    served = {
      '/Fake/model/resolve/v1/onnx/model_quantized.onnx': 'tampered bytes',
      '/Fake/model/resolve/v1/tokenizer.json': FAKE_TOKENIZER,
    };
    const failure = pullOnnxModel({ name: 'fake-b', cacheDir: temp.dir, hubEndpoint: endpoint, mavenCommand: null, catalogue: [spec] });
    await expect(failure).rejects.toMatchObject({ code: 'EMBEDDING_FAILED' });
    await expect(failure).rejects.toThrow(/sha256 .* not the expected .*refused/);
    await expect(failure).rejects.toThrow(/maven dev\.example:fake-model:1\.0: skipped, mvn is not on the PATH/);
    expect(existsSync(join(temp.dir, 'models', 'fake-b'))).toBe(false);
  });

  it('keeps a good install when a forced re-pull is refused', async () => {
    const spec = fakeModelSpec('fake-c', { onnx: FAKE_ONNX, tokenizer: FAKE_TOKENIZER });
    const directory = join(temp.dir, 'models', 'fake-c');
    mkdirSync(directory, { recursive: true });
    writeFileSync(join(directory, 'model.onnx'), FAKE_ONNX);
    writeFileSync(join(directory, 'tokenizer.json'), FAKE_TOKENIZER);
    served = { '/Fake/model/resolve/v1/onnx/model_quantized.onnx': FAKE_ONNX, '/Fake/model/resolve/v1/tokenizer.json': 'other tokenizer' };
    await expect(
      pullOnnxModel({ name: 'fake-c', cacheDir: temp.dir, hubEndpoint: endpoint, mavenCommand: null, ifMissing: false, catalogue: [spec] }),
    ).rejects.toThrow(/tokenizer\.json has sha256/);
    expect(readFileSync(join(directory, 'tokenizer.json'), 'utf8')).toBe(FAKE_TOKENIZER);
    const [listed] = await listInstalledModels(temp.dir, { verify: true });
    expect(listed).toBeUndefined(); // fake models are not catalogue models, so list ignores them
  });

  it('gives up on a hub that accepts the connection but never answers, naming the limit', async () => {
    const spec = {
      ...fakeModelSpec('fake-d', { onnx: FAKE_ONNX, tokenizer: FAKE_TOKENIZER }),
      sources: [{ kind: 'hub', repo: 'Silent/model', revision: 'v1', onnxFile: 'model.onnx', tokenizerFile: 'tokenizer.json' }],
    } as OnnxModelSpec;
    await expect(
      pullOnnxModel({
        name: 'fake-d',
        cacheDir: temp.dir,
        hubEndpoint: endpoint,
        mavenCommand: null,
        connectTimeoutMs: 200,
        catalogue: [spec],
      }),
    ).rejects.toThrow(/no answer within 200 ms/);
  });

  it('reports an HTTP error status and an unknown model name', async () => {
    const spec = fakeModelSpec('fake-e', { onnx: FAKE_ONNX, tokenizer: FAKE_TOKENIZER });
    await expect(
      pullOnnxModel({ name: 'fake-e', cacheDir: temp.dir, hubEndpoint: endpoint, mavenCommand: null, catalogue: [spec] }),
    ).rejects.toThrow(/answered HTTP 404/);
    await expect(pullOnnxModel({ name: 'no-such-model', cacheDir: temp.dir })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});
