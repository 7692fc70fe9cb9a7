// `analyze --blind` end to end, with the real chat client over loopback: no request carries the
// identity, the calendar or a raw price; the levels come back real; search and MCP are off.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runCli } from '../../src/cli/run-cli.js';
import { analyze } from '../../src/pipeline/analyze.js';
import type { AnalysisResult } from '../../src/result/types.js';
import type { SearchProvider } from '../../src/search/types.js';
import { ScriptedModel } from '../../src/testing/scripted-model.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { blindSnapshot } from '../../src/market/blind.js';
import { leaksIn, namedSnapshot } from '../support/blind.js';
import { captureIo } from '../support/cli.js';
import { agentOf, fixedNow, schemaOf } from '../support/faults.js';
import { fakeMarket } from '../support/market.js';
import { startOpenAIServer, textAnswer, type OpenAIServer, type RecordedRequest } from '../support/openai-server.js';
import { deskIds } from '../../agents/index.js';
import { decisionFixture, planFor } from '../../src/testing/index.js';

let server: OpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const named = namedSnapshot();
const plan = planFor(deskIds, {
  thesis: 'The company trades at its highs with strong momentum; the question is whether it holds.',
});
/** In blind units (last close 100, ATR about 1.67): the first stop is too tight, the review fixes it. */
const tight = {
  ...decisionFixture({ rationale: 'Momentum above the averages.', keyRisks: ['reversal', 'overbought'] }),
  entry: 99,
  stopLoss: 98.9,
  takeProfit: 104,
};
const revised = { ...tight, stopLoss: 96.5 };

function blindModel(body: any, _index: number, request: RecordedRequest) {
  const agent = agentOf(request);
  if (agent !== 'director') return textAnswer(`${agent}: a read of the data alone, score 0.6.`);
  if (schemaOf(body) === 'plan') return textAnswer(JSON.stringify(plan));
  const reviewing = JSON.stringify(body.messages).includes('breaks these rules');
  return textAnswer(JSON.stringify(reviewing ? revised : tight));
}

const unusedSearch: SearchProvider & { calls: number } = {
  calls: 0,
  async search() {
    this.calls += 1;
    return [];
  },
};

async function blindRun(args: string[]) {
  server = await startOpenAIServer(blindModel);
  const io = captureIo();
  const env = { ...io.env, OPENAI_API_KEY: 'sk-test-blind-0000000000', OPENAI_BASE_URL: server.url };
  const code = await runCli(
    ['analyze', 'NVDQ', '--blind', '--json', ...args],
    { ...io, env },
    { market: fakeMarket(named), search: unusedSearch, now: fixedNow },
  );
  return { code, io, server, env };
}

