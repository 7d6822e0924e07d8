// The API key's way to the real agentls server: stored by "Set API Key",
// handed over in the server's process environment (serverEnv) and never in
// initializationOptions. The server is the real binary (go build), started as
// the extension starts it, talking JSON-RPC over stdio; the model endpoint is
// a fake OpenAI-compatible server on 127.0.0.1 that records the key it is sent.
import assert from 'node:assert/strict';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { createMessageConnection, type MessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { apiKeySecret, storeApiKey } from '../../src/flows';
import { agentCapability } from '../../src/protocol';
import { initializationOptions, serverEnv } from '../../src/settings';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agentls-apikey-'));
const bin = path.join(tmp, 'agentls');
let endpoint: http.Server;
let baseUrl: string;
/** The Authorization headers the fake endpoint received. */
const seen: string[] = [];

before(async () => {
  execFileSync('go', ['build', '-o', bin, './cmd/agentls'], { cwd: path.resolve('..', '..'), stdio: 'inherit' });
  endpoint = http.createServer((req, res) => {
    seen.push(req.headers.authorization ?? '');
    if (req.method === 'GET' && req.url === '/v1/models') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ id: 'test-model', object: 'model' }] }));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => endpoint.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/v1`;
});

after(async () => {
  await new Promise((r) => endpoint?.close(r));
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Starts the server as the controller does and returns its connection and the initialize params sent. */
async function startServer(apiKey: string | undefined): Promise<{ conn: MessageConnection; proc: ChildProcess; initParams: unknown }> {
  const ws = fs.mkdtempSync(path.join(tmp, 'ws-'));
  const settings: Record<string, unknown> = { 'model.provider': 'openai', 'model.baseUrl': baseUrl, 'model.name': 'test-model' };
  // A clean environment: no key or agentls settings of the machine running the test.
  const base = { PATH: process.env.PATH, HOME: ws, XDG_CONFIG_HOME: path.join(ws, '.config') };
  const proc = spawn(bin, [], { cwd: ws, env: serverEnv(base, apiKey), stdio: ['pipe', 'pipe', 'inherit'] });
  const conn = createMessageConnection(new StreamMessageReader(proc.stdout!), new StreamMessageWriter(proc.stdin!));
  conn.listen();
  const initParams = {
    processId: process.pid,
    rootUri: pathToFileURL(ws).toString(),
    workspaceFolders: [{ uri: pathToFileURL(ws).toString(), name: 'ws' }],
    capabilities: { experimental: { agent: agentCapability(true) } },
    initializationOptions: initializationOptions((k) => settings[k]),
  };
  await conn.sendRequest('initialize', initParams);
  await conn.sendNotification('initialized', {});
  return { conn, proc, initParams };
}

async function stopServer(conn: MessageConnection, proc: ChildProcess): Promise<void> {
  const exited = new Promise((r) => proc.once('exit', r));
  await conn.sendRequest('shutdown');
  await conn.sendNotification('exit');
  await exited;
  conn.dispose();
}

describe('the API key reaches the server in its environment only', () => {
  test('a key stored with Set API Key is what the server sends the model endpoint; initialize never carries it', async () => {
    const kept = new Map<string, string>();
    await storeApiKey({ store: async (k, v) => void kept.set(k, v), delete: async (k) => void kept.delete(k) }, 'sk-from-secret-storage');
    seen.length = 0;
    const { conn, proc, initParams } = await startServer(kept.get(apiKeySecret));
    assert.equal(JSON.stringify(initParams).includes('sk-from-secret-storage'), false, 'the key is not in initialize');
    const check = await conn.sendRequest<{ ok: boolean; message?: string }>('agent/checkModel', {});
    await stopServer(conn, proc);
    assert.equal(check.ok, true, check.message);
    // The model list, then the asks for the context window (llama.cpp's /props and the like): each with the stored key.
    assert.ok(seen.length > 0, 'the server asked the endpoint');
    assert.deepEqual([...new Set(seen)], ['Bearer sk-from-secret-storage']);
  });

  test('with no key stored the server has none to send', async () => {
    seen.length = 0;
    const { conn, proc } = await startServer(undefined);
    await conn.sendRequest('agent/checkModel', {});
    await stopServer(conn, proc);
    assert.deepEqual(seen.filter((h) => /^Bearer \S/.test(h)), [], 'no key ever went out');
  });
});
