// A scripted OpenAI-compatible endpoint on 127.0.0.1 for the end-to-end tests:
// GET /v1/models lists its models; POST /v1/chat/completions streams one
// text answer that names the model asked for and echoes the last user
// message; a request without the expected key is refused (401), whatever its
// route; failNext makes the next completion fail with a 400 (not retried by
// the server); reportWindow makes GET /props say a context window as
// llama.cpp's server does. Any other route is a 404, and only completions
// are recorded in requests.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One completion request as the endpoint saw it. */
export interface SeenRequest {
  model: string;
  /** The user messages' texts, in order. */
  users: string[];
}

/** The running endpoint. */
export interface FakeOpenAI {
  baseUrl: string;
  requests: SeenRequest[];
  /** The next completion answers 400 with this message. */
  failNext(message: string): void;
  /**
   * From now on GET /props (beside /v1, not under it) answers as llama.cpp's server does, its
   * slots' context `nCtx` in default_generation_settings.n_ctx; undefined (as at the start): a 404,
   * a server that is not llama.cpp. The key is checked there as everywhere (llama.cpp started with
   * --api-key checks it on /props too).
   */
  reportWindow(nCtx: number | undefined): void;
  close(): Promise<void>;
}

/** Starts the endpoint: models are listed in order; key is the API key it accepts. */
export async function startFakeOpenAI(models: string[], key: string): Promise<FakeOpenAI> {
  const requests: SeenRequest[] = [];
  let fail: string | null = null;
  let nCtx: number | undefined;
  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      if (req.headers.authorization !== `Bearer ${key}`) {
        json(res, 401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } });
        return;
      }
      if (req.method === 'GET' && req.url === '/v1/models') {
        json(res, 200, { object: 'list', data: models.map((id) => ({ id, object: 'model', owned_by: 'fake' })) });
        return;
      }
      if (req.method === 'GET' && req.url === '/props' && nCtx !== undefined) {
        json(res, 200, { default_generation_settings: { n_ctx: nCtx }, total_slots: 1 });
        return;
      }
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        json(res, 404, { error: { message: `no route ${req.method} ${req.url}` } });
        return;
      }
      const r = JSON.parse(body) as { model: string; messages: { role: string; content: unknown }[] };
      const users = r.messages.filter((m) => m.role === 'user').map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)));
      requests.push({ model: r.model, users });
      if (fail !== null) {
        const message = fail;
        fail = null;
        json(res, 400, { error: { message, type: 'invalid_request_error', code: 'scripted' } });
        return;
      }
      const last = users[users.length - 1] ?? '';
      // The prompt as the user typed it is the user message's last line (the server may put context before it).
      const said = last.trim().split('\n').pop() ?? '';
      const text = `Answer ${requests.length} from ${r.model}: you said "${said}".`;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (delta: unknown, finish: string | null) =>
        res.write(`data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 1, model: r.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`);
      chunk({ role: 'assistant', content: text }, null);
      chunk({}, 'stop');
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    failNext: (m) => (fail = m),
    reportWindow: (n) => (nCtx = n),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
