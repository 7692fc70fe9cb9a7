import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { DataError, ModelError } from '../../src/errors.js';
import type { AnalysisResult } from '../../src/result/types.js';
import { ScriptedModel, type ScriptedStep } from '../../src/testing/scripted-model.js';
import type { SearchProvider } from '../../src/tools/exa-search.js';
import { captureIo } from '../support/cli.js';
import { longBeforeTheHangEnds } from '../support/hang.js';
import { fakeMarket } from '../support/market.js';
import { deskIds } from '../../agents/index.js';
import { decisionFixture, planFor } from '../../src/testing/index.js';

const plan = planFor(deskIds, { thesis: 'Thesis.' });
const decision = decisionFixture({ rationale: 'Because.', keyRisks: ['earnings'] });
const search: SearchProvider = { search: async () => [] };

function fullScript(overrides: Record<string, ScriptedStep[]> = {}): Record<string, ScriptedStep[]> {
  return {
    director: [{ text: JSON.stringify(plan) }, { text: JSON.stringify(decision) }],
    quant: [{ text: 'Quant report.' }],
    risk: [{ text: 'Risk report.' }],
    execution: [{ text: 'Execution report.' }],
    sentiment: [{ text: 'Sentiment report.' }],
    ...overrides,
  };
}

/** Answers the Director by what it asks for, whatever order two tickers' calls arrive in. */
const directorBySchema: ScriptedStep = (request) => ({
  text: JSON.stringify(request.responseFormat?.json_schema.name === 'plan' ? plan : decision),
});

const now = () => new Date('2026-11-28T12:00:00Z');

