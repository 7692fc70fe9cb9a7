/**
 * Smoke tests: the built `bin/autohedge.js` as a child process, replaying the
 * committed cassettes with no API key and no network, exactly as CI and a newcomer
 * run it (README: `npx autohedge analyze ACME --demo`). stdout, stderr and exit codes
 * are asserted where they are the contract.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { longBeforeTheHangEnds, neverEndsMs } from '../support/hang.js';
import { analysisResultSchema, marketSnapshotSchema, type CheckedResult } from './analysis-result.js';
import { demoCassette, ensureBuilt, runBuilt, smokeCassette, withoutDurations } from './support.js';

beforeAll(ensureBuilt, 180_000);

const demoBanner = 'DEMO - synthetic data, scripted analyses; not investment advice';

/** The progress a full ACME run prints on a non-TTY stderr, durations aside, in sorted order. */
const fullRunProgress = (ticker: string, exaCalls = 1) => [
  `[${ticker}] director: done (… s)`,
  `[${ticker}] director: running (gpt-4.1)`,
  `[${ticker}] execution: done (… s)`,
  `[${ticker}] execution: running (gpt-4.1)`,
  `[${ticker}] quant: done (… s)`,
  `[${ticker}] quant: running (gpt-4.1)`,
  `[${ticker}] risk: done (… s)`,
  `[${ticker}] risk: running (gpt-4.1)`,
  ...Array.from({ length: exaCalls }, () => `[${ticker}] sentiment: calling exa_search`),
  `[${ticker}] sentiment: done (… s)`,
  `[${ticker}] sentiment: running (gpt-4o-mini)`,
];

/** Shown when the demo stops replaying: the cassette no longer matches what autohedge sends. */
const staleDemoHint =
  '(prompts, agents, models or the market block changed? regenerate the cassettes with `npm run demo:generate`)';

const lines = (text: string) =>
  withoutDurations(text)
    .split('\n')
    .filter((line) => line !== '');

/** Every decimal the Quant quotes before its scores must be a number its MARKET DATA block holds. */
function numbersNotInBlock(report: string, block: string): string[] {
  const quoted = report.slice(0, report.indexOf('SCORES'));
  return [...quoted.matchAll(/[+-]?\d+\.\d+/g)].map((match) => match[0]).filter((number) => !block.includes(number));
}

