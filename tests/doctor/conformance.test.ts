// `autohedge doctor --conformance` (issue 46) through runCli against loopback servers that
// show a local engine's signs: one table of measured rows, --json, --tries, the tool checks
// as warnings when no agent has tools, the canary's verdict by reported tokens.
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import type { DoctorReport } from '../../src/doctor/types.js';
import { engineRoutes, type EngineSign } from '../../testkit/engine-signs.js';
import { captureIo } from '../support/cli.js';
import { fakeMarket } from '../support/market.js';
import {
  startOpenAIServer,
  textAnswer,
  toolCallAnswer,
  type OpenAIServer,
  type Reply,
} from '../support/openai-server.js';

const servers: OpenAIServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

const decision = {
  action: 'HOLD',
  conviction: 55,
  timeHorizon: '2–6 weeks',
  positionSizePct: 2,
  orderType: 'limit',
  entry: 101,
  stopLoss: 94,
  takeProfit: 112,
  rationale: 'Trend intact, valuation full.',
  keyRisks: ['earnings'],
  dissent: null,
};

/** A local engine: the decision (valid or not), tools, and prompt counts honest or cut at `keeps`. */
function engine(options: { keeps?: number; invalidOnce?: boolean } = {}) {
  let decisions = 0;
  return (body: any): Reply => {
    const asked = JSON.stringify(body.messages);
    const honest = Math.round(asked.length / 4.2);
    const usage = { prompt_tokens: options.keeps ? Math.min(options.keeps, honest) : honest, completion_tokens: 40 };
    if (body.response_format) {
      const schema = body.response_format.json_schema?.schema ?? body.response_format.schema;
      if (schema?.properties?.sum) return textAnswer('{"sum":5}', { usage });
      decisions += 1;
      const sent = options.invalidOnce && decisions === 1 ? { ...decision, stopLoss: 0 } : decision;
      return textAnswer(JSON.stringify(sent), { usage });
    }
    if (body.tools) {
      if (body.messages.at(-1)?.role === 'tool') return textAnswer('5', { usage });
      return toolCallAnswer([{ id: 'call_1', name: 'add', arguments: { a: 2, b: 3 } }], { usage });
    }
    return textAnswer('CANARY-7391-HERON', { usage });
  };
}

async function conformance(sign: EngineSign, handler: (body: any) => Reply, argv: string[] = []) {
  const server = await startOpenAIServer(handler, { models: ['qwen3'], routes: engineRoutes(sign, 'qwen3', 32768) });
  servers.push(server);
  const io = captureIo();
  const env = { ...io.env, OPENAI_BASE_URL: server.url, AUTOHEDGE_MODEL: 'qwen3' };
  const code = await runCli(
    ['doctor', '--conformance', '--model', 'qwen3', ...argv],
    { ...io, env },
    {
      market: fakeMarket(),
      now: () => new Date('2026-11-28T12:00:00Z'),
    },
  );
  return { code, io, server };
}

describe('autohedge doctor --conformance', () => {
  it('measures a conforming llama.cpp server: one table, every row, exit 0', async () => {
    const { code, io, server } = await conformance('llama.cpp', engine());
    const lines = io.out().trimEnd().split('\n');
    expect(lines[0]).toMatch(/^autohedge doctor --conformance — model 'qwen3' at http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(lines[1]).toBe('  each exchange may take up to 300 s (a loopback server: longer than the 30 s for others)');
    const rows = lines.slice(2, -1).map((line) => line.slice(8).split(/\s{2,}/)[0]);
    expect(rows.slice(-9)).toEqual([
      'server',
      'model listed',
      'engine',
      'structured output',
      'decision schema',
      'tool round trip',
      'streamed tool calls',
      'context (6k-token canary)',
      'tokens per second',
    ]);
    expect(io.out()).toContain('llama.cpp, context 32768 tokens: the grammar mode, the full schema');
    expect(io.out()).toContain('grammar works');
    expect(io.out()).toContain('3 of 3 decisions valid (grammar)');
    expect(io.out()).toMatch(/whole add\(2, 3\), id call_1, finish_reason tool_calls/);
    expect(io.out()).toMatch(/streamed add\(2, 3\), id call_1/);
    expect(lines.at(-1)).toBe('The server and model conform: a run should finish with a valid decision.');
    expect(code).toBe(0);
    const seeds = server.requests
      .filter((request) => request.body?.response_format?.json_schema?.name === 'decision')
      .map((request) => request.body.seed);
    expect(seeds).toEqual([1, 2, 3]);
  });

  it('--json --tries 2: counts a slip by its violation; the tool checks only warn with --search none', async () => {
    const { code, io } = await conformance('ollama', engine({ invalidOnce: true }), [
      '--json',
      '--tries',
      '2',
      '--search',
      'none',
    ]);
    const report = JSON.parse(io.out()) as DoctorReport;
    const row = (id: string) => report.checks.find((item) => item.id === id);
    expect(report.conformance).toBe(true);
    expect(row('decision-schema')).toMatchObject({ status: 'warn' });
    expect(row('decision-schema')?.detail).toBe(
      '1 of 2 decisions valid (grammar); try 1: stopLoss must be > 0; you sent 0',
    );
    expect(row('speed')?.detail).toMatch(/^\d+\.\d completion tokens\/s over the decisions$/);
    expect(code).toBe(0);
  });

  it('fails the canary when Ollama cuts the prompt to 4,096 tokens, naming OLLAMA_CONTEXT_LENGTH', async () => {
    const { code, io } = await conformance('ollama', engine({ keeps: 4096 }), ['--json']);
    const report = JSON.parse(io.out()) as DoctorReport;
    const context = report.checks.find((item) => item.id === 'context');
    expect(context?.status).toBe('fail');
    expect(context?.detail).toMatch(/read 4,096 of the about \d,\d{3} prompt tokens sent/);
    expect(context?.detail).toContain('OLLAMA_CONTEXT_LENGTH=');
    expect(code).toBe(1);
  });
});
