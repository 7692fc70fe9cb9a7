import { describe, expect, test } from 'vitest';
import { renderMarkdown } from '../../src/report/markdown.js';
import { makeDecision, makeReport, makeResult, sampleRunId } from '../support/results.js';

describe('renderMarkdown', () => {
  test('an ok run: title, decision table, guardrails by severity, desks, sources, usage, status', () => {
    const markdown = renderMarkdown(makeResult());
    const lines = markdown.split('\n');

    expect(lines[0]).toBe('# Acme Robotics Corp (ACME): BUY, conviction 72/100');
    expect(markdown).toContain(
      `Run \`${sampleRunId}\` · as of 2026-11-27 21:00 UTC · status **ok** · mode full (Director and four desks) · wall time 42.1 s`,
    );
    expect(markdown).toContain(
      [
        '| Action | Conviction | Size | Order | Horizon | Entry | Stop loss | Take profit | Reward / risk |',
        '|---|---|---|---|---|---|---|---|---|',
        '| **BUY** | 72/100 | 5.0% | limit | 3-6 months | 180.00 | 168.00 | 205.00 | 2.08 |',
      ].join('\n'),
    );
    expect(markdown).toContain('**Rationale.** Momentum and earnings revisions agree; the risk desk caps the size.');
    expect(markdown).toContain('- Valuation is stretched after a 90% year\n- Export restrictions');
    expect(markdown).toContain('**Dissent.** Risk preferred 3% until the next earnings report.');
    // Warnings before infos, whatever order the guardrails produced them in.
    expect(markdown).toContain(
      '## Guardrails\n\n- **warning** `entry-distance`: Entry 180.00 is 0.6 ATR from the last close.\n- **info** `reward-risk`: Reward/risk is 2.08.',
    );
    for (const desk of ['Quant', 'Risk', 'Execution', 'Sentiment']) expect(lines).toContain(`### ${desk}`);
    expect(markdown).toContain('1. `exa_search` `{"query":"ACME news","numResults":2,"daysBack":30}` (820 ms)');
    expect(markdown).toContain(
      [
        '## Sources cited by Sentiment',
        '',
        '- [Acme beats on revenue](https://news.example.com/acme-beats)',
        '- [Export rules tighten](https://wire.example.org/export-rules) (search result, not cited in the text)',
      ].join('\n'),
    );
    expect(markdown).toContain('| sentiment | gpt-4o-mini | 2,400 | 1,024 | 350 | $0.0005 |');
    expect(markdown).toContain('| **Total** | | **9,600** | **1,024** | **1,850** | **$0.0412** |');
    expect(markdown).toContain(
      '## Status\n\n| Status | Started | Took |\n|---|---|---|\n| ok | 2026-11-27 21:00 UTC | 42.1 s |',
    );
    expect(markdown).not.toContain('## Warnings');
    expect(markdown).not.toContain('DEMO');
    expect(markdown.endsWith('_Not investment advice: autohedge never places an order._\n')).toBe(true);
  });

  test('a demo run carries the banner', () => {
    expect(renderMarkdown(makeResult({ demo: true }))).toContain(
      '> **DEMO — synthetic data, scripted analyses; not investment advice**',
    );
  });

  test('a degraded run names the failed desk, its error, and the warnings', () => {
    const result = makeResult({
      status: 'degraded',
      reports: [
        makeReport('quant'),
        makeReport('risk', { status: 'failed', text: '', error: 'model call timed out after 60 s' }),
      ],
      warnings: ['risk failed: model call timed out after 60 s'],
    });
    const markdown = renderMarkdown(result);
    expect(markdown).toContain(
      '### Risk\n\n**failed** · gpt-4.1 · 4.2 s\n\n**Error.** model call timed out after 60 s',
    );
    expect(markdown).toContain('## Warnings\n\n- risk failed: model call timed out after 60 s');
    expect(markdown).toContain('| degraded | 2026-11-27 21:00 UTC |');
    expect(markdown).toContain('**Failed desks.** Risk.');
  });

  test('a failed run without a decision says why', () => {
    const markdown = renderMarkdown(
      makeResult({ status: 'failed', decision: null, guardrails: [], error: 'every worker failed' }),
    );
    expect(markdown.split('\n')[0]).toBe('# Acme Robotics Corp (ACME): no decision');
    expect(markdown).toContain('## Decision\n\nNo decision: every worker failed.');
    expect(markdown).toContain('## Guardrails\n\nNo decision was checked: the run made none.');
    expect(markdown).not.toContain('No findings.');
    expect(markdown).toContain('**Error.** every worker failed');
  });

  test('agents mode has no decision, plan or guardrail sections', () => {
    const markdown = renderMarkdown(
      makeResult({ mode: 'agents', plan: null, decision: null, guardrails: [], reports: [makeReport('sentiment')] }),
    );
    expect(markdown.split('\n')[0]).toBe('# Acme Robotics Corp (ACME): desk reports');
    expect(markdown).not.toContain('## Decision');
    expect(markdown).not.toContain('## Plan');
    expect(markdown).not.toContain('## Guardrails');
    expect(markdown).toContain('mode selected desks only (no Director)');
  });

  test('an unknown price shows tokens and "cost unknown", never a number', () => {
    const result = makeResult();
    result.usage.costUsd = null;
    result.usage.byAgent.sentiment!.costUsd = null;
    result.usage.byAgent.sentiment!.model = 'my-local-model';
    const markdown = renderMarkdown(result);
    expect(markdown).toContain('| sentiment | my-local-model | 2,400 | 1,024 | 350 | cost unknown |');
    expect(markdown).toContain('| **Total** | | **9,600** | **1,024** | **1,850** | **cost unknown** |');
    expect(markdown).toContain('Cost unknown: at least one model has no known price');
  });

  test('no market data is said plainly', () => {
    const markdown = renderMarkdown(makeResult({ market: null }));
    expect(markdown.split('\n')[0]).toBe('# ACME: BUY, conviction 72/100');
    expect(markdown).toContain('## Market\n\nMarket data was not available for this run');
  });

  test("a desk's own headings are demoted below the report's, table cells escape pipes", () => {
    const result = makeResult({
      reports: [makeReport('quant', { text: '# Technicals\n\nUp.\n\n```\n# not a heading\n```' })],
      decision: makeDecision({ timeHorizon: '1 | 2 weeks' }),
    });
    const markdown = renderMarkdown(result);
    expect(markdown).toContain('#### Technicals');
    expect(markdown).toContain('```text\n# not a heading\n```');
    expect(markdown).toContain('| 1 \\| 2 weeks |');
  });
});
