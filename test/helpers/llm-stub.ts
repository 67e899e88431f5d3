/**
 * A local HTTP server that speaks the OpenAI chat-completions protocol, for LLM tests: each request is
 * answered by `respond`, which sees the parsed request and returns a status, a body (string or a
 * completion text) and an optional delay. Real sockets and real `fetch`, no mocks.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface StubRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: { model?: string; messages?: { role: string; content: string }[]; response_format?: unknown; max_tokens?: number };
  /** Which Engram use the system prompt is for. */
  use: 'importance' | 'supersession' | 'extraction' | 'reflection' | 'other';
}

export interface StubAnswer {
  status?: number;
  /** The assistant's message content (wrapped in a chat-completion envelope). */
  content?: string;
  /** A raw body instead of the envelope (for malformed answers). */
  raw?: string;
  delayMs?: number;
}

export interface LlmStub {
  baseUrl: string;
  requests: StubRequest[];
  respond: (request: StubRequest) => StubAnswer;
  close(): Promise<void>;
}

function useOf(system: string): StubRequest['use'] {
  if (system.includes('how important')) return 'importance';
  if (system.includes('OLD claim')) return 'supersession';
  if (system.includes('extract durable facts')) return 'extraction';
  if (system.includes('reflect on')) return 'reflection';
  return 'other';
}

/** Starts a stub on a random loopback port. */
export async function startLlmStub(respond: LlmStub['respond']): Promise<LlmStub> {
  const stub: LlmStub = { baseUrl: '', requests: [], respond, close: async () => undefined };
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      let body: StubRequest['body'] = {};
      try {
        body = JSON.parse(text) as StubRequest['body'];
      } catch {
        // a malformed request is answered by `respond` like any other
      }
      const system = body.messages?.find((m) => m.role === 'system')?.content ?? '';
      const request: StubRequest = { path: req.url ?? '', headers: req.headers, body, use: useOf(system) };
      stub.requests.push(request);
      const answer = stub.respond(request);
      const send = () => {
        if (res.destroyed) return;
        const payload =
          answer.raw ??
          JSON.stringify({
            id: 'cmpl-1',
            object: 'chat.completion',
            model: body.model,
            choices: [{ index: 0, message: { role: 'assistant', content: answer.content ?? '' }, finish_reason: 'stop' }],
          });
        res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' });
        res.end(payload);
      };
      if (answer.delayMs !== undefined) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stub.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  stub.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return stub;
}
