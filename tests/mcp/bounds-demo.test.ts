/**
 * The server's gate (--max-cost over its lifetime, --concurrency) as a demo server meets it:
 * bad input is refused with its own message before any wait, and a replay pays nothing, so
 * it does not draw the budget down.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { binPath, ensureBuilt } from '../smoke/support.js';

beforeAll(ensureBuilt, 180_000);

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => {})));
});

async function demoServer(...flags: string[]): Promise<Client> {
  const client = new Client({ name: 'autohedge-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [binPath, 'mcp', '--demo', ...flags],
      env: {
        PATH: process.env.PATH ?? '',
        NO_COLOR: '1',
        AUTOHEDGE_HOME: mkdtempSync(path.join(tmpdir(), 'autohedge-mcp-gate-')),
      },
      stderr: 'pipe',
    }),
  );
  clients.push(client);
  return client;
}

const textOf = (result: { content?: unknown }) => (result.content as Array<{ text?: string }>)[0]?.text ?? '';
const analyze = (client: Client, ticker: string) =>
  client.callTool({ name: 'analyze', arguments: { ticker } }, { timeout: 60_000 });

describe('autohedge mcp --demo behind its gate', () => {
  it('refuses a ticker the demo does not hold with its own line, however busy the server is', async () => {
    const client = await demoServer('--concurrency', '1');
    const [acme, ...others] = await Promise.all([
      analyze(client, 'ACME'),
      ...['NVDA', 'MSFT', 'AAPL'].map((ticker) => analyze(client, ticker)),
    ]);
    expect(acme.isError, textOf(acme)).not.toBe(true);
    for (const other of others) {
      expect(other.isError).toBe(true);
      expect(textOf(other)).toMatch(/^autohedge: this demo server covers ACME only/);
    }
  }, 120_000);

  it('does not draw the budget down: a replay pays nothing', async () => {
    // The demo's recorded bill is about $0.04 a run: with a $0.065 budget, a second run would be cut short if it counted.
    const client = await demoServer('--max-cost', '0.065');
    for (let round = 0; round < 3; round += 1) {
      const answer = await analyze(client, 'ACME');
      expect(answer.isError, textOf(answer)).not.toBe(true);
      expect((answer.structuredContent as { status: string }).status).toBe('ok');
    }
  }, 120_000);
});
