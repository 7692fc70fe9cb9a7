// `analyze --samples 3` with the real chat client over loopback: the seed on the wire, exit 4 when unstable.
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import type { AnalysisResult } from '../../src/result/types.js';
import { captureIo } from '../support/cli.js';
import { agentOf, decision, fixedNow, goodAnswer, plan, requestsOf, schemaOf } from '../support/faults.js';
import { fakeMarket } from '../support/market.js';
import { startOpenAIServer, textAnswer, type OpenAIServer, type RecordedRequest } from '../support/openai-server.js';

let server: OpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const sell = { ...decision, action: 'SELL', entry: 101, stopLoss: 106, takeProfit: 90 };
const hold = { ...decision, action: 'HOLD', positionSizePct: 0, entry: null, stopLoss: null, takeProfit: null };

/** The Director's decisions in the order its decision requests arrive. */
function directorAnswering(decisions: object[]) {
  let next = 0;
  return (body: any, _index: number, request: RecordedRequest) => {
    const agent = agentOf(request);
    if (agent !== 'director') return goodAnswer(agent, body);
    if (schemaOf(body) === 'plan') return textAnswer(JSON.stringify(plan));
    return textAnswer(JSON.stringify(decisions[next++ % decisions.length]));
  };
}

async function analyzeSampled(decisions: object[], args: string[]) {
  server = await startOpenAIServer(directorAnswering(decisions));
  const io = captureIo();
  const env = { ...io.env, OPENAI_API_KEY: 'sk-test-samples-00000000', OPENAI_BASE_URL: server.url };
  const code = await runCli(
    ['analyze', 'ACME', '--json', '--no-save', '--search', 'none', ...args],
    { ...io, env },
    {
      market: fakeMarket(),
      search: null,
      now: fixedNow,
    },
  );
  return { code, io, server };
}

const decisionBodies = (server: OpenAIServer) =>
  requestsOf(server, 'director')
    .filter((request) => schemaOf(request.body) === 'decision')
    .map((request) => request.body);

describe('analyze --samples over loopback', () => {
  it('BUY, SELL, HOLD: unstable-decision, flagged, exit 4; each decision request carries its seed', async () => {
    const { code, io, server } = await analyzeSampled([decision, sell, hold], ['--samples', '3']);
    expect(code, io.err()).toBe(4);
    const result = JSON.parse(io.out()) as AnalysisResult;
    expect(result.status).toBe('flagged');
    expect(result.guardrails.map((finding) => finding.rule)).toContain('unstable-decision');
    expect(decisionBodies(server).map((body) => body.seed)).toEqual([1, 2, 3]);
    expect(result.options).toMatchObject({ samples: 3, minAgreement: 0.6 });
  });

  it('BUY, BUY, SELL passes at the default --min-agreement and fails at 0.7', async () => {
    const passing = await analyzeSampled([decision, decision, sell], ['--samples', '3']);
    expect(passing.code, passing.io.err()).toBe(0);
    expect((JSON.parse(passing.io.out()) as AnalysisResult).stability?.agreement).toBeCloseTo(2 / 3, 9);
    await server?.close();
    const strict = await analyzeSampled([decision, decision, sell], ['--samples', '3', '--min-agreement', '0.7']);
    expect(strict.code).toBe(4);
  });

  it('one decision (the default) sends no seed; bad values and --samples with --agent are usage errors', async () => {
    const { code, server } = await analyzeSampled([decision], []);
    expect(code).toBe(0);
    expect(decisionBodies(server).map((body) => 'seed' in body)).toEqual([false]);
    for (const args of [
      ['--samples', '0'],
      ['--samples', 'two'],
      ['--samples', '3', '--min-agreement', '1.5'],
      ['--min-agreement', '0.5'],
      ['--samples', '3', '--agent', 'quant'],
    ]) {
      const io = captureIo();
      expect(
        await runCli(['analyze', 'ACME', ...args], io, { market: fakeMarket(), search: null }),
        args.join(' '),
      ).toBe(2);
    }
  });
});