describe('analyze --blind against the loopback server', () => {
  it('no message or tool definition names the company, a calendar day or year, or a raw price', async () => {
    const { code, io, server } = await blindRun([]);
    expect(code, io.err()).toBe(0);
    expect(server.requests.length).toBe(7); // plan, 4 desks, decision, review
    for (const request of server.requests) {
      const sent = JSON.stringify(request.body.messages) + JSON.stringify(request.body.tools ?? []);
      expect(leaksIn(sent, named), `${agentOf(request)} request ${request.index}`).toEqual([]);
      expect(sent).not.toMatch(/\b(?:19|20)\d\d\b|Monday|Tuesday|Wednesday|Thursday|Friday|Semiconductors/);
      expect(request.body.tools).toBeUndefined();
      expect(sent).toContain('Company A');
    }
    // The date line of every system prompt, the review quoting blind numbers only.
    const director = server.requests.filter((request) => agentOf(request) === 'director');
    expect(director[0]!.body.messages[0].content).toContain('Today is session D-0 (a blind run');
    const review = JSON.stringify(director.at(-1)!.body.messages.at(-1));
    expect(review).toContain('stop-tight');
    expect(review).toContain('stop 98.90');
    expect(JSON.stringify(director[1]!.body.messages)).toContain(
      'give entry, stopLoss and takeProfit in the blind units',
    );
    // Sentiment is told it has no search, and why; the provider was never asked.
    const sentiment = server.requests.find((request) => agentOf(request) === 'sentiment')!;
    expect(JSON.stringify(sentiment.body.messages)).toContain('web search is off (a query would name the company)');
    expect(unusedSearch.calls).toBe(0);
    expect(io.err()).toContain('blind run — web search is off');
  });

  it('the same run named does show the checker the ticker, the days and the prices (the check can fail)', async () => {
    server = await startOpenAIServer(blindModel);
    const io = captureIo();
    const env = { ...io.env, OPENAI_API_KEY: 'sk-test-blind-0000000000', OPENAI_BASE_URL: server.url };
    await runCli(
      ['analyze', 'NVDQ', '--json', '--no-save', '--search', 'none'],
      { ...io, env },
      {
        market: fakeMarket(named),
        search: null,
        now: fixedNow,
      },
    );
    const quant = server.requests.find((request) => agentOf(request) === 'quant')!;
    const leaks = leaksIn(JSON.stringify(quant.body.messages), named);
    expect(leaks).toEqual(expect.arrayContaining(['NVDQ', 'Nvidiq Corporation', '2026', named.bars.at(-1)!.date]));
    expect(leaks).toContain(named.indicators.lastClose!.toFixed(2));
  });

  it('saves real levels (blind × scale), the alias and the scale; the report says BLIND at the top', async () => {
    const { code, io } = await blindRun([]);
    expect(code, io.err()).toBe(0);
    const result = JSON.parse(io.out()) as AnalysisResult;
    const scale = named.indicators.lastClose! / 100;
    expect(result.blind).toEqual({ alias: 'Company A', scale });
    expect(result.ticker).toBe('NVDQ');
    expect(result.market?.symbol).toBe('NVDQ');
    expect(result.decision).toMatchObject({
      action: 'BUY',
      entry: revised.entry * scale,
      stopLoss: revised.stopLoss * scale,
      takeProfit: revised.takeProfit * scale,
    });
    expect(result.decisionHistory?.map((record) => record.decision.stopLoss)).toEqual([
      tight.stopLoss * scale,
      revised.stopLoss * scale,
    ]);
    // The guardrails judged the real levels against the real snapshot.
    expect(result.decisionHistory?.[0]?.guardrails.some((finding) => finding.rule === 'stop-tight')).toBe(true);
    expect(result.guardrails.filter((finding) => finding.severity === 'error')).toEqual([]);
    expect(result.options).toMatchObject({ blind: true, search: 'none' });

    const home = io.env.AUTOHEDGE_HOME as string;
    const [runDirectory] = readdirSync(join(home, 'runs'));
    const saved = JSON.parse(readFileSync(join(home, 'runs', runDirectory!, 'result.json'), 'utf8')) as AnalysisResult;
    expect(saved.decision?.entry).toBe(revised.entry * scale);
    expect(saved.blind).toEqual({ alias: 'Company A', scale });
    const markdown = readFileSync(join(home, 'runs', runDirectory!, 'report.md'), 'utf8');
    expect(markdown.split('\n').slice(0, 4).join('\n')).toContain('BLIND — the models saw "Company A"');
    expect(readFileSync(join(home, 'runs', runDirectory!, 'report.html'), 'utf8')).toContain('data-blind=""');
  });

  it('several tickers (as --universe runs them): each run blind, each with its own alias', async () => {
    server = await startOpenAIServer(blindModel);
    const io = captureIo();
    const env = { ...io.env, OPENAI_API_KEY: 'sk-test-blind-0000000000', OPENAI_BASE_URL: server.url };
    const other = { ...named, symbol: 'ZZQT', bars: named.bars.map((bar) => ({ ...bar, close: bar.close! / 2 })) };
    const market = fakeMarket((ticker) => (ticker === 'ZZQT' ? other : named));
    const code = await runCli(
      ['analyze', 'NVDQ', 'ZZQT', '--blind', '--json', '--no-save'],
      { ...io, env },
      {
        market,
        search: unusedSearch,
        now: fixedNow,
      },
    );
    expect(code, io.err()).toBe(0);
    const results = JSON.parse(io.out()) as AnalysisResult[];
    expect(results.map((result) => [result.ticker, result.blind?.alias])).toEqual([
      ['NVDQ', 'Company A'],
      ['ZZQT', 'Company A'],
    ]);
    for (const request of server.requests) {
      const sent = JSON.stringify(request.body.messages);
      expect(leaksIn(sent, named)).toEqual([]);
      expect(sent).not.toContain('ZZQT');
    }
  });

  it('an explicit --search exa or openai, or --mcp-config, with --blind is a usage error, exit 2, before any request', async () => {
    for (const extra of [
      ['--search', 'exa'],
      ['--search', 'openai'],
      ['--mcp-config', 'servers.json'],
    ]) {
      const { code, io, server } = await blindRun(extra);
      expect(code).toBe(2);
      expect(io.err()).toMatch(/--blind turns (web search|MCP tools) off/);
      expect(server.requests).toHaveLength(0);
      await server.close();
    }
    const none = await blindRun(['--search', 'none', '--no-save']);
    expect(none.code, none.io.err()).toBe(0);
  });
});

