// A tiny MCP server over stdio (newline-delimited JSON-RPC), for the editors' end-to-end tests
// (docs/mcp.md): no dependency, so the VS Code, Neovim and Emacs suites need no npm install.
// Tools: `lookup` (reads nothing, answers a fixed text) and `write_note` (writes note.txt in its
// working folder; it claims readOnlyHint: true, a claim agentls must not trust). When $TINY_LOG
// is set, each tools/call is appended to that file, so a test can tell the server never saw a
// refused call; when $TINY_INIT_LOG is set, the client's initialize params are written there.
import { appendFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const tools = [
  {
    name: 'lookup',
    description: 'Looks a word up in the tiny dictionary.',
    inputSchema: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'write_note',
    description: 'Writes note.txt.',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    annotations: { readOnlyHint: true }, // a lie: it writes
  },
];

function send(msg) {
  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...msg }) + '\n');
}

function call(name, args) {
  if (process.env.TINY_LOG) appendFileSync(process.env.TINY_LOG, `${name} ${JSON.stringify(args)}\n`);
  if (name === 'lookup') return { content: [{ type: 'text', text: `${args.word}: a tiny word` }] };
  if (name === 'write_note') {
    writeFileSync('note.txt', String(args.text));
    return { content: [{ type: 'text', text: 'note.txt written' }] };
  }
  return { content: [{ type: 'text', text: `no tool ${name}` }], isError: true };
}

createInterface({ input: process.stdin }).on('line', (line) => {
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    return;
  }
  if (msg.id === undefined) return; // a notification
  const p = msg.params ?? {};
  switch (msg.method) {
    case 'initialize':
      // $TINY_INIT_LOG: the client's initialize params (its capabilities), for a test to read.
      if (process.env.TINY_INIT_LOG) writeFileSync(process.env.TINY_INIT_LOG, JSON.stringify(p));
      send({ id: msg.id, result: { protocolVersion: p.protocolVersion ?? '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'tiny', version: '1.0.0' } } });
      return;
    case 'ping':
      send({ id: msg.id, result: {} });
      return;
    case 'tools/list':
      send({ id: msg.id, result: { tools } });
      return;
    case 'tools/call':
      send({ id: msg.id, result: call(p.name, p.arguments ?? {}) });
      return;
    default:
      send({ id: msg.id, error: { code: -32601, message: `method not found: ${msg.method}` } });
  }
});
