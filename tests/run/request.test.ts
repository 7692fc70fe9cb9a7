import { describe, expect, it } from 'vitest';
import { requestOnHost } from '../../src/queue/job-request.js';
import { exchangeCalendar } from '../../src/market/calendar/index.js';
import { requestAsOfFromFlag, resolveRunClock } from '../../src/run/as-of.js';
import { parseRunRequest, RunRequestError, runRequestVersion } from '../../src/run/request.js';

const nyse = exchangeCalendar('XNYS');

describe('RunRequest: one schema wherever it comes from', () => {
  it('fills the defaults from the domain constants and survives JSON', () => {
    const request = parseRunRequest({ version: runRequestVersion, ticker: 'nvda' });
    expect(request).toEqual({
      version: 1,
      ticker: 'NVDA',
      asOf: { kind: 'live' },
      agents: [],
      limits: { maxPositionPct: 10, maxRiskPct: 2, minRewardRisk: 1 },
      maxCostUsd: null,
      refresh: false,
      save: true,
      blind: false,
      samples: 1,
    });
    expect(parseRunRequest(JSON.parse(JSON.stringify(request)))).toEqual(request);
  });

  it('refuses an unknown version as such, and anything else it does not know by name', () => {
    for (const version of [undefined, 0, 2, '1']) {
      const error = (() => {
        try {
          parseRunRequest({ version, ticker: 'NVDA' });
        } catch (caught) {
          return caught;
        }
      })();
      expect(error).toBeInstanceOf(RunRequestError);
      expect((error as RunRequestError).unknownVersion).toBe(true);
    }
    expect(() => parseRunRequest({ version: 1, ticker: 'NVDA', tikcer: 'x' })).toThrow(/invalid run request/);
    expect(() => parseRunRequest({ version: 1, ticker: 'A/B' })).toThrow(/ticker/);
    expect(() => parseRunRequest({ version: 1, ticker: 'NVDA', agents: ['director'] })).toThrow(/agents/);
    expect(() => parseRunRequest({ version: 1, ticker: 'NVDA', baseUrl: 'http://u:p@h/v1' })).toThrow(/credentials/);
    expect(() => parseRunRequest({ version: 1, ticker: 'NVDA', model: 'gpt\n[X]' })).toThrow(/control characters/);
  });
});

describe("--as-of D means one thing: the close of session D on the ticker's exchange", () => {
  const now = new Date('2026-03-20T12:00:00Z');
  it('a historical request runs at that close; a live one at the live clock', () => {
    const live = new Date('2026-03-20T15:00:00Z');
    expect(resolveRunClock({ ticker: 'NVDA', asOf: requestAsOfFromFlag('2026-03-10') }, now, () => live)).toEqual({
      at: nyse.closeAt('2026-03-10'),
      historical: true,
      mic: 'XNYS',
    });
    expect(resolveRunClock({ ticker: 'NVDA', asOf: requestAsOfFromFlag(undefined) }, now, () => live)).toEqual({
      at: live,
      historical: false,
      mic: 'XNYS',
    });
    expect(nyse.closeAt('2026-03-10').toISOString()).toBe('2026-03-10T20:00:00.000Z');
  });
  it('a closed or future day is a usage error naming the nearest session', () => {
    const at = (day: string) => ({ ticker: 'NVDA', asOf: requestAsOfFromFlag(day) });
    expect(() => resolveRunClock(at('2026-03-14'), now, () => now)).toThrow(/\(XNYS\) was closed \(a Saturday\)/);
    expect(() => resolveRunClock(at('2026-03-21'), now, () => now)).toThrow(/future/);
  });
});

describe("a job's request on a worker", () => {
  const host = {
    version: 1 as const,
    model: 'gpt-4.1-mini',
    baseUrl: 'http://127.0.0.1:9/v1',
    maxCostUsd: 0.5,
    save: false,
  };
  it('the job decides the analysis, the worker fills the rest, saving and the lower cap', () => {
    const job = { version: 1, ticker: 'NVDA', asOf: { kind: 'historical', day: '2026-03-10' }, maxCostUsd: 2 };
    expect(requestOnHost(job, host)).toMatchObject({
      ticker: 'NVDA',
      asOf: { kind: 'historical', day: '2026-03-10' },
      model: 'gpt-4.1-mini',
      baseUrl: 'http://127.0.0.1:9/v1',
      maxCostUsd: 0.5,
      save: false,
    });
    expect(requestOnHost({ ...job, model: 'gpt-4.1', maxCostUsd: 0.1 }, host)).toMatchObject({
      model: 'gpt-4.1',
      maxCostUsd: 0.1,
    });
  });
  it('a job asking for another server, search or MCP config than the worker has is refused', () => {
    expect(() => requestOnHost({ version: 1, ticker: 'NVDA', baseUrl: 'http://10.0.0.1/v1' }, host)).toThrow(
      /the job asks for baseUrl "http:\/\/10.0.0.1\/v1", but this worker runs with "http:\/\/127.0.0.1:9\/v1"/,
    );
    expect(() => requestOnHost({ version: 1, ticker: 'NVDA', search: 'openai' }, host)).toThrow(/search/);
  });
});
