import { describe, expect, it } from 'vitest';
import { renderHtmlView } from '../../src/report/html.js';
import { renderMarkdownView } from '../../src/report/markdown.js';
import { renderTerminalView } from '../../src/report/terminal.js';
import { reportView, type ReportView } from '../../src/report/view.js';
import { makeResult } from '../support/results.js';

/**
 * Content added to the view once reaches every format: a banner, claim marks on a
 * section, a generic table (a portfolio's), a fact shown as code (a ledger hash).
 */
function extended(): ReportView {
  const view = reportView(makeResult());
  view.notices.push({ key: 'blind', text: 'BLIND: the ticker and dates were hidden from the models', tone: 'warning' });
  const decision = view.sections.find((section) => section.id === 'decision')!;
  decision.claims = [
    { text: 'RSI 61', verdict: 'verified', source: 'indicators.rsi14' },
    { text: 'up 40% this month', verdict: 'contradicted', source: 'returns.m1', detail: 'the data says +8.00%' },
    { text: 'margins of 70%', verdict: 'unsourced' },
  ];
  view.sections.push({
    id: 'portfolio',
    key: 'portfolio',
    title: 'Orders',
    parts: [
      {
        kind: 'table',
        table: {
          key: 'orders',
          columns: [
            { key: 'ticker', label: 'Ticker' },
            { key: 'shares', label: 'Shares', numeric: true },
          ],
          rows: [['ACME', '120']],
        },
      },
    ],
  });
  const status = view.sections.find((section) => section.id === 'status')!;
  status.parts.push({
    kind: 'facts',
    key: 'ledger',
    facts: [{ key: 'ledger', label: 'Ledger entry', value: 'ab12cd34', code: true }],
  });
  return view;
}

describe('the view hooks reach every renderer', () => {
  const terminal = renderTerminalView(extended(), { color: false, unicode: true, width: 100 });
  const markdown = renderMarkdownView(extended());
  const html = renderHtmlView(extended());

  it('a notice opens each report', () => {
    expect(terminal.split('\n')[0]).toBe('BLIND: the ticker and dates were hidden from the models');
    expect(markdown).toContain('> **BLIND: the ticker and dates were hidden from the models**');
    expect(html).toContain(
      '<p class="banner" data-blind="">BLIND: the ticker and dates were hidden from the models</p>',
    );
  });

  it("claims are marked by verdict after their section's content", () => {
    expect(terminal).toContain('✓ RSI 61: verified (indicators.rsi14)');
    expect(terminal).toContain('✗ up 40% this month: contradicted (returns.m1; the data says +8.00%)');
    expect(terminal).toContain('? margins of 70%: unsourced');
    expect(terminal.indexOf('✓ RSI 61')).toBeLessThan(terminal.indexOf('── Plan'));
    expect(markdown).toContain('- ✗ up 40% this month: **contradicted** (returns.m1; the data says +8.00%)');
    expect(html).toContain('data-claim="contradicted"');
    expect(html).toContain('margins of 70%: <strong>unsourced</strong>');
  });

  it('a new section with a generic table, and a fact shown as code', () => {
    expect(terminal).toMatch(/── Orders ─+\n {2}Ticker {2}Shares\n {2}ACME {7}120\n/);
    expect(markdown).toContain('## Orders\n\n| Ticker | Shares |\n|---|---:|\n| ACME | 120 |');
    expect(html).toContain('<section id="portfolio"><h2>Orders</h2>');
    expect(html).toContain('<td>ACME</td><td class="number">120</td>');
    expect(terminal).toContain('\nLedger entry ab12cd34\n');
    expect(markdown).toContain('| Ledger entry | ab12cd34 |');
    expect(html).toContain('<dt>Ledger entry</dt><dd>ab12cd34</dd>');
  });
});
