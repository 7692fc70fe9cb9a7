// `autohedge probe`: a named and a blind run over one market fetch, recorded to a cassette and replayed.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import type { AnalysisResult } from '../../src/result/types.js';
import type { ProbeComparison } from '../../src/probe/compare.js';
import { namedSnapshot } from '../support/blind.js';
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
const close = named.indicators.lastClose!;
const atr = named.indicators.atr14!;
const plan = planFor(deskIds, { thesis: 'Strong trend near the highs.' });
const order = (action: 'BUY' | 'SELL', entry: number, stop: number, target: number) =>
  decisionFixture({
    action,
    conviction: 60,
    positionSizePct: 3,
    entry,
    stopLoss: stop,
    takeProfit: target,
    rationale: 'From the levels.',
    keyRisks: ['reversal', 'volatility'],
  });
const cents = (value: number) => Math.round(value * 100) / 100;

/** Named: a BUY just under the close. Blind: the same BUY in blind units, or a SELL when `blindSells`. */
function answering(blindSells: boolean) {
  return (body: any, _index: number, request: RecordedRequest) => {
    const agent = agentOf(request);
    const blind = JSON.stringify(body.messages).includes('Company A');
    if (agent !== 'director') return textAnswer(`${agent}: ${blind ? 'blind' : 'named'} read.`);
    if (schemaOf(body) === 'plan') return textAnswer(JSON.stringify(plan));
    if (!blind)
      return textAnswer(
        JSON.stringify(order('BUY', cents(close - 0.5 * atr), cents(close - 3 * atr), cents(close + 4 * atr))),
      );
    const blindAtr = (atr / close) * 100;
    return textAnswer(
      JSON.stringify(
        blindSells
          ? order('SELL', cents(100 + 0.5 * blindAtr), cents(100 + 3 * blindAtr), cents(100 - 4 * blindAtr))
          : order('BUY', cents(100 - 0.6 * blindAtr), cents(100 - 3 * blindAtr), cents(100 + 4 * blindAtr)),
      ),
    );
  };
}

async function recordProbe(blindSells: boolean, cassette: string) {
  server = await startOpenAIServer(answering(blindSells));
  const io = captureIo();
  const env = { ...io.env, OPENAI_API_KEY: 'sk-test-probe-00000000000', OPENAI_BASE_URL: server.url };
  const market = fakeMarket(named);
  const code = await runCli(
    ['probe', 'NVDQ', '--json', '--record', cassette],
    { ...io, env },
    { market, now: fixedNow },
  );
  await server.close();
  return { code, io, market, requests: server.requests };
}

describe('autohedge probe', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'autohedge-probe-'));

  it('records both runs over one market fetch; the replay prints both calls and the verdict, with nothing listening', async () => {
    const cassette = join(scratch, 'consistent.cassette.json');
    const recorded = await recordProbe(false, cassette);
    expect(recorded.code, recorded.io.err()).toBe(0);
    expect(recorded.market.calls).toEqual(['NVDQ']);
    expect(recorded.requests).toHaveLength(12); // plan, 4 desks, decision — twice
    const comparison = JSON.parse(recorded.io.out()) as ProbeComparison;
    expect(comparison).toMatchObject({ ticker: 'NVDQ', verdict: 'consistent', sameAction: true });
    expect(comparison.blind).toMatchObject({ alias: 'Company A', action: 'BUY' });
    expect(comparison.levelDifferenceAtr.entry).toBeCloseTo(0.1, 1);
    // Both runs are saved, the blind one marked.
    const home = recorded.io.env.AUTOHEDGE_HOME as string;
    const saved = readdirSync(join(home, 'runs')).map(
      (run) => JSON.parse(readFileSync(join(home, 'runs', run, 'result.json'), 'utf8')) as AnalysisResult,
    );
    expect(saved.map((result) => result.blind?.alias ?? 'named').sort()).toEqual(['Company A', 'named']);

    const replay = captureIo();
    const market = fakeMarket(named);
    const code = await runCli(['probe', 'NVDQ', '--replay', cassette, '--no-save'], replay, { market });
    expect(code, replay.err()).toBe(0);
    const text = replay.out();
    expect(text).toContain('PROBE NVDQ as of 2026-11-28');
    expect(text).toMatch(/action\s+BUY\s+BUY/);
    expect(text).toMatch(/entry\s+[\d.]+\s+[\d.]+\s+0\.10 ATR/);
    expect(text).toContain('verdict: consistent');
  });

  it('a blind SELL against a named BUY: differs, the levels apart in ATR', async () => {
    const cassette = join(scratch, 'differs.cassette.json');
    const recorded = await recordProbe(true, cassette);
    expect(recorded.code, recorded.io.err()).toBe(0);
    const replay = captureIo();
    expect(
      await runCli(['probe', 'NVDQ', '--replay', cassette, '--json', '--no-save'], replay, {
        market: fakeMarket(named),
      }),
    ).toBe(0);
    const comparison = JSON.parse(replay.out()) as ProbeComparison;
    expect(comparison).toMatchObject({
      verdict: 'differs',
      sameAction: false,
      named: { action: 'BUY' },
      blind: { action: 'SELL' },
    });
    expect(comparison.levelDifferenceAtr.entry).toBeCloseTo(1, 1);
    expect(comparison.levelDifferenceAtr.takeProfit).toBeCloseTo(8, 1);
  });

  it('--as-of runs both as of that close; an explicit search or a bad day is refused before any request', async () => {
    server = await startOpenAIServer(answering(false));
    const io = captureIo();
    const env = { ...io.env, OPENAI_API_KEY: 'sk-test-probe-00000000000', OPENAI_BASE_URL: server.url };
    const code = await runCli(
      ['probe', 'NVDQ', '--as-of', '2026-11-20', '--json', '--no-save'],
      { ...io, env },
      {
        market: fakeMarket(named),
        now: fixedNow,
      },
    );
    expect(code, io.err()).toBe(0);
    expect((JSON.parse(io.out()) as ProbeComparison).asOf).toBe('2026-11-20T21:00:00.000Z');
    const bad = captureIo();
    expect(
      await runCli(['probe', 'NVDQ', '--as-of', '2026-13-01'], bad, { market: fakeMarket(named), now: fixedNow }),
    ).toBe(2);
    expect(await runCli(['probe', 'NVDQ', '--search', 'exa'], captureIo(), { market: fakeMarket(named) })).toBe(2);
  });
});
