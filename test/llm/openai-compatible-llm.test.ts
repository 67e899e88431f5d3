import { afterEach, describe, expect, it } from 'vitest';
import { OpenAiCompatibleLlm } from '../../src/index.js';
import { startLlmStub, type LlmStub } from '../helpers/llm-stub.js';

describe('OpenAiCompatibleLlm against a local chat-completions server', () => {
  let stub: LlmStub | undefined;
  afterEach(async () => stub?.close());

  it('posts model, messages, key and JSON mode, and returns the assistant text', async () => {
    stub = await startLlmStub(() => ({ content: '{"ok": true}' }));
    const llm = new OpenAiCompatibleLlm({ baseUrl: `${stub.baseUrl}/`, model: 'tiny-1', apiKey: 'sk-test' });
    const text = await llm.complete([{ role: 'user', content: 'hi' }], { json: true, maxTokens: 50 });
    expect(text).toBe('{"ok": true}');
    const [request] = stub.requests;
    expect(request?.path).toBe('/v1/chat/completions');
    expect(request?.headers.authorization).toBe('Bearer sk-test');
    expect(request?.body).toMatchObject({
      model: 'tiny-1',
      messages: [{ role: 'user', content: 'hi' }],
      response_format: { type: 'json_object' },
      max_tokens: 50,
    });
    expect(llm.name).toBe('openai-compatible:tiny-1');
  });

  it('retries 5xx and 429 with backoff, then succeeds', async () => {
    let n = 0;
    stub = await startLlmStub(() =>
      ++n === 1 ? { status: 503, raw: 'busy' } : n === 2 ? { status: 429, raw: '{}' } : { content: 'fine' },
    );
    const llm = new OpenAiCompatibleLlm({ baseUrl: stub.baseUrl, model: 'm', retries: 2, backoffMs: 5 });
    expect(await llm.complete([{ role: 'user', content: 'x' }])).toBe('fine');
    expect(stub.requests).toHaveLength(3);
  });

  it('gives up after the retries with a clear error; 4xx is not retried', async () => {
    stub = await startLlmStub(() => ({ status: 500, raw: 'boom' }));
    const llm = new OpenAiCompatibleLlm({ baseUrl: stub.baseUrl, model: 'm', retries: 1, backoffMs: 1 });
    await expect(llm.complete([{ role: 'user', content: 'x' }])).rejects.toMatchObject({ message: expect.stringContaining('HTTP 500') });
    expect(stub.requests).toHaveLength(2);
    stub.respond = () => ({ status: 401, raw: '{"error":"bad key"}' });
    await expect(llm.complete([{ role: 'user', content: 'x' }])).rejects.toMatchObject({ message: expect.stringContaining('HTTP 401') });
    expect(stub.requests).toHaveLength(3);
  });

  it('times out a slow answer, per attempt', async () => {
    stub = await startLlmStub(() => ({ content: 'late', delayMs: 5_000 }));
    const llm = new OpenAiCompatibleLlm({ baseUrl: stub.baseUrl, model: 'm', timeoutMs: 400, retries: 1, backoffMs: 1 });
    const start = performance.now();
    await expect(llm.complete([{ role: 'user', content: 'x' }])).rejects.toMatchObject({
      message: expect.stringContaining('no answer within 400 ms'),
    });
    expect(performance.now() - start).toBeLessThan(4_000);
    expect(stub.requests).toHaveLength(2);
  });

  it('rejects an answer that is not a chat completion, and a bad config', async () => {
    stub = await startLlmStub(() => ({ raw: '<html>proxy error</html>' }));
    const llm = new OpenAiCompatibleLlm({ baseUrl: stub.baseUrl, model: 'm', retries: 0 });
    await expect(llm.complete([{ role: 'user', content: 'x' }])).rejects.toMatchObject({
      message: expect.stringContaining('chat-completions JSON'),
    });
    stub.respond = () => ({ raw: '{"choices": []}' });
    await expect(llm.complete([{ role: 'user', content: 'x' }])).rejects.toMatchObject({ message: expect.stringContaining('choices[0]') });
    expect(() => new OpenAiCompatibleLlm({ baseUrl: 'localhost:1234', model: 'm' })).toThrow(/http/);
    expect(() => new OpenAiCompatibleLlm({ baseUrl: 'http://x', model: ' ' })).toThrow(/model/);
  });
});
