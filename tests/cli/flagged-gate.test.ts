import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { DataError } from '../../src/errors.js';
import { defaultLimits, limitsForPrompt } from '../../src/guardrails/guardrails.js';
import type { AnalysisResult, Decision } from '../../src/result/types.js';
import type { MarketData, MarketSnapshot } from '../../src/market/types.js';
import { ScriptedModel, type ScriptedStep } from '../../src/testing/scripted-model.js';
import { captureIo } from '../support/cli.js';
import { bad, sane } from '../support/guardrail-battery.js';
import { fakeMarket } from '../support/market.js';
import { deskIds } from '../../agents/index.js';
import { decisionFixture, planFor } from '../../src/testing/index.js';

/**
 * The promise end to end, through runCli as a user runs it: an `error` finding never
 * exits 0, whatever else went wrong; the README's CI gate (`jq -e '.status == "ok"'`)
 * stops a flagged run; the Director is told the limits before it decides.
 */

const plan = planFor(deskIds, { thesis: 'Acme trends up.' });
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const search = { search: async () => [] };
const now = () => new Date('2026-11-28T12:00:00Z');
const desks = {
  quant: [{ text: 'Quant.' }],
  risk: [{ text: 'Risk.' }],
  execution: [{ text: 'Execution.' }],
  sentiment: [{ text: 'Sentiment.' }],
};

interface Run {
  code: number;
  result: AnalysisResult;
  stdout: string;
  model: ScriptedModel;
}

async function analyzeCli(
  director: ScriptedStep[],
  market: MarketData,
  options: { flags?: string[]; desks?: Record<string, ScriptedStep[]> } = {},
): Promise<Run> {
  const model = new ScriptedModel({
    director: [{ text: JSON.stringify(plan) }, ...director],
    ...desks,
    ...options.desks,
  });
  const io = captureIo();
  io.env.OPENAI_API_KEY = 'sk-test-not-real';
  const code = await runCli(['analyze', 'ACME', '--json', '--no-save', ...(options.flags ?? [])], io, {
    now,
    model,
    market,
    search,
  });
  return { code, result: JSON.parse(io.out()) as AnalysisResult, stdout: io.out(), model };
}

/** The Director decides `decision` and, asked to review, sends it again. */
const stubborn = (decision: Decision): ScriptedStep[] => [
  { text: JSON.stringify(decision) },
  { text: JSON.stringify(decision) },
];

const unreachable: MarketData = {
  async snapshot() {
    throw new DataError('Yahoo Finance is unreachable', 'unreachable');
  },
};

/** A BUY whose stop sits above its entry: an error with or without market data. */
const stopAbove: Decision = decisionFixture({
  conviction: 70,
  timeHorizon: '4 weeks',
  positionSizePct: 5,
  stopLoss: 101,
  rationale: 'r',
  keyRisks: ['k'],
});
const fixed: Decision = { ...stopAbove, stopLoss: 94 };

describe('an error finding never exits 0', () => {
  const errors = bad.filter(
    (entry) => entry.severity === 'error' && entry.market !== null && entry.rule !== 'invalid-decision',
  );
  // Only what JSON can carry: a model cannot send Infinity (it arrives as null, a missing level).
  const invalid = bad.filter(
    (entry) =>
      entry.rule === 'invalid-decision' &&
      isDeepStrictEqual(JSON.parse(JSON.stringify(entry.decision)), entry.decision),
  );
  it.each(errors)('$name: flagged, exit 4, after a review that changes nothing', async ({ decision, market }) => {
    const run = await analyzeCli(stubborn(decision), fakeMarket(market as MarketSnapshot));
    run.model.assertComplete();
    expect(run.code).toBe(4);
    expect(run.result.status).toBe('flagged');
    expect(run.result.decisionHistory).toHaveLength(2);
  });

  it.each(invalid)(
    '$name from the model: the schema rejects it twice, no decision stands, the run fails (exit 1)',
    async ({ decision, market }) => {
      const run = await analyzeCli(stubborn(decision), fakeMarket(market as MarketSnapshot));
      run.model.assertComplete();
      expect([run.code, run.result.status, run.result.decision]).toEqual([1, 'failed', null]);
    },
  );

  it.each(sane)('$name: ok, exit 0, no review', async ({ decision, market }) => {
    const run = await analyzeCli([{ text: JSON.stringify(decision) }], fakeMarket(market));
    run.model.assertComplete();
    expect(run.code).toBe(0);
    expect(run.result.status).toBe('ok');
  });

  it('degraded and flagged is flagged: no market data and a BUY stop above its entry exits 4', async () => {
    const run = await analyzeCli(stubborn(stopAbove), unreachable);
    expect(run.result.market).toBeNull();
    expect(run.result.guardrails.map((finding) => `${finding.severity}:${finding.rule}`)).toContain('error:stop-side');
    expect([run.code, run.result.status]).toEqual([4, 'flagged']);
  });

  it('degraded and flagged is flagged: a failed desk and a broken decision exits 4; the failed desk alone exits 3', async () => {
    const failedRisk = { risk: [{ error: new Error('HTTP 500 from the model') }] };
    const broken = await analyzeCli(stubborn(stopAbove), fakeMarket(), { desks: failedRisk });
    expect(broken.result.reports.find((report) => report.agent === 'risk')?.status).toBe('failed');
    expect([broken.code, broken.result.status]).toEqual([4, 'flagged']);
    const sound = await analyzeCli([{ text: JSON.stringify(fixed) }], fakeMarket(), { desks: failedRisk });
    expect([sound.code, sound.result.status]).toEqual([3, 'degraded']);
  });

  it('several tickers: one flagged among clean ones exits 4, and its entry says flagged', async () => {
    const twice = Object.fromEntries(Object.entries(desks).map(([desk, steps]) => [desk, [...steps, ...steps]]));
    const model = new ScriptedModel({
      ...twice,
      director: [
        { text: JSON.stringify(plan) },
        { text: JSON.stringify(fixed) },
        { text: JSON.stringify(plan) },
        ...stubborn(stopAbove),
      ],
    });
    const io = captureIo();
    io.env.OPENAI_API_KEY = 'sk-test-not-real';
    const code = await runCli(['analyze', 'ACME', 'GLBX', '--concurrency', '1', '--json', '--no-save'], io, {
      now,
      model,
      market: fakeMarket(),
      search,
    });
    model.assertComplete();
    expect(code, io.err()).toBe(4);
    expect(io.out()).toMatch(/"status": ?"flagged"/);
    expect(io.out()).toMatch(/"status": ?"ok"/);
  });

  it('a revision that passes exits 0 with both decisions kept; warnings alone never flag', async () => {
    const run = await analyzeCli([{ text: JSON.stringify(stopAbove) }, { text: JSON.stringify(fixed) }], fakeMarket());
    expect([run.code, run.result.status]).toEqual([0, 'ok']);
    expect(run.result.decisionHistory?.map((entry) => entry.decision)).toEqual([stopAbove, fixed]);
    const doubtful = await analyzeCli([{ text: JSON.stringify({ ...fixed, takeProfit: null }) }], fakeMarket());
    expect(doubtful.result.guardrails.map((finding) => finding.severity)).toContain('warning');
    expect([doubtful.code, doubtful.result.status]).toEqual([0, 'ok']);
  });
});

