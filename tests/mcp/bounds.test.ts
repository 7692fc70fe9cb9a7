/**
 * `autohedge mcp`'s server-wide bounds (#34 item 5) over the real surface: the built CLI
 * driven by the SDK's own client, sixteen `analyze` calls at once against the loopback
 * OpenAI-compatible server, which reports usage (so every call has a real cost) and
 * records when each request arrived and was answered (so analyses in flight are measured
 * where the money is spent, not where the server says it is).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnalysisServer, type AnalysisServer } from '../queue/support/analysis-server.js';
import { binPath, ensureBuilt } from '../smoke/support.js';
import { textAnswer, type RecordedRequest } from '../support/openai-server.js';
import { decisionFor, plan, tickerOf } from '../universe/support.js';

const preload = pathToFileURL(
  path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'queue', 'support', 'any-symbol-yahoo.preload.mjs'),
).href;

/** Every answer reports this usage: at $1 / $10 per million tokens, $0.011 a model call. */
const usage = { prompt_tokens: 1_000, completion_tokens: 1_000 };
const prices = { 'bounds-model': { input: 1, output: 10 } };
const costPerCall = (usage.prompt_tokens * 1 + usage.completion_tokens * 10) / 1e6;
const serverCapUsd = 0.6;
const callCapUsd = 0.15;
const concurrency = 2;

let server: AnalysisServer;
let client: Client;

beforeAll(async () => {
  await ensureBuilt();
  // Slow enough that sixteen calls sent together are all at the server while the first runs.
  server = await startAnalysisServer(({ agent, request }) => {
    const body = request.body;
    const text =
      agent === 'director'
        ? JSON.stringify(
            body.response_format?.json_schema?.name === 'plan' ? plan : decisionFor({ action: 'HOLD', conviction: 55 }),
          )
        : `${agent} report on ${tickerOf(body)}.`;
    return textAnswer(text, { usage, delayMs: 150 });
  });
  client = new Client({ name: 'autohedge-bounds-test', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      '--import',
      preload,
      binPath,
      'mcp',
      ...['--base-url', server.url, '--search', 'none', '--model', 'bounds-model'],
      ...['--max-cost', String(serverCapUsd), '--run-max-cost', String(callCapUsd)],
      ...['--concurrency', String(concurrency)],
    ],
    env: {
      PATH: process.env.PATH ?? '',
      NO_COLOR: '1',
      AUTOHEDGE_HOME: mkdtempSync(path.join(tmpdir(), 'autohedge-mcp-bounds-')),
      OPENAI_API_KEY: 'sk-bounds-test-0123456789',
      AUTOHEDGE_PRICES: JSON.stringify(prices),
    },
    stderr: 'pipe',
  });
  await client.connect(transport);
}, 180_000);

afterAll(async () => {
  await client?.close().catch(() => {});
  await server?.close();
});

type CallResult = Awaited<ReturnType<Client['callTool']>>;
const textOf = (result: CallResult) => (result.content as Array<{ text?: string }>)[0]?.text ?? '';
const costOf = (result: CallResult) =>
  (result.structuredContent as { usage: { costUsd: number } } | undefined)?.usage.costUsd ?? 0;

/** The most analyses at the model server at once: each ticker's span from its first request to its last answer. */
function mostInFlight(requests: readonly RecordedRequest[]): number {
  const spans = new Map<string, { from: number; to: number }>();
  for (const request of requests) {
    const ticker = tickerOf(request.body);
    const span = spans.get(ticker) ?? { from: Infinity, to: -Infinity };
    span.from = Math.min(span.from, request.receivedAt);
    span.to = Math.max(span.to, request.answeredAt ?? Infinity);
    spans.set(ticker, span);
  }
  const edges = [...spans.values()].flatMap((span) => [
    { at: span.from, step: 1 },
    { at: span.to, step: -1 },
  ]);
  // An answer and the next run's first request in the same millisecond: the end counts first.
  edges.sort((a, b) => a.at - b.at || a.step - b.step);
  let now = 0;
  let most = 0;
  for (const edge of edges) most = Math.max(most, (now += edge.step));
  return most;
}

