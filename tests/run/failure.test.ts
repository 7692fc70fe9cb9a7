import { describe, expect, it } from 'vitest';
import { failureOf } from '../../src/agent/failure.js';
import type { AgentFailure } from '../../src/agent/types.js';
import { runCli } from '../../src/cli/run-cli.js';
import { ModelError, type ModelErrorKind } from '../../src/errors.js';
import { capReached, runFailure, type FailureFacts } from '../../src/pipeline/run-failure.js';
import type { AnalysisResult } from '../../src/result/types.js';
import { captureIo } from '../support/cli.js';
import { fakeMarket } from '../support/market.js';
import { errorReply } from '../support/openai-server.js';
import { startAnalysisServer } from '../queue/support/analysis-server.js';

describe('ModelError.retryable: decided once, from the status', () => {
  it.each<[ModelErrorKind, number | null, boolean]>([
    ['rate-limited', 429, true],
    ['quota', 429, false],
    ['server', 500, true],
    ['server', 503, true],
    ['bad-request', 408, true],
    ['bad-request', 409, true],
    ['authentication', 401, false],
    ['authentication', 403, false],
    ['model-not-found', 404, false],
    ['bad-request', 400, false],
    ['connection', null, true],
    ['timeout', null, true],
    ['invalid-response', null, true],
    ['server', null, true],
    ['aborted', null, false],
    ['refusal', null, false],
  ])('%s (%s) → %s', (kind, status, retryable) => {
    expect(new ModelError('x', kind, status).retryable).toBe(retryable);
  });
});

const model = (kind: ModelErrorKind, status: number | null): AgentFailure => {
  const error = new ModelError(`${kind} ${status}`, kind, status);
  return { kind: 'model', message: error.message, model: { kind, status, retryable: error.retryable } };
};
const facts = (overrides: Partial<FailureFacts>): FailureFacts => ({
  status: 'ok',
  stage: 'decision',
  market: null,
  director: null,
  desks: [],
  review: null,
  error: null,
  ...overrides,
});

describe('failureOf: a model error as a typed failure', () => {
  const rateLimit = (retryAfterMs?: number) => ({
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    requests: {},
    tokens: {},
  });
  it("keeps the server's retry-after of a 429, found through a wrapping error", () => {
    const limited = new ModelError('429', 'rate-limited', 429, { rateLimit: rateLimit(2_500) });
    expect(failureOf(new Error('Director plan failed', { cause: limited }), {})).toEqual({
      kind: 'model',
      message: 'Director plan failed',
      model: { kind: 'rate-limited', status: 429, retryable: true, retryAfterMs: 2_500 },
    });
  });
  it('names none when the server named none', () => {
    const limited = new ModelError('429', 'rate-limited', 429, { rateLimit: rateLimit() });
    expect(failureOf(limited, {}).model).toEqual({ kind: 'rate-limited', status: 429, retryable: true });
  });
});

