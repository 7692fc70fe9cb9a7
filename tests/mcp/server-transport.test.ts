// `autohedge mcp` under a client that loops or never reads: the bounded stdio transport
// (src/mcp/server-transport.ts) as a unit over in-memory streams, and the built server
// given one JSON-RPC line of 12 MB.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { BoundedStdioServerTransport } from '../../src/mcp/server-transport.js';
import { binPath, ensureBuilt } from '../smoke/support.js';

const request = (id: number) => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list' })}\n`;
const tick = () => new Promise((resolve) => setImmediate(resolve));

function harness(options: { maxInFlight?: number; maxQueuedBytes?: number; stdout?: Writable } = {}) {
  const stdin = new PassThrough();
  const stdout = options.stdout ?? new PassThrough();
  const logged: string[] = [];
  const transport = new BoundedStdioServerTransport({
    stdin,
    stdout,
    log: (line) => logged.push(line),
    ...(options.maxInFlight !== undefined ? { maxInFlight: options.maxInFlight } : {}),
    ...(options.maxQueuedBytes !== undefined ? { maxQueuedBytes: options.maxQueuedBytes } : {}),
  });
  const received: JSONRPCMessage[] = [];
  transport.onmessage = (message) => received.push(message);
  return { stdin, stdout, transport, received, logged };
}

describe('the bounded stdio transport of autohedge mcp', () => {
  it('hands at most maxInFlight requests to the server at once; each answer lets the next one in', async () => {
    const { stdin, transport, received } = harness({ maxInFlight: 3 });
    await transport.start();
    for (let id = 1; id <= 10; id += 1) stdin.write(request(id));
    await tick();
    expect(received.map((message) => (message as { id: number }).id)).toEqual([1, 2, 3]);
    await transport.send({ jsonrpc: '2.0', id: 2, result: {} });
    await tick();
    expect(received).toHaveLength(4);
    for (const id of [1, 3, 4]) await transport.send({ jsonrpc: '2.0', id, result: {} });
    await tick();
    expect(received).toHaveLength(7);
    await transport.close();
  });

  it('a client that never reads: nothing new is handled, and stdin stops being read past the queue bound', async () => {
    // A stdout that never drains, as a pipe whose reader never reads.
    const stuck = new Writable({ highWaterMark: 64, write: () => {} });
    const { stdin, transport, received } = harness({ stdout: stuck, maxQueuedBytes: 2_000 });
    await transport.start();
    stdin.write(request(1));
    await tick();
    expect(received).toHaveLength(1);
    await transport.send({ jsonrpc: '2.0', id: 1, result: { big: 'x'.repeat(500) } });
    for (let id = 2; id <= 200; id += 1) stdin.write(request(id));
    await tick();
    await tick();
    expect(received).toHaveLength(1);
    // stdin is paused: what the client writes now stays in the pipe (its own backpressure).
    expect(stdin.isPaused()).toBe(true);
    await transport.close();
  });

  it('a line over 10 MB: answered with a JSON-RPC error for its id, logged, and the next request still served', async () => {
    const { stdin, stdout, transport, received, logged } = harness();
    const out: string[] = [];
    stdout.on('data', (chunk: Buffer) => out.push(chunk.toString('utf8')));
    await transport.start();
    const huge = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"market","arguments":{"ticker":"${'A'.repeat(12 * 1024 * 1024)}"}}}\n`;
    for (let offset = 0; offset < huge.length; offset += 1024 * 1024)
      stdin.write(huge.slice(offset, offset + 1024 * 1024));
    stdin.write(request(8));
    await tick();
    await tick();
    const answers = out
      .join('')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: number; error?: { message: string } });
    expect(answers).toEqual([
      {
        jsonrpc: '2.0',
        id: 7,
        error: { code: -32600, message: expect.stringContaining('message too large: 12.0 MB') },
      },
    ]);
    expect(logged.join('\n')).toContain('refused a message of 12.0 MB');
    expect(received.map((message) => (message as { id: number }).id)).toEqual([8]);
    await transport.close();
  });
});

describe('autohedge mcp given a 12 MB line', () => {
  beforeAll(async () => {
    await ensureBuilt();
  }, 180_000);

  it('answers it with an error, says so on stderr, serves the next request, and exits 0 only when stdin closes', async () => {
    const home = mkdtempSync(path.join(tmpdir(), 'autohedge-mcp-home-'));
    const child = spawn(process.execPath, [binPath, 'mcp', '--demo'], {
      env: { PATH: process.env.PATH ?? '', AUTOHEDGE_HOME: home, NO_COLOR: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const answered = async (id: number) => {
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline) {
        const line = stdout.split('\n').find((text) => text.includes(`"id":${id}`));
        if (line) return JSON.parse(line) as { error?: { message: string }; result?: unknown };
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`no answer to ${id}; stderr: ${stderr}`);
    };
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })}\n`,
    );
    await answered(1);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    child.stdin.write(
      `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"pad":"${'x'.repeat(12 * 1024 * 1024)}"}}\n`,
    );
    child.stdin.write(request(3));
    expect((await answered(2)).error?.message).toContain('message too large');
    expect((await answered(3)).result).toBeDefined();
    expect(stderr).toContain('refused a message of 12.0 MB');
    expect(child.exitCode).toBeNull();
    child.stdin.end();
    expect(await exited).toBe(0);
  }, 60_000);
});