const busy =
  /^autohedge: \d+ analyses are running and \d+ waiting \(--concurrency 2, at most 2 waiting\): this call was refused; try again when one finishes/;
const spent =
  /^autohedge: this server's --max-cost \$0\.60 is spent \(\$[\d.]+ over \d+ analyses; .*\): no further analysis is made; restart it with a higher --max-cost to analyse more$/;

describe('autohedge mcp --max-cost --concurrency under sixteen parallel analyze calls', () => {
  it('runs at most two analyses at once, queues two, refuses the rest clearly, and never spends past the server cap', async () => {
    const tickers = Array.from({ length: 16 }, (_, index) => `LD${String.fromCharCode(65 + index)}`);
    const progress = new Map<string, string[]>(tickers.map((ticker) => [ticker, []]));
    const results = await Promise.all(
      tickers.map((ticker) =>
        client.callTool(
          { name: 'analyze', arguments: { ticker } },
          { onprogress: (update) => progress.get(ticker)!.push(update.message ?? '') },
        ),
      ),
    );
    const analysed = results.filter((result) => !result.isError);
    const refused = results.filter((result) => result.isError);
    // The first two run and the next two wait their turn; the other twelve arrive while they do.
    expect(analysed.length).toBeGreaterThanOrEqual(concurrency);
    expect(refused.length).toBeGreaterThan(0);
    for (const result of refused) expect(textOf(result)).toMatch(new RegExp(`${busy.source}|${spent.source}`));
    // A call that waited said so first (as progress), then ran.
    const waited = tickers.filter((ticker) => progress.get(ticker)![0]?.startsWith('waiting: '));
    expect(waited.length).toBeGreaterThan(0);
    for (const ticker of waited) {
      expect(progress.get(ticker)![0]).toMatch(
        /^waiting: (2 of 2 analyses running \(--concurrency\)|1 running hold too much of the server's --max-cost for this one's cap); [01] ahead of this one$/,
      );
      expect(progress.get(ticker)).toContain('director: running');
    }
    expect(mostInFlight(server.requests)).toBeGreaterThan(0);
    expect(mostInFlight(server.requests)).toBeLessThanOrEqual(concurrency);
    for (const result of analysed)
      expect((result.structuredContent as { options: { maxCostUsd: number } }).options.maxCostUsd).toBeLessThanOrEqual(
        callCapUsd,
      );

    // One call at a time until the budget is spent: each is granted what is left, the last
    // is stopped by it, and from then on a call is refused at once, with no model request.
    const ending: CallResult[] = [];
    for (let index = 0; index < 12 && !ending.some((result) => spent.test(textOf(result))); index += 1)
      ending.push(
        await client.callTool({ name: 'analyze', arguments: { ticker: `LE${String.fromCharCode(65 + index)}` } }),
      );
    const last = ending.at(-1)!;
    expect(last.isError).toBe(true);
    expect(textOf(last)).toMatch(spent);
    const requestsSoFar = server.requests.length;
    const after = await client.callTool({ name: 'analyze', arguments: { ticker: 'LFA' } });
    expect(textOf(after)).toMatch(spent);
    expect(server.requests.length).toBe(requestsSoFar);

    // What was spent, counted where it was spent (every answer's usage) and as the runs report it.
    const spentAtServer = server.requests.length * costPerCall;
    expect(spentAtServer).toBeLessThanOrEqual(serverCapUsd + 1e-9);
    const reported = [...results, ...ending].reduce((sum, result) => sum + costOf(result), 0);
    expect(reported).toBeCloseTo(spentAtServer, 9);
    // And the budget was used, not refused from the start: at least three whole analyses' worth.
    expect(spentAtServer).toBeGreaterThan(3 * 6 * costPerCall - 1e-9);
  }, 120_000);
});