describe('runFailure(facts): one rule, beside runStatus', () => {
  it.each<[string, Partial<FailureFacts>, ReturnType<typeof runFailure>]>([
    ['a whole run has none', {}, undefined],
    [
      'an interruption names the stage it cut short',
      { status: 'interrupted', stage: 'desks', error: 'interrupted' },
      { stage: 'desks', kind: 'interrupted', message: 'interrupted', retryable: false },
    ],
    [
      "the Director's 429 at the plan is retryable",
      {
        status: 'failed',
        director: { stage: 'plan', failure: model('rate-limited', 429) },
        error: 'Director plan failed: x',
      },
      {
        stage: 'plan',
        kind: 'model',
        message: 'Director plan failed: x',
        retryable: true,
        model: { kind: 'rate-limited', status: 429 },
      },
    ],
    [
      "a desk's 429 keeps the server's retry-after (what the queue pauses for)",
      {
        status: 'degraded',
        desks: [{ ...model('rate-limited', 429), model: { ...model('rate-limited', 429).model!, retryAfterMs: 750 } }],
      },
      {
        stage: 'desks',
        kind: 'model',
        message: 'rate-limited 429',
        retryable: true,
        model: { kind: 'rate-limited', status: 429, retryAfterMs: 750 },
      },
    ],
    [
      "the Director's 401 is not",
      { status: 'failed', director: { stage: 'decision', failure: model('authentication', 401) }, error: 'e' },
      {
        stage: 'decision',
        kind: 'model',
        message: 'e',
        retryable: false,
        model: { kind: 'authentication', status: 401 },
      },
    ],
    [
      'among failed desks the cap comes first: it is why the rest stopped',
      { status: 'degraded', desks: [model('server', 503), { kind: 'budget', message: 'cap' }] },
      { stage: 'desks', kind: 'budget', message: 'cap', retryable: false },
    ],
    [
      'then a failure no retry can pass',
      { status: 'failed', desks: [model('server', 503), model('authentication', 401)], error: 'every desk failed' },
      {
        stage: 'desks',
        kind: 'model',
        message: 'every desk failed',
        retryable: false,
        model: { kind: 'authentication', status: 401 },
      },
    ],
    [
      "an agent's own time limit may pass next time",
      { status: 'degraded', desks: [{ kind: 'timeout', message: 'timed out after 1 s' }] },
      { stage: 'desks', kind: 'timeout', message: 'timed out after 1 s', retryable: true },
    ],
    [
      'missing market data',
      { status: 'degraded', market: 'market data missing: unreachable' },
      { stage: 'market', kind: 'market', message: 'market data missing: unreachable', retryable: true },
    ],
    [
      'a failed review last',
      { status: 'flagged', review: { kind: 'replay-miss', message: 'no review exchange' } },
      { stage: 'decision', kind: 'replay-miss', message: 'no review exchange', retryable: false },
    ],
  ])('%s', (_name, given, expected) => {
    expect(runFailure(facts(given))).toEqual(expected);
  });

  it('capReached reads the result: its failure or any report stopped by the cap', () => {
    const report = (failure: AgentFailure | null) => ({ failure });
    expect(capReached({ reports: [report(null), report({ kind: 'budget', message: 'cap' })] })).toBe(true);
    expect(
      capReached({ failure: { stage: 'plan', kind: 'budget', message: 'cap', retryable: false }, reports: [] }),
    ).toBe(true);
    expect(capReached({ reports: [report(model('server', 503))] })).toBe(false);
  });
});

describe('the typed failure in a saved run, from real HTTP errors', () => {
  const analyzeAgainst = async (status: 401 | 429) => {
    const server = await startAnalysisServer(({ agent }) =>
      agent === 'director'
        ? errorReply(status, { message: `refused ${status}`, type: 'requests' }, { 'retry-after-ms': '1' })
        : undefined,
    );
    try {
      const io = captureIo();
      io.env.OPENAI_API_KEY = 'sk-failure-test-key-0000';
      await runCli(['analyze', 'FAIL', '--base-url', server.url, '--search', 'none', '--json', '--quiet'], io, {
        market: fakeMarket(),
      });
      return JSON.parse(io.out()) as AnalysisResult;
    } finally {
      await server.close();
    }
  };

  it('a 429 that outlasts the retries marks failure.retryable true; a 401 false', async () => {
    const limited = await analyzeAgainst(429);
    expect(limited.status).toBe('failed');
    expect(limited.failure).toMatchObject({
      stage: 'plan',
      kind: 'model',
      retryable: true,
      // The server's retry-after-ms, carried by the typed ModelError into the saved failure.
      model: { kind: 'rate-limited', status: 429, retryAfterMs: 1 },
    });
    const denied = await analyzeAgainst(401);
    expect(denied.failure).toMatchObject({
      stage: 'plan',
      kind: 'model',
      retryable: false,
      model: { kind: 'authentication', status: 401 },
    });
  });
});