describe('claims in a blind run', () => {
  it('a desk quoting the blind block is verified against the blind snapshot, not contradicted by the real one', async () => {
    const { snapshot: blind } = blindSnapshot(named);
    const quoted = `Quant: the last close is 100.00 and SMA50 is ${blind.indicators.sma50!.toFixed(2)}; RSI(14) ${blind.indicators.rsi14!.toFixed(1)}.`;
    const model = new ScriptedModel({
      director: [{ text: JSON.stringify(plan) }, { text: JSON.stringify(revised) }],
      quant: [{ text: quoted }],
      risk: [{ text: 'r' }],
      execution: [{ text: 'e' }],
      sentiment: [{ text: 's' }],
    });
    const result = await analyze(
      'NVDQ',
      { asOf: fixedNow(), blind: true },
      { model, market: fakeMarket(named), search: null },
    );
    const quant = (result.claims ?? []).filter((claim) => claim.agent === 'quant');
    expect(quant.length).toBeGreaterThanOrEqual(2);
    expect(quant.filter((claim) => claim.status === 'contradicted')).toEqual([]);
    expect(result.guardrails.filter((finding) => finding.severity === 'error')).toEqual([]);
  });
});

describe('market --blind', () => {
  it('prints the block a blind run sends, and its JSON', async () => {
    const io = captureIo();
    expect(await runCli(['market', 'NVDQ', '--blind'], io, { market: fakeMarket(named), now: fixedNow })).toBe(0);
    expect(io.out()).toContain('MARKET DATA — Company A (blind');
    expect(io.out()).toContain('Daily closes (blind units)');
    expect(leaksIn(io.out(), named)).toEqual([]);
    const json = captureIo();
    expect(await runCli(['market', 'NVDQ', '--blind', '--json'], json, { market: fakeMarket(named) })).toBe(0);
    expect(JSON.parse(json.out())).toMatchObject({ symbol: 'Company A', blind: true, asOf: 'D-0' });
  });
});

describe('analyze({ blind: true }) as a library call', () => {
  it('binds no MCP tool and says so; desks and Director see the alias', async () => {
    const ruler = defineTool({
      name: 'lookup__profile',
      description: 'Company profile of NVDQ',
      outputs: 'text',
      parameters: z.object({}),
      run: async () => 'Nvidiq Corporation, founded 1993',
    });
    const model = new ScriptedModel({
      director: [{ text: JSON.stringify(plan) }, { text: JSON.stringify(revised) }],
      quant: [{ text: 'q' }],
      risk: [{ text: 'r' }],
      execution: [{ text: 'e' }],
      sentiment: [{ text: 's' }],
    });
    const result = await analyze(
      'NVDQ',
      { asOf: fixedNow(), blind: true },
      { model, market: fakeMarket(named), search: unusedSearch, agentTools: { sentiment: [ruler], risk: [ruler] } },
    );
    expect(result.status).toBe('ok');
    expect(model.requests.every((request) => request.tools === undefined)).toBe(true);
    expect(result.warnings.join('\n')).toContain('blind run: the MCP tools (lookup__profile, lookup__profile) are off');
    for (const request of model.requests) expect(leaksIn(JSON.stringify(request.messages), named)).toEqual([]);
    model.assertComplete();
  });
});
