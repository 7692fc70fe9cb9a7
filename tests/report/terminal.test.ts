import { describe, expect, test } from 'vitest';
import { renderPriceChart } from '../../src/report/chart.js';
import { renderTerminal, type TerminalOptions } from '../../src/report/terminal.js';
import { makeDecision, makeReport, makeResult, sampleRunId } from '../support/results.js';

const plain: TerminalOptions = { color: false, unicode: true, width: 100 };
const ansi = /\u001b\[[0-9;]*m/;

function linesOf(text: string): string[] {
  return text.split('\n');
}

describe('renderTerminal, no colour', () => {
  const output = renderTerminal(makeResult(), plain);
  const lines = linesOf(output);

  test('header: name, symbol, exchange, price and change, key stats', () => {
    expect(lines.slice(0, 3)).toEqual([
      'Acme Robotics Corp (ACME) · NasdaqGS · Technology · Robotics',
      '182.52 USD  +2.31 (+1.28%)  quote time 2026-11-27 21:00 UTC',
      'Market cap 4.45T · P/E 58.9 · 52w 86.62–184.48 · RSI 61.2 · ATR 4.10 · Vol 20d 38.5%',
    ]);
  });

  test("the year's chart from renderPriceChart, right under the header", () => {
    const chart = renderPriceChart(makeResult().market!.bars, { width: 100, color: false, unicode: true }).trimEnd();
    expect(chart).not.toBe('');
    expect(output).toContain(`Vol 20d 38.5%\n\n${chart}\n\n── Decision`);
  });

  test('decision and its levels, thesis and briefs, guardrails by severity', () => {
    const start = lines.findIndex((line) => line.startsWith('── Decision '));
    expect(lines.slice(start + 1, start + 15)).toEqual([
      'BUY · conviction 72/100 · size 5.0% of portfolio · limit order · horizon 3-6 months',
      'Entry 180.00 · Stop 168.00 · Target 205.00 · Reward / risk 2.08',
      'Rationale: Momentum and earnings revisions agree; the risk desk caps the size.',
      'Key risks:',
      '  • Valuation is stretched after a 90% year',
      '  • Export restrictions',
      'Dissent: Risk preferred 3% until the next earnings report.',
      '',
      'Levels:',
      '  Level         Price  From        Distance        %     In ATR',
      '  Entry        180.00  last price     -2.52   -1.38%  -0.61 ATR',
      '  Stop loss    168.00  entry         -12.00   -6.67%  -2.93 ATR',
      '  Take profit  205.00  entry         +25.00  +13.89%  +6.10 ATR',
      '',
    ]);
    const plan = lines.findIndex((line) => line.startsWith('── Plan '));
    expect(lines.slice(plan + 1, plan + 5)).toEqual([
      'Thesis: A momentum leader near its high; check whether the news supports the move.',
      '',
      "The Director's briefs:",
      '  • Quant: Trend and levels.',
    ]);
    const guardrails = lines.findIndex((line) => line.startsWith('── Guardrails '));
    expect(lines.slice(guardrails + 1, guardrails + 3)).toEqual([
      '▲ warning  entry-distance: Entry 180.00 is 0.6 ATR from the last close.',
      'ℹ info     reward-risk: Reward/risk is 2.08.',
    ]);
  });

  test("each desk with status, model and time; Sentiment's tool calls and sources", () => {
    // A heading is ruled out to 80 columns.
    // Rules span the text width (100 here), not a fixed 80.
    expect(lines).toContain(`── Quant · ok · gpt-4.1 · 4.2 s ${'─'.repeat(68)}`);
    expect(lines).toContain('Trend is up: price 4.3% above the 20-day average, RSI 61. Momentum score 0.7.');
    const sentiment = lines.findIndex((line) => line.startsWith('── Sentiment · ok · gpt-4o-mini · 6.4 s '));
    expect(lines.slice(sentiment + 1, sentiment + 11)).toEqual([
      'Overall sentiment 0.68. Revenue beat (https://news.example.com/acme-beats). Export rules are the',
      'main risk.',
      '',
      'Tool calls (1):',
      '  1. exa_search {"query":"ACME news","numResults":2,"daysBack":30} · 820 ms',
      '',
      `── Sources cited by Sentiment ${'─'.repeat(70)}`,
      '  • Acme beats on revenue · https://news.example.com/acme-beats',
      '  • Export rules tighten · https://wire.example.org/export-rules (search result, not cited in the',
      '    text)',
    ]);
  });

  test('footer: tokens with cached, cost total and per agent, wall time, run id, status', () => {
    const rule = lines.findIndex((line) => /^─{100}$/.test(line));
    expect(lines.slice(rule + 1)).toEqual([
      'Tokens 9,600 in (1,024 cached) · 1,850 out · cost $0.0412 · wall time 42.1 s',
      '  director   gpt-4.1      3,600 in · 600 out · $0.0120',
      '  quant      gpt-4.1      1,200 in · 300 out · $0.0048',
      '  risk       gpt-4.1      1,200 in · 300 out · $0.0048',
      '  execution  gpt-4.1      1,200 in · 300 out · $0.0048',
      '  sentiment  gpt-4o-mini  2,400 in · 350 out · $0.0005 (1,024 cached)',
      '  Cached input: 1,024 of 9,600 prompt tokens (11%).',
      `Run ${sampleRunId} · status ok · as of 2026-11-27 21:00 UTC`,
      '',
    ]);
  });

  test('footer: the prompt tokens the flex tier served, when the server said it did', () => {
    const base = makeResult();
    const byAgent = { ...base.usage.byAgent, quant: { ...base.usage.byAgent.quant!, flexPromptTokens: 1200 } };
    const flex = renderTerminal(makeResult({ usage: { ...base.usage, byAgent } }), plain);
    expect(flex).toContain('  Flex tier: 1,200 of 9,600 prompt tokens served at flex, priced at its rates.');
    expect(output).not.toContain('Flex tier');
  });

  test('no colour codes, no demo banner, no warnings section; pure: same input, same text', () => {
    expect(output).not.toMatch(ansi);
    expect(output).not.toContain('DEMO');
    expect(output).not.toContain('── Warnings');
    expect(renderTerminal(makeResult(), plain)).toBe(output);
  });
});

describe('renderTerminal variants', () => {
  test('colour: BUY green, SELL red, HOLD yellow; the chart coloured too', () => {
    const buy = renderTerminal(makeResult(), { ...plain, color: true });
    expect(buy).toMatch(ansi);
    expect(buy).toContain('\u001b[1m\u001b[32mBUY\u001b[39m\u001b[22m');
    const sell = renderTerminal(makeResult({ decision: makeDecision({ action: 'SELL' }) }), { ...plain, color: true });
    expect(sell).toContain('\u001b[1m\u001b[31mSELL\u001b[39m\u001b[22m');
    const hold = renderTerminal(
      makeResult({ decision: makeDecision({ action: 'HOLD', entry: null, stopLoss: null, takeProfit: null }) }),
      { ...plain, color: true },
    );
    expect(hold).toContain('\u001b[1m\u001b[33mHOLD\u001b[39m\u001b[22m');
    expect(
      linesOf(
        renderTerminal(
          makeResult({ decision: makeDecision({ action: 'HOLD', entry: null, stopLoss: null, takeProfit: null }) }),
          plain,
        ),
      ),
    ).toContain('Entry n/a · Stop n/a · Target n/a · Reward / risk n/a');
  });

  test('demo banner first, in unicode and in ASCII', () => {
    expect(linesOf(renderTerminal(makeResult({ demo: true }), plain))[0]).toBe(
      'DEMO — synthetic data, scripted analyses; not investment advice',
    );
    expect(linesOf(renderTerminal(makeResult({ demo: true }), { ...plain, unicode: false }))[0]).toBe(
      'DEMO - synthetic data, scripted analyses; not investment advice',
    );
  });

  test('ASCII mode prints nothing outside ASCII', () => {
    const output = renderTerminal(makeResult({ demo: true, warnings: ['one warning'] }), {
      color: false,
      unicode: false,
      width: 100,
    });
    expect(output).toMatch(/^[\x00-\x7f]*$/);
    expect(linesOf(output)).toContain(
      'BUY | conviction 72/100 | size 5.0% of portfolio | limit order | horizon 3-6 months',
    );
    expect(linesOf(output)).toContain('! one warning');
  });

  test('a degraded run: the failed desk shows its error, warnings are listed, status in the footer', () => {
    const result = makeResult({
      status: 'degraded',
      reports: [
        makeReport('quant'),
        makeReport('risk', { status: 'failed', text: '', error: 'model call timed out after 60 s' }),
      ],
      warnings: ['risk failed: model call timed out after 60 s'],
    });
    const lines = linesOf(renderTerminal(result, plain));
    const risk = lines.findIndex((line) => line.startsWith('── Risk · FAILED · gpt-4.1 · 4.2 s '));
    expect(risk).toBeGreaterThan(0);
    expect(lines[risk + 1]).toBe('Error: model call timed out after 60 s');
    const warnings = lines.findIndex((line) => line.startsWith('── Warnings '));
    expect(lines[warnings + 1]).toBe('⚠ risk failed: model call timed out after 60 s');
    expect(lines).toContain(`Run ${sampleRunId} · status degraded · as of 2026-11-27 21:00 UTC`);
  });

  test('a failed run: no decision and why, the error in the footer', () => {
    const result = makeResult({
      status: 'failed',
      decision: null,
      guardrails: [],
      error: 'every worker failed',
      reports: ['quant', 'risk', 'execution', 'sentiment'].map((agent) =>
        makeReport(agent, { status: 'failed', text: '', toolCalls: [], error: 'connection refused' }),
      ),
    });
    const lines = linesOf(renderTerminal(result, plain));
    const decision = lines.findIndex((line) => line.startsWith('── Decision '));
    expect(lines[decision + 1]).toBe('No decision: every worker failed.');
    const guardrails = lines.findIndex((line) => line.startsWith('── Guardrails '));
    // Nothing was checked: "No findings." would read as a clean bill of health (#33 item 15).
    expect(lines[guardrails + 1]).toBe('No decision was checked: the run made none.');
    expect(lines).not.toContain('No findings.');
    expect(lines.filter((line) => line === 'Error: connection refused')).toHaveLength(4);
    expect(lines.slice(-4)).toEqual([
      `Run ${sampleRunId} · status failed · as of 2026-11-27 21:00 UTC`,
      'Error: every worker failed',
      'Failed desks: Quant, Risk, Execution, Sentiment.',
      '',
    ]);
  });

  test('agents mode: desks only, no plan or decision section', () => {
    const output = renderTerminal(
      makeResult({ mode: 'agents', plan: null, decision: null, guardrails: [], reports: [makeReport('sentiment')] }),
      plain,
    );
    expect(output).not.toContain('── Decision');
    expect(output).not.toContain('── Guardrails');
    expect(output).not.toContain('Thesis');
    expect(output).not.toContain('No decision');
    expect(output).toContain('── Sentiment · ok · gpt-4o-mini · 6.4 s ');
  });

  test('unknown cost: tokens shown, "cost unknown" for the agent and the total, never a guessed number', () => {
    const result = makeResult();
    result.usage.costUsd = null;
    result.usage.byAgent.sentiment = {
      model: 'my-local-model',
      promptTokens: 2400,
      completionTokens: 350,
      cachedPromptTokens: 0,
      costUsd: null,
    };
    const lines = linesOf(renderTerminal(result, plain));
    expect(lines).toContain('Tokens 9,600 in (1,024 cached) · 1,850 out · cost unknown · wall time 42.1 s');
    expect(lines).toContain('  sentiment  my-local-model  2,400 in · 350 out · cost unknown');
  });

  test('no market data: the header says so and there is no chart', () => {
    const lines = linesOf(renderTerminal(makeResult({ market: null }), plain));
    expect(lines.slice(0, 4)).toEqual([
      'ACME',
      'Market data was not available for this run: no price, chart or key stats, and every level is',
      'unverifiable.',
      '',
    ]);
    expect(lines[4]!.startsWith('── Decision ')).toBe(true);
  });

  test('missing numbers print as n/a, never zero', () => {
    const result = makeResult();
    const market = result.market!;
    market.quote = { ...market.quote, marketCap: null, trailingPE: null, change: null, changePercent: null };
    market.indicators = { ...market.indicators, rsi14: null, atr14: null, volatility20d: null };
    const lines = linesOf(renderTerminal(result, plain));
    expect(lines[1]).toBe('182.52 USD  quote time 2026-11-27 21:00 UTC');
    expect(lines[2]).toBe('Market cap n/a · P/E n/a · 52w 86.62–184.48 · RSI n/a · ATR n/a · Vol 20d n/a');
  });

  test('long text wraps to the width', () => {
    const long = 'word '.repeat(60).trim();
    const lines = linesOf(
      renderTerminal(makeResult({ reports: [makeReport('quant', { text: long })] }), { ...plain, width: 60 }),
    );
    const wrapped = lines.filter((line) => line.startsWith('word'));
    expect(wrapped.length).toBeGreaterThan(4);
    expect(wrapped.every((line) => line.length <= 60)).toBe(true);
    expect(wrapped.join(' ')).toBe(long);
  });
});

describe('terminal polish at 60, 80, 100 and 120 columns', () => {
  const widths = [60, 80, 100, 120];
  const longCall = makeReport('sentiment', {
    toolCalls: [
      {
        id: 'call_1',
        name: 'exa_search',
        arguments: JSON.stringify({ query: 'Acme Robotics '.repeat(20), numResults: 5, daysBack: 30 }),
        result: '[]',
        error: null,
        durationMs: 820,
      },
    ],
  });

  test.each(widths)(
    'at %i columns no line is wider than the terminal, tool-call lines and the demo banner included',
    (width) => {
      for (const unicode of [true, false]) {
        const output = renderTerminal(makeResult({ demo: true, reports: [longCall] }), {
          color: false,
          unicode,
          width,
        });
        const lines = output.split('\n');
        for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(width);
        const call = lines.find((line) => line.startsWith('  1. exa_search '));
        expect(call).toBeDefined();
        // Cut with its marker, ending exactly at the width.
        expect(call!.length).toBe(width);
        expect(call).toMatch(/… \[\+\d+ chars\] [·|] 820 ms$/);
      }
    },
  );

  test.each(widths)('at %i columns the section rules are as wide as the text', (width) => {
    const lines = renderTerminal(makeResult(), { color: false, unicode: true, width }).split('\n');
    const rules = lines.filter((line) => line.startsWith('── '));
    expect(rules.length).toBeGreaterThan(3);
    for (const rule of rules) expect(rule.length).toBe(width);
    expect(lines).toContain('─'.repeat(width));
  });

  test('the demo banner is the short one where the full one would wrap', () => {
    expect(renderTerminal(makeResult({ demo: true }), { color: false, unicode: true, width: 60 }).split('\n')[0]).toBe(
      'DEMO — synthetic data; not advice',
    );
    expect(renderTerminal(makeResult({ demo: true }), { color: false, unicode: true, width: 80 }).split('\n')[0]).toBe(
      'DEMO — synthetic data, scripted analyses; not investment advice',
    );
  });
});
