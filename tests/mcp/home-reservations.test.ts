/**
 * `autohedge mcp` and `watch` on one home (#47 item 8): while a paid MCP analysis runs, its
 * cap is held in the home's spend reservations, where a `watch --budget-usd` process counts
 * it; once the run is saved the hold is gone (its cost is then in the saved run).
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnalysisServer, type AnalysisServer } from '../queue/support/analysis-server.js';
import { binPath, ensureBuilt } from '../smoke/support.js';
import { textAnswer } from '../support/openai-server.js';
import { decisionFor, plan } from '../universe/support.js';

const preload = pathToFileURL(
  path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'queue', 'support', 'any-symbol-yahoo.preload.mjs'),
).href;

const callCapUsd = 0.15;
let server: AnalysisServer;
let client: Client;
let home: string;
/** Lets the model server answer: until then the analysis is in flight. */
let answer: () => void = () => undefined;
const answered = new Promise<void>((resolve) => (answer = resolve));

beforeAll(async () => {
  await ensureBuilt();
  server = await startAnalysisServer(async ({ agent, request }) => {
    await answered;
    const text =
      agent === 'director'
        ? JSON.stringify(
            request.body.response_format?.json_schema?.name === 'plan'
              ? plan
              : decisionFor({ action: 'HOLD', conviction: 55 }),
          )
        : `${agent} report.`;
    return textAnswer(text, { usage: { prompt_tokens: 100, completion_tokens: 100 } });
  });
  home = mkdtempSync(path.join(tmpdir(), 'autohedge-mcp-reservations-'));
  client = new Client({ name: 'autohedge-reservations-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [
        ...['--import', preload, binPath, 'mcp', '--base-url', server.url, '--search', 'none'],
        ...['--model', 'reserve-model', '--max-cost', '1', '--run-max-cost', String(callCapUsd)],
      ],
      env: {
        PATH: process.env.PATH ?? '',
        NO_COLOR: '1',
        AUTOHEDGE_HOME: home,
        OPENAI_API_KEY: 'sk-reservations-test-0123456789',
        AUTOHEDGE_PRICES: JSON.stringify({ 'reserve-model': { input: 1, output: 10 } }),
      },
      stderr: 'pipe',
    }),
  );
}, 180_000);

afterAll(async () => {
  answer();
  await client?.close().catch(() => {});
  await server?.close();
});

const reservations = (): Array<{ usd: number; pid: number }> => {
  const file = path.join(home, 'spend-reservations.json');
  return existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as { reservations: Array<{ usd: number; pid: number }> }).reservations
    : [];
};

describe('autohedge mcp on a home that watch shares', () => {
  it("holds a paid call's cap in the home's reservations while it runs, and lets it go once the run is saved", async () => {
    const call = client.callTool({ name: 'analyze', arguments: { ticker: 'ACME' } });
    // The model server holds its answers: wait for the first request, the run is then admitted.
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(reservations()).toEqual([expect.objectContaining({ usd: callCapUsd })]);
    expect(reservations()[0]!.pid).not.toBe(process.pid);
    answer();
    const result = await call;
    expect(result.isError, JSON.stringify(result.content)).not.toBe(true);
    expect(reservations()).toEqual([]);
  }, 120_000);
});
