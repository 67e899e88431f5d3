// A local OpenAI-compatible embeddings endpoint for the peers of bench/peers.mjs, so every system that
// embeds uses the same model as Engram: POST /v1/embeddings {model, input: string | string[],
// encoding_format?: 'float' | 'base64', input_type?: 'query' | 'passage' | 'document'} → {object: 'list',
// data: [{object, embedding, index}], model, usage}.
// Backed by Engram's own embedder from dist for its default model (`PEER_MODEL`, int8 ONNX, two worker
// threads like Engram's own). OpenAI's protocol cannot say whether a text is a query or a passage, so a
// text is embedded as a passage unless the request says `input_type: 'query'` (the extension NVIDIA's and
// other OpenAI-compatible servers accept): the benchmark's own client sends it for Orama's questions, as
// Engram embeds its recall queries; mem0's SDK cannot send it, so its questions are embedded as passages,
// as they would be through any OpenAI-compatible server. Binds 127.0.0.1 on an ephemeral port.
import { createServer } from 'node:http';
import { homedir } from 'node:os';
import { createEmbedder } from '../../dist/index.js';
import { DEFAULT_ONNX_MODEL, resolveModelCacheDir } from '../../dist/embeddings/onnx/index.js';

/** The model every system that embeds uses: Engram's default. */
export const PEER_MODEL = DEFAULT_ONNX_MODEL;

/** Largest request body accepted (a batch of long technical messages stays far below it). */
const MAX_BODY_BYTES = 16 * 1024 * 1024;
/** Texts one request may carry (OpenAI's own limit is 2048). */
const MAX_INPUTS = 2048;

/** Texts that load the model in-process and in every worker thread before anything is timed. */
export function warmUpTexts() {
  return Array.from({ length: 64 }, (_, i) => `warm-up sentence number ${i} for the embedding model`);
}

/**
 * Starts the server. `stats` counts requests and texts so the report can say how each peer calls it.
 * @param {{ model?: string, workers?: number }} [options]
 */
export async function startEmbeddingsServer(options = {}) {
  const model = options.model ?? PEER_MODEL;
  // a catalogue model or blend name, which `createEmbedder` checks
  const choice = /** @type {import('../../dist/embedder-choice.js').EmbedderChoice} */ (model);
  const embedder = await createEmbedder(choice, { cacheDir: resolveModelCacheDir(process.env, homedir()), workers: options.workers ?? 2 });
  await embedder.embed(warmUpTexts());
  const stats = { requests: 0, texts: 0, millis: 0 };
  const sockets = new Set();
  const server = createServer((req, res) => {
    void answer(req, res).catch((error) => reply(res, 500, { error: { message: String(error?.message ?? error), type: 'server_error' } }));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(undefined));
  });
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());

  async function answer(req, res) {
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'GET' && path === '/v1/models') return reply(res, 200, { object: 'list', data: [{ id: model, object: 'model' }] });
    if (req.method !== 'POST' || path !== '/v1/embeddings')
      return reply(res, 404, error(`no route ${req.method} ${path}; use POST /v1/embeddings`));
    const body = await readBody(req);
    if (body === null) return reply(res, 413, error(`the request body is over ${MAX_BODY_BYTES} bytes`));
    let request;
    try {
      request = JSON.parse(body);
    } catch {
      return reply(res, 400, error('the body is not JSON'));
    }
    const input = typeof request?.input === 'string' ? [request.input] : request?.input;
    if (!Array.isArray(input) || input.length === 0 || input.length > MAX_INPUTS || input.some((t) => typeof t !== 'string'))
      return reply(res, 400, error(`input must be a string or a list of 1-${MAX_INPUTS} strings`));
    if (request.model !== undefined && request.model !== model)
      return reply(res, 400, error(`this server embeds with ${model} only, not ${String(request.model)}`));
    const inputType = request.input_type ?? 'passage';
    if (!['query', 'passage', 'document'].includes(inputType))
      return reply(res, 400, error(`input_type must be query, passage or document, not ${String(inputType)}`));
    const started = performance.now();
    const vectors = await embedder.embed(input, { purpose: inputType === 'query' ? 'query' : 'passage' });
    stats.millis += performance.now() - started;
    stats.requests += 1;
    stats.texts += input.length;
    const base64 = request.encoding_format === 'base64';
    const tokens = input.reduce((n, t) => n + t.split(/\s+/).filter(Boolean).length, 0);
    return reply(res, 200, {
      object: 'list',
      data: vectors.map((v, index) => ({
        object: 'embedding',
        index,
        embedding: base64 ? Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64') : Array.from(v),
      })),
      model,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    });
  }

  return {
    url: `http://127.0.0.1:${port}/v1`,
    model,
    dimension: embedder.dimension,
    stats,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(() => resolve(undefined)));
      await embedder.close?.();
    },
  };
}

function error(message) {
  return { error: { message, type: 'invalid_request_error' } };
}

function reply(res, status, payload) {
  if (res.headersSent) return res.end();
  const text = JSON.stringify(payload);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** The body as text, or null when it passes MAX_BODY_BYTES. */
function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > MAX_BODY_BYTES ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
