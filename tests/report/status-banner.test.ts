import { describe, expect, test } from 'vitest';
import { renderHtml } from '../../src/report/html.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { reportView } from '../../src/report/view.js';
import { makeReport, makeResult } from '../support/results.js';

/** #33 item 3: a run that is not whole opens with a banner saying why, above the decision, in every format. */

const plain = { color: false, unicode: true, width: 100 };

const noMarket = makeResult({
  status: 'degraded',
  market: null,
  warnings: ['market data missing: Yahoo unreachable'],
});
const flagged = makeResult({
  status: 'flagged',
  guardrails: [{ rule: 'stop-distance', severity: 'error', message: 'The stop is 9 ATR from the entry.' }],
});
const deskFailed = makeResult({
  status: 'degraded',
  reports: [makeReport('quant', { status: 'failed', text: '', error: 'timed out' }), makeReport('risk')],
});
const capped = makeResult({
  status: 'degraded',
  failure: { stage: 'desks', kind: 'budget', message: 'the --max-cost cap was reached', retryable: false },
});

const planCapped = makeResult({
  status: 'degraded',
  decision: null,
  reports: [makeReport('sentiment', { status: 'failed', text: '', error: 'the Director could not plan' })],
  failure: { stage: 'plan', kind: 'budget', message: 'Director plan failed: --max-cost reached', retryable: false },
});

describe('the status banner', () => {
  test.each([
    // #44 item 17: the cap stopped the plan; no desk ran, so none is blamed.
    [
      'the cap stopped the plan',
      planCapped,
      /^DEGRADED: the --max-cost cap stopped the Director's plan, so no desk ran\. There is no decision\.$/,
    ],
    ['market data missing', noMarket, /^DEGRADED: market data missing\. /],
    ['a desk failed', deskFailed, /^DEGRADED: the Quant desk failed\. /],
    ['the cap reached', capped, /^DEGRADED: the --max-cost cap was reached\. /],
    ['a guardrail error', flagged, /^FLAGGED: the decision breaks 1 guardrail rule \(stop-distance\)\. Do not act/],
  ])('%s: the view opens with it', (_name, result, text) => {
    const notice = reportView(result).notices.find((entry) => entry.key === 'status');
    expect(notice?.text).toMatch(text);
  });

  test('an ok run has none', () => {
    expect(reportView(makeResult()).notices.map((notice) => notice.key)).not.toContain('status');
  });

  test('it stands above the decision in the terminal, report.md and report.html', () => {
    for (const result of [noMarket, flagged]) {
      const terminal = renderTerminal(result, plain);
      const markdown = renderMarkdown(result);
      const html = renderHtml(result);
      const word = result.status.toUpperCase();
      expect(terminal.indexOf(`${word}:`)).toBeGreaterThanOrEqual(0);
      expect(terminal.indexOf(`${word}:`)).toBeLessThan(terminal.indexOf('── Decision'));
      expect(markdown).toMatch(new RegExp(`^> \\*\\*${word}: `, 'm'));
      expect(markdown.indexOf(`> **${word}:`)).toBeLessThan(markdown.indexOf('## Decision'));
      const banner = html.indexOf('<p class="banner" data-status=""');
      expect(banner).toBeGreaterThan(0);
      expect(banner).toBeLessThan(html.indexOf('<section id="decision"'));
    }
    expect(renderHtml(flagged)).toContain('data-status="" data-tone="bad" role="alert">FLAGGED:');
  });
});

describe('guardrails without a decision (#33 item 15)', () => {
  test('say nothing was checked, not "No findings."', () => {
    const result = makeResult({ status: 'failed', decision: null, guardrails: [], error: 'the Director failed' });
    const guardrails = reportView(result).sections.find((section) => section.id === 'guardrails');
    expect(guardrails?.parts).toEqual([
      { kind: 'text', key: 'unchecked', text: 'No decision was checked: the run made none.', tone: 'muted' },
    ]);
    expect(renderTerminal(result, plain)).not.toContain('No findings.');
  });

  test('a decision with no findings still says "No findings."', () => {
    const guardrails = reportView(makeResult({ guardrails: [] })).sections.find((s) => s.id === 'guardrails');
    expect(guardrails?.parts[0]).toMatchObject({ key: 'none', text: 'No findings.' });
  });
});

describe("a flagged run's title (issue 44 item 13)", () => {
  test('the <title>, the H1 of report.md and the view title carry the status', () => {
    const view = reportView(flagged);
    expect(view.title).toMatch(/: (BUY|SELL|HOLD) \(FLAGGED\), conviction \d+\/100$/);
    expect(renderMarkdown(flagged).split('\n')[0]).toContain('(FLAGGED)');
    expect(renderHtml(flagged)).toMatch(/<title>[^<]*\(FLAGGED\)[^<]*<\/title>/);
    // A clean run's title has no status.
    expect(reportView(makeResult()).title).not.toMatch(/FLAGGED|DEGRADED/);
  });
});