describe('autohedge analyze (in-process)', () => {
  it('prints the AnalysisResult JSON only on stdout, progress lines on stderr, exit 0', async () => {
    const io = captureIo();
    const model = new ScriptedModel(fullScript());
    const code = await runCli(['analyze', 'acme', '--json'], io, { model, market: fakeMarket(), search, now });
    expect(code).toBe(0);
    const result = JSON.parse(io.out()) as AnalysisResult;
    expect(result).toMatchObject({
      ticker: 'ACME',
      status: 'ok',
      mode: 'full',
      asOf: '2026-11-28T12:00:00.000Z',
      decision,
    });
    expect(result.reports.map((report) => report.agent)).toEqual(['quant', 'risk', 'execution', 'sentiment']);
    expect(io.err()).toContain('[ACME] quant: running (gpt-4.1)');
    expect(io.err()).toContain('[ACME] director: done');
    model.assertComplete();
  });

  it('saves the run under $AUTOHEDGE_HOME/runs unless --no-save', async () => {
    const io = captureIo();
    await runCli(['analyze', 'ACME', '--json'], io, {
      model: new ScriptedModel(fullScript()),
      market: fakeMarket(),
      search,
      now,
    });
    const runs = readdirSync(join(io.env.AUTOHEDGE_HOME as string, 'runs'));
    expect(runs).toHaveLength(1);
    expect(readdirSync(join(io.env.AUTOHEDGE_HOME as string, 'runs', runs[0]!)).sort()).toEqual([
      'chart.svg',
      'report.html',
      'report.md',
      'result.json',
      'transcript.jsonl',
    ]);

    const quiet = captureIo();
    await runCli(['analyze', 'ACME', '--json', '--no-save', '--quiet'], quiet, {
      model: new ScriptedModel(fullScript()),
      market: fakeMarket(),
      search,
      now,
    });
    expect(existsSync(join(quiet.env.AUTOHEDGE_HOME as string, 'runs'))).toBe(false);
    expect(quiet.err()).toBe('');
  });

  it('exit 3 when a desk fails (degraded), with the decision still made', async () => {
    const io = captureIo();
    const model = new ScriptedModel(
      fullScript({ quant: [{ error: new ModelError('OpenAI service error (503)', 'server') }] }),
    );
    const code = await runCli(['analyze', 'ACME', '--json', '--no-save'], io, {
      model,
      market: fakeMarket(),
      search,
      now,
    });
    expect(code).toBe(3);
    const result = JSON.parse(io.out()) as AnalysisResult;
    expect(result.status).toBe('degraded');
    expect(result.decision?.action).toBe('BUY');
    expect(io.err()).toContain('[ACME] quant: failed — OpenAI service error (503)');
  });

  it('exit 1 when no decision can be made', async () => {
    const io = captureIo();
    const model = new ScriptedModel(
      fullScript({ director: [{ text: JSON.stringify(plan) }, { text: 'nope' }, { text: 'still nope' }] }),
    );
    const code = await runCli(['analyze', 'ACME', '--json', '--no-save'], io, {
      model,
      market: fakeMarket(),
      search,
      now,
    });
    expect(code).toBe(1);
    expect((JSON.parse(io.out()) as AnalysisResult).decision).toBeNull();
  });

  it('exit 2 for a malformed ticker, before any request', async () => {
    const io = captureIo();
    const market = fakeMarket();
    const code = await runCli(['analyze', 'QQQ,'], io, { model: new ScriptedModel([]), market, search, now });
    expect(code).toBe(2);
    expect(io.err()).toMatch(/^autohedge: invalid ticker 'QQQ,'/);
    expect(market.calls).toEqual([]);
    expect(io.out()).toBe('');
  });

  it('exit 2 for an unknown ticker, with one line', async () => {
    const io = captureIo();
    const market = {
      snapshot: async () => Promise.reject(new DataError("unknown ticker 'NONEXIST'", 'unknown-ticker')),
    };
    const code = await runCli(['analyze', 'NONEXIST'], io, { model: new ScriptedModel([]), market, search, now });
    expect(code).toBe(2);
    expect(io.err().trim()).toBe("autohedge: unknown ticker 'NONEXIST'");
  });

  it('exit 2 for an unknown agent id and bad numeric options', async () => {
    for (const argv of [
      ['analyze', 'ACME', '--agent', 'oracle'],
      ['analyze', 'ACME', '--concurrency', '0'],
      ['analyze', 'ACME', '--concurrency', 'two'],
      ['analyze', 'ACME', '--max-position', '-5'],
      ['analyze', 'ACME', '--max-cost', 'abc'],
      ['analyze', 'ACME', '--frobnicate'],
    ]) {
      const io = captureIo();
      const code = await runCli(argv, io, { model: new ScriptedModel([]), market: fakeMarket(), search, now });
      expect(code, argv.join(' ')).toBe(2);
      expect(io.err(), argv.join(' ')).toMatch(/^autohedge: /);
    }
    const io = captureIo();
    await runCli(['analyze', 'ACME', '--agent', 'oracle'], io, {});
    expect(io.err().trim()).toBe("autohedge: unknown agent 'oracle' (choose from quant, risk, execution, sentiment)");
  });

  it('exit 2 with a pointer to --demo when no key and no base URL are set', async () => {
    const io = captureIo();
    const code = await runCli(['analyze', 'ACME'], io, { market: fakeMarket(), search, now });
    expect(code).toBe(2);
    expect(io.err()).toContain('OPENAI_API_KEY is not set');
    expect(io.err()).toContain('autohedge analyze ACME --demo');
  });

  it('exit 2 when .env exists but cannot be read', async () => {
    const io = captureIo();
    // A directory named .env cannot be read as a file.
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(io.cwd, '.env'));
    const code = await runCli(['analyze', 'ACME'], io, {
      model: new ScriptedModel([]),
      market: fakeMarket(),
      search,
      now,
    });
    expect(code).toBe(2);
    expect(io.err()).toMatch(/^autohedge: cannot read .*\.env: /);
  });

  it('loads .env from the working directory; the shell wins', async () => {
    const io = captureIo();
    writeFileSync(join(io.cwd, '.env'), 'AUTOHEDGE_MODEL=from-dotenv\nAUTOHEDGE_MODEL_RISK="risk-model"\n');
    const code = await runCli(
      ['agents', '--json'],
      { ...io, env: { ...io.env, AUTOHEDGE_MODEL_QUANT: 'shell-model' } },
      {},
    );
    expect(code).toBe(0);
    const agents = JSON.parse(io.out()) as Array<{ id: string; model: string }>;
    expect(Object.fromEntries(agents.map((agent) => [agent.id, agent.model]))).toEqual({
      director: 'from-dotenv',
      quant: 'shell-model',
      risk: 'risk-model',
      execution: 'from-dotenv',
      sentiment: 'from-dotenv',
    });
  });

  /** The three desks of the interrupted run below answer only after a minute. */
  const desksAnswerAfterMs = 60_000;
  it('exit 130 when interrupted during the fan-out', async () => {
    const controller = new AbortController();
    const io = captureIo({ signal: controller.signal });
    const model = new ScriptedModel(
      fullScript({
        quant: [
          (request) => (
            setTimeout(() => controller.abort(new Error('interrupted')), 10),
            { text: 'slow', delayMs: desksAnswerAfterMs }
          ),
        ],
        risk: [{ text: 'slow', delayMs: desksAnswerAfterMs }],
        execution: [{ text: 'slow', delayMs: desksAnswerAfterMs }],
        sentiment: [{ text: 'done quickly' }],
      }),
    );
    const started = Date.now();
    const code = await runCli(['analyze', 'ACME', '--json'], io, { model, market: fakeMarket(), search, now });
    expect(code).toBe(130);
    // The interruption, not the desks' answers, ended the run.
    expect(Date.now() - started).toBeLessThan(longBeforeTheHangEnds(desksAnswerAfterMs));
    const result = JSON.parse(io.out()) as AnalysisResult;
    expect(result.status).toBe('interrupted');
    expect(result.reports.find((report) => report.agent === 'sentiment')?.status).toBe('ok');
    // What finished is saved, with its status.
    const runs = readdirSync(join(io.env.AUTOHEDGE_HOME as string, 'runs'));
    expect(runs).toHaveLength(1);
  });

  it('analyses several tickers into a JSON array, in the order given', async () => {
    const io = captureIo();
    const model = new ScriptedModel({
      director: Array.from({ length: 4 }, () => directorBySchema),
      quant: [{ text: 'q' }, { text: 'q' }],
      risk: [{ text: 'r' }, { text: 'r' }],
      execution: [{ text: 'e' }, { text: 'e' }],
      sentiment: [{ text: 's' }, { text: 's' }],
    });
    const code = await runCli(['analyze', 'ACME', 'GLBX', '--json', '--no-save'], io, {
      model,
      market: fakeMarket(),
      search,
      now,
    });
    expect(code).toBe(0);
    const results = JSON.parse(io.out()) as AnalysisResult[];
    expect(results.map((result) => result.ticker)).toEqual(['ACME', 'GLBX']);
  });
});