describe('autohedge analyze ACME --demo (built CLI, no keys, no network)', () => {
  it('prints the full analysis with the DEMO banner, progress on stderr, exit 0, and saves the run', async () => {
    const run = await runBuilt(['analyze', 'ACME', '--demo']);
    expect(run.stderr.includes('autohedge:'), `${run.stderr}\n${staleDemoHint}`).toBe(false);
    expect(run.code).toBe(0);

    expect(
      run.stdout.startsWith(
        `${demoBanner}\n\nAcme Robotics Corp (ACME) | NasdaqGS | Technology | Industrial Robots\n141.85 USD  +1.18 (+0.84%)  quote time 2026-11-27 18:00 UTC\n`,
      ),
    ).toBe(true);
    const sections = [...run.stdout.matchAll(/^-- (\w+)/gm)].map((match) => match[1]);
    expect(sections).toEqual([
      'Decision',
      'Plan',
      'Guardrails',
      'Figures',
      'Quant',
      'Risk',
      'Execution',
      'Sentiment',
      'Sources',
    ]);
    expect(run.stdout).toContain(
      '\nBUY | conviction 64/100 | size 4.0% of portfolio | limit order | horizon 4-8 weeks\nEntry 139.57 | Stop 130.43 | Target 155.57 | Reward / risk 1.75\n',
    );
    // Section rules span the text width (100 columns off a terminal).
    expect(run.stdout).toContain(`-- Guardrails ${'-'.repeat(100 - '-- Guardrails '.length)}\nNo findings.\n`);
    expect(run.stdout).toMatch(/\n-- Sources cited by Sentiment -+\n(  \* .+\n(    .+\n)*){5}\n/);
    expect(run.stdout).toContain('https://news.example.com/2026/11/05/acme-robotics-q3-results');
    expect(run.stdout).toMatch(/\nTokens 19,962 in \| 1,667 out \| cost \$0\.\d{4} \| wall time .+\n/);
    expect(run.stdout).toMatch(
      /\nRun \d{8}T\d{6}Z-ACME-[0-9a-f]{6} \| status ok \| as of 2026-11-27 18:00 UTC \(session close\)\n$/,
    );
    // Plain text on a pipe: no colour codes, no box drawing.
    expect(run.stdout).not.toMatch(/\u001b\[|[─•·]/);

    const progress = lines(run.stderr);
    // Progress, then where the run went.
    const savedLine = progress.pop();
    expect(savedLine).toMatch(new RegExp(`^saved ${path.join(run.home, 'runs')}/\\d{8}T\\d{6}Z-ACME-[0-9a-f]{6}$`));
    expect([...progress].sort()).toEqual(fullRunProgress('ACME'));
    const at = (line: string) => progress.indexOf(line);
    expect(at('[ACME] sentiment: running (gpt-4o-mini)')).toBeLessThan(at('[ACME] sentiment: calling exa_search'));
    expect(at('[ACME] sentiment: calling exa_search')).toBeLessThan(at('[ACME] sentiment: done (… s)'));
    expect(at('[ACME] quant: done (… s)')).toBeLessThan(at('[ACME] director: done (… s)'));

    const runs = readdirSync(path.join(run.home, 'runs'));
    expect(runs).toHaveLength(1);
    const saved = JSON.parse(
      readFileSync(path.join(run.home, 'runs', runs[0]!, 'result.json'), 'utf8'),
    ) as CheckedResult;
    expect(saved).toMatchObject({ ticker: 'ACME', demo: true, status: 'ok' });
    expect(readFileSync(path.join(run.home, 'runs', runs[0]!, 'report.md'), 'utf8')).toContain(
      '> **DEMO — synthetic data, scripted analyses; not investment advice**',
    );
  });

  it('--json prints one AnalysisResult of the documented shape, and nothing else, on stdout', async () => {
    const run = await runBuilt(['analyze', 'ACME', '--demo', '--json', '--no-save']);
    expect(run.code, `${run.stderr}\n${staleDemoHint}`).toBe(0);
    expect([...lines(run.stderr)].sort()).toEqual(fullRunProgress('ACME'));

    const result = analysisResultSchema.parse(JSON.parse(run.stdout));
    // Every figure of the demo's prose is checked, and none contradicts its data (docs/claims.md).
    expect(result.claimsSummary).toMatchObject({ contradicted: 0 });
    expect(result.claims.length).toBe(result.claimsSummary.total);
    expect(result).toMatchObject({
      ticker: 'ACME',
      asOf: '2026-11-27T18:00:00.000Z',
      status: 'ok',
      mode: 'full',
      demo: true,
      warnings: [],
      guardrails: [],
      error: null,
    });
    expect(result.decision).toEqual({
      action: 'BUY',
      conviction: 64,
      timeHorizon: '4–8 weeks',
      positionSizePct: 4,
      orderType: 'limit',
      entry: 139.57,
      stopLoss: 130.43,
      takeProfit: 155.57,
      rationale: expect.stringMatching(/^Synthetic demo decision on a fictional company, not advice\. /),
      keyRisks: expect.arrayContaining(['EU safety review could delay the CB-7 launch']),
      dissent: expect.any(String),
    });
    expect(result.market).toMatchObject({
      symbol: 'ACME',
      source: 'demo',
      warnings: [],
      identity: { name: 'Acme Robotics Corp', sector: 'Technology', industry: 'Industrial Robots' },
    });
    expect(result.market?.indicators).toMatchObject({
      asOfBar: '2026-11-27',
      lastClose: 141.85,
      support: 132.02,
      resistance: 146.76,
    });
    expect(result.market?.bars).toHaveLength(255);
    expect(result.reports.map((report) => [report.agent, report.status, report.model])).toEqual([
      ['quant', 'ok', 'gpt-4.1'],
      ['risk', 'ok', 'gpt-4.1'],
      ['execution', 'ok', 'gpt-4.1'],
      ['sentiment', 'ok', 'gpt-4o-mini'],
    ]);
    for (const report of result.reports) expect(report.text).toMatch(/^Synthetic demo report on a fictional company/);
    const sentiment = result.reports[3]!;
    expect(sentiment.toolCalls.map((call) => [call.name, call.arguments, call.error])).toEqual([
      ['exa_search', '{"query":"Acme Robotics ACME news earnings guidance","numResults":5,"daysBack":30}', null],
    ]);
    expect(sentiment.toolCalls[0]!.result).toMatch(
      /^<<<UNTRUSTED WEB CONTENT: 5 search results for "Acme Robotics ACME news earnings guidance" published 2026-10-28 to 2026-11-27/,
    );
    expect(result.usage).toMatchObject({ promptTokens: 19962, completionTokens: 1667 });
    expect(result.usage.costUsd).toBeGreaterThan(0);

    // The demo's Quant is held to the rule its prompt sets: no number that is not in the block it was sent.
    expect(numbersNotInBlock(result.reports[0]!.text, result.market!.text)).toEqual([]);
  });

  it('--agent sentiment runs the snapshot and that desk only, from the same cassette', async () => {
    const run = await runBuilt(['analyze', 'ACME', '--demo', '--agent', 'sentiment', '--no-save']);
    expect(run.code).toBe(0);
    expect(
      run.stdout.startsWith(`${demoBanner}\n\nAcme Robotics Corp (ACME) | NasdaqGS | Technology | Industrial Robots\n`),
    ).toBe(true);
    expect([...run.stdout.matchAll(/^-- (\w+)/gm)].map((match) => match[1])).toEqual([
      'Figures',
      'Sentiment',
      'Sources',
    ]);
    expect(run.stdout).toContain('-- Sentiment | ok | gpt-4o-mini |');
    expect(run.stdout).toContain('0.68 (0 very negative, 1 very positive)');
    expect(lines(run.stderr)).toEqual([
      '[ACME] sentiment: running (gpt-4o-mini)',
      '[ACME] sentiment: calling exa_search',
      '[ACME] sentiment: done (… s)',
    ]);
  });

  it('every other desk replays alone from the demo too, and together', async () => {
    const runs = await Promise.all(
      [['quant'], ['risk'], ['execution'], ['quant', 'risk', 'execution']].map((desks) =>
        runBuilt(['analyze', 'ACME', '--demo', ...desks.flatMap((desk) => ['--agent', desk]), '--json', '--no-save']),
      ),
    );
    for (const run of runs) expect([run.code, run.stderr.includes('no recorded response')]).toEqual([0, false]);
    const reports = runs.map((run) =>
      (JSON.parse(run.stdout) as CheckedResult).reports.map((report) => `${report.agent}:${report.status}`),
    );
    expect(reports).toEqual([['quant:ok'], ['risk:ok'], ['execution:ok'], ['quant:ok', 'risk:ok', 'execution:ok']]);
  });

  it('several tickers replay side by side from one cassette into a JSON array in argument order', async () => {
    const run = await runBuilt(['analyze', 'ACME', 'GLBX', '--replay', smokeCassette, '--json', '--no-save']);
    expect(run.code, `${run.stderr}\n${staleDemoHint}`).toBe(0);
    const results = analysisResultSchema.array().parse(JSON.parse(run.stdout));
    expect(results.map((result) => [result.ticker, result.status, result.decision?.action, result.demo])).toEqual([
      ['ACME', 'ok', 'BUY', true],
      ['GLBX', 'ok', 'HOLD', true],
    ]);
    expect(results[1]!.market?.identity).toMatchObject({
      name: 'Globex Logistics Inc.',
      exchange: 'NYSE',
      sector: 'Industrials',
    });
    // The GLBX decision trips one informative guardrail on purpose: a HOLD carrying a reference stop.
    expect(results[1]!.guardrails).toEqual([
      {
        rule: 'hold-levels',
        severity: 'info',
        message: 'HOLD carries levels (stopLoss 54.45); they are informational only',
      },
    ]);
    expect([...lines(run.stderr)].sort()).toEqual([...fullRunProgress('ACME'), ...fullRunProgress('GLBX')].sort());
  });

  it('--demo with a ticker the demo does not cover is a usage error pointing at ACME', async () => {
    const run = await runBuilt(['analyze', 'TSLA', '--demo']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      'autohedge: the demo covers ACME only (synthetic data); run `autohedge analyze ACME --demo`, or set OPENAI_API_KEY to analyse TSLA\n',
    );
  });

  it('a request the cassette does not hold fails fast, naming method, URL and agent, exit 2', async () => {
    // Another model changes every OpenAI request body, so nothing the desks ask matches.
    const run = await runBuilt(['analyze', 'ACME', '--replay', demoCassette, '--model', 'gpt-5', '--no-save']);
    expect(run.code).toBe(2);
    const misses = run.stderr.split('\n').filter((line) => line.startsWith('autohedge:'));
    expect(misses.sort()).toEqual([
      `autohedge: no recorded response for POST https://api.openai.com/v1/chat/completions (agent: director) in cassette '${demoCassette}'`,
      `autohedge: no recorded response for POST https://api.openai.com/v1/chat/completions (agent: sentiment) in cassette '${demoCassette}'`,
    ]);
    // No hang: a miss is final for Yahoo and exa-js, and the SDK's two connection retries end; a miss
    // that waited for an answer would wait for ever.
    expect(run.elapsedMs).toBeLessThan(longBeforeTheHangEnds(neverEndsMs));
  }, 90_000);

  it('a missing cassette is a usage error naming its path', async () => {
    const missing = path.join(path.dirname(smokeCassette), 'no-such.cassette.json');
    const run = await runBuilt(['analyze', 'ACME', '--replay', missing]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`autohedge: cannot replay '${missing}': file not found\n`);
  });
});

describe('autohedge market ACME --replay (built CLI)', () => {
  it('prints the block the agents see and a chart; --json prints the same snapshot as data', async () => {
    const [text, json] = await Promise.all([
      runBuilt(['market', 'ACME', '--replay', demoCassette]),
      runBuilt(['market', 'ACME', '--replay', demoCassette, '--json']),
    ]);
    expect([text.code, text.stderr]).toEqual([0, '']);
    expect([json.code, json.stderr]).toEqual([0, '']);

    const snapshot = marketSnapshotSchema.parse(JSON.parse(json.stdout));
    // The demo cassette is synthetic data however it is replayed: labelled DEMO, source "demo".
    expect(snapshot).toMatchObject({ symbol: 'ACME', asOf: '2026-11-27T18:00:00.000Z', source: 'demo', warnings: [] });
    expect(text.stdout.startsWith(`${demoBanner}\n\n${snapshot.text}\n\nDaily closes (USD):\n`)).toBe(true);
    expect(snapshot.text.split('\n').slice(0, 1)).toEqual([
      'MARKET DATA — ACME (Acme Robotics Corp), as of 2026-11-27',
    ]);
    expect(snapshot.text).toContain('\nLast close: 141.85 USD (2026-11-27)\n');
    expect(snapshot.text.endsWith('\nDATA NOTES\n- none')).toBe(true);
  });

  it('a ticker the cassette does not hold names every missed request, exit 2, nothing on stdout', async () => {
    const run = await runBuilt(['market', 'GLBX', '--replay', demoCassette]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    const misses = run.stderr.trim().split('\n');
    expect(misses).toHaveLength(3);
    for (const line of misses) {
      expect(line).toMatch(
        new RegExp(
          `^autohedge: no recorded response for GET https://query2\\.finance\\.yahoo\\.com/v\\d+/finance/\\S+GLBX\\S* in cassette '${demoCassette.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}'$`,
        ),
      );
    }
  });
});
