import { describe, expect, test } from 'vitest';
import { renderHtml } from '../../src/report/html.js';
import { renderSvgChart, movingAverageSeries } from '../../src/report/svg-chart.js';
import { makeBars, makeDecision, makeMarket, makeReport, makeResult } from '../support/results.js';

describe('renderHtml', () => {
  test('one document: decision card, levels with reward/risk, guardrails, plan and briefs, desks, sources, usage', () => {
    const html = renderHtml(makeResult());
    expect(html.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    expect(html).toContain('<title>Acme Robotics Corp (ACME): BUY, conviction 72/100</title>');
    expect(html).toContain('data-decision="BUY"');
    // (205 − 180) ÷ (180 − 168)
    expect(html).toContain('<dt>Reward / risk</dt><dd>2.08</dd>');
    expect(html).toContain(
      '<td>Stop loss</td><td class="number">168.00</td><td>entry</td><td class="number">-12.00</td><td class="number">-6.67%</td><td class="number">-2.93 ATR</td>',
    );
    expect(html.indexOf('finding-warning')).toBeLessThan(html.indexOf('finding-info'));
    expect(html).toContain('<li><strong>Quant:</strong> Trend and levels.</li>');
    for (const agent of ['quant', 'risk', 'execution', 'sentiment']) expect(html).toContain(`data-agent="${agent}"`);
    expect(html).toContain(
      '<a href="https://news.example.com/acme-beats" rel="noreferrer noopener">Acme beats on revenue</a>',
    );
    expect(html).toContain('<strong>$0.0412</strong>');
    expect(html).toContain('data-chart="price"');
  });

  test('untrusted text is sanitised and escaped; only http(s) sources become links', () => {
    const hostile = '<script>alert(1)</script> \u001b[2J <img src=x onerror=alert(2)>';
    const result = makeResult({
      market: makeMarket({ identity: { ...makeMarket().identity, name: 'Evil <b>Corp</b>' } }),
      decision: makeDecision({ rationale: hostile, keyRisks: ['"quoted" & <tag>'] }),
      guardrails: [{ rule: 'x', severity: 'error', message: hostile }],
      reports: [
        makeReport('quant', { text: `TREND\n${hostile}` }),
        makeReport('sentiment', {
          text: 'See javascript:alert(3) and [x](javascript:alert(4)) and https://ok.example.com/a.',
          toolCalls: [
            {
              id: 'c',
              name: 'exa_search',
              arguments: '{}',
              result: JSON.stringify([{ title: '<i>t</i>', url: 'https://ok.example.com/b"onmouseover="x' }]),
              error: null,
              durationMs: 1,
            },
          ],
        }),
      ],
      warnings: [hostile],
    });
    const html = renderHtml(result);
    expect(html).not.toMatch(/<script|<img|<b>|<i>|<tag>|\u001b/);
    // Text may read "onerror=", but no tag carries an event handler.
    expect(html).not.toMatch(/<[^>]*\son\w+=/);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; ␛[2J');
    expect(html).toContain('Evil &lt;b&gt;Corp&lt;/b&gt;');
    expect(html).toContain('&quot;quoted&quot; &amp; &lt;tag&gt;');
    const links = [...html.matchAll(/<a href="([^"]*)"/g)].map((match) => match[1]);
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(link).toMatch(/^https:\/\/ok\.example\.com\//);
  });

  test('a run without market data or decision says so, with no chart', () => {
    const html = renderHtml(
      makeResult({ market: null, decision: null, status: 'failed', error: 'every desk failed; no decision was made' }),
    );
    expect(html).toContain('data-decision="none"');
    expect(html).toContain('No decision: every desk failed; no decision was made.');
    expect(html).toContain('Market data was not available');
    expect(html).not.toContain('<svg');
  });

  test("the Director's review and a flagged status are shown", () => {
    const first = makeDecision({ stopLoss: 190 });
    const html = renderHtml(
      makeResult({
        status: 'flagged',
        decision: first,
        decisionHistory: [
          { decision: first, guardrails: [{ rule: 'stop-side', severity: 'error', message: 'stop above entry' }] },
          { decision: first, guardrails: [{ rule: 'stop-side', severity: 'error', message: 'stop above entry' }] },
        ],
      }),
    );
    expect(html).toContain('<section id="review"><h2>Review</h2>');
    expect(html).toContain('The first decision broke 1 guardrail rule (stop-side)');
    expect(html).toContain('class="status status-flagged"');
    expect(html).toMatch(/Flagged: the decision breaks \d+ guardrail rules? \(exit code 4\)/);
  });

  test('a demo run carries the banner and says its cost was not spent', () => {
    const html = renderHtml(makeResult({ demo: true }));
    expect(html).toContain('class="banner" data-demo=""');
    expect(html).toContain('nothing was spent');
    expect(html).toContain('Source: demo (synthetic data).');
  });
});

describe('renderSvgChart', () => {
  test('closes, SMA 50 and 200 once there are enough sessions, labelled levels and the as-of day', () => {
    const svg = renderSvgChart(makeBars(260), {
      asOf: '2026-11-28T15:00:00Z',
      levels: makeDecision(),
      title: 'ACME',
      currency: 'USD',
    });
    expect(svg).toContain('data-series="close"');
    expect(svg).toContain('data-series="sma50"');
    expect(svg).toContain('data-series="sma200"');
    expect(svg).toMatch(/data-level="entry".*>entry 180\.00</s);
    expect(svg).toMatch(/data-level="stopLoss".*>stop 168\.00</s);
    expect(svg).toMatch(/data-level="takeProfit".*>target 205\.00</s);
    expect(svg).toContain('data-as-of="2026-11-28"');
    expect(svg).toContain('<title>ACME: daily closes (USD)');
  });

  test('a short history has no SMA 200 line, and fewer than two closes draw nothing', () => {
    expect(renderSvgChart(makeBars(60), { asOf: '2026-11-27T21:00:00Z', title: 'ACME' })).not.toContain('sma200');
    expect(renderSvgChart(makeBars(1), { asOf: '2026-11-27T21:00:00Z', title: 'ACME' })).toBe('');
  });

  test('the moving average matches the mean of the trailing closes', () => {
    expect(movingAverageSeries([1, 2, 3, 4], 2)).toEqual([null, 1.5, 2.5, 3.5]);
  });
});