const jq = spawnSync('jq', ['--version'], { encoding: 'utf8' });
const jqMissing = jq.error !== undefined || jq.status !== 0;

/** The CI example's own jq filter, read from the docs the README links (docs/recording.md), so the test follows the docs. */
function documentedGate(): string {
  const text = ['README.md', 'docs/recording.md']
    .map((file) => readFileSync(path.join(repoRoot, file), 'utf8'))
    .join('\n');
  const filter = /jq -e '([^']+)'/.exec(text)?.[1];
  if (filter === undefined) throw new Error("no `jq -e '…'` CI gate in README.md or docs/recording.md");
  return filter;
}

describe("the README's CI gate", () => {
  const filter = documentedGate();
  const gate = (json: string) => spawnSync('jq', ['-e', filter], { input: json, encoding: 'utf8' }).status;

  it('is the documented status check', () => {
    expect(filter).toMatch(/\.status == "ok"/);
  });

  it.skipIf(jqMissing)('stops a flagged run and lets a clean one through (real jq)', async () => {
    const flagged = await analyzeCli(stubborn(stopAbove), fakeMarket());
    expect(flagged.result.status).toBe('flagged');
    expect(gate(flagged.stdout)).toBe(1);
    const clean = await analyzeCli([{ text: JSON.stringify(fixed) }], fakeMarket());
    expect(gate(clean.stdout)).toBe(0);
  });

  it.runIf(jqMissing)('is skipped: jq is not installed (apt-get install -y jq)', () => {
    expect(jqMissing).toBe(true);
  });
});

describe('the Director is told the limits it is checked against', () => {
  const userOf = (request: { messages: Array<{ role: string; content: unknown }> }) =>
    request.messages.filter((message) => message.role === 'user').at(-1)?.content as string;

  it("the decide task lists the run's limits, command-line overrides included, and the review continues that conversation", async () => {
    const run = await analyzeCli([{ text: JSON.stringify(stopAbove) }, { text: JSON.stringify(fixed) }], fakeMarket(), {
      flags: ['--max-position', '7', '--max-risk', '1.5', '--min-reward-risk', '1.8'],
    });
    const [, decide, review] = run.model.requestsOf('director');
    const task = userOf(decide!);
    const limits = limitsForPrompt({ ...defaultLimits, maxPositionPct: 7, maxRiskPct: 1.5, minRewardRisk: 1.8 });
    expect(task).toContain(limits);
    expect(task).toContain('positionSizePct at most 7;');
    expect(task).toContain('at most 1.5 % of the portfolio');
    expect(task).toContain('reward/risk (target distance ÷ stop distance) at least 1.8');
    expect(task).toContain('stop at least 0.25 ATR and at most 6 ATR from the entry');
    // The review pass sees the same task (and so the limits) and the findings with their numbers.
    expect(review!.messages).toEqual(expect.arrayContaining(decide!.messages));
    expect(userOf(review!)).toMatch(/- stop-side: stop-loss 101 is at or above the entry 99 for a BUY/);
  });

  it('the decide task with the default limits names every one of them', () => {
    const text = limitsForPrompt(defaultLimits);
    for (const value of [
      'at most 10;',
      'at most 2 %',
      'at least 50 at the maximum size',
      'within 3 ATR',
      'at least 0.25 ATR and at most 6 ATR',
      'at least 1',
      '3 ATR × √',
      'at most 25 % beyond',
      '2.5 % of the price',
    ]) {
      expect(text).toContain(value);
    }
  });
});