describe('autohedge analyze --max-cost', () => {
  it('is a usage error when a model has no known price', async () => {
    const io = captureIo();
    const model = new ScriptedModel([]);
    const code = await runCli(['analyze', 'ACME', '--max-cost', '0.5', '--model', 'my-local-llama'], io, {
      model,
      market: fakeMarket(),
      search,
      now,
    });
    expect(code).toBe(2);
    expect(io.err().trim()).toBe(
      "autohedge: --max-cost needs a price for every model, and none is known for 'my-local-llama': add it to AUTOHEDGE_PRICES (inline JSON or a JSON file's path)",
    );
    expect(model.requests).toHaveLength(0);
  });

  it('ends degraded (exit 3) when the cap stops the run before a call', async () => {
    const io = captureIo();
    const model = new ScriptedModel(fullScript());
    const code = await runCli(['analyze', 'ACME', '--max-cost', '0.0001', '--json', '--no-save'], io, {
      model,
      market: fakeMarket(),
      search,
      now,
    });
    expect(code).toBe(3);
    const result = JSON.parse(io.out()) as AnalysisResult;
    expect(result.status).toBe('degraded');
    expect(result.warnings.some((warning) => warning.startsWith('--max-cost $0.0001 reached'))).toBe(true);
    expect(model.requests).toHaveLength(0);
  });
});
