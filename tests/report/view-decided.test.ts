import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/report/html.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { claimWhere, factsOf, reportView } from '../../src/report/view.js';
import { makeDecision, makeReport, makeResult } from '../support/results.js';

/**
 * What the renderers would otherwise each decide is decided in the view: how full the
 * conviction bar is, how much of a tool call's arguments a file report shows, and where
 * a claim was checked.
 */
describe('decided in the view, serialised by the renderers', () => {
  const conviction = (value: number) => {
    const result = makeResult({ decision: makeDecision({ conviction: value }) });
    const decision = reportView(result).sections.find((section) => section.id === 'decision')!;
    return { fact: factsOf(decision).find((fact) => fact.key === 'conviction')!, html: renderHtml(result) };
  };

  it.each([
    [72, 72, '72%'],
    [72.6, 72.6, '73%'],
    [-5, 0, '0%'],
    [140, 100, '100%'],
    [Number.NaN, 0, '0%'],
  ])('conviction %s fills the bar to %s (HTML width %s)', (value, bar, width) => {
    const { fact, html } = conviction(value);
    expect(fact.bar).toBe(bar);
    expect(html).toContain(`<div class="conviction" aria-hidden="true"><span style="width:${width}"></span></div>`);
  });

  it("a long tool call's arguments are cut to one excerpt in report.md and report.html, uncut for the terminal", () => {
    const long = JSON.stringify({ query: 'ACME '.repeat(100) });
    const call = { id: 'call_1', name: 'exa_search', arguments: long, result: '[]', error: null, durationMs: 5 };
    const result = makeResult({ reports: [makeReport('sentiment', { toolCalls: [call] })] });
    const desks = reportView(result).sections.find((section) => section.id === 'desks')!;
    const part = desks.subsections![0]!.parts.find((item) => item.kind === 'tool-calls');
    if (part?.kind !== 'tool-calls') throw new Error('no tool calls in the desk section');
    const [line] = part.calls;
    expect(line!.arguments).toBe(long);
    expect(line!.excerpt).toBe(`${long.slice(0, 200)}… [+${long.length - 200} chars]`);
    expect(renderHtml(result)).toContain(`<code>${line!.excerpt.replace(/"/g, '&quot;')}</code>`);
    expect(renderMarkdown(result)).toContain(`\`${line!.excerpt}\``);
  });

  it.each([
    [{ source: 'returns.m1', detail: 'the data says +8.00%' }, 'returns.m1; the data says +8.00%'],
    [{ source: 'indicators.rsi14' }, 'indicators.rsi14'],
    [{}, ''],
  ])('a claim checked at %j reads "%s"', (where, text) => {
    expect(claimWhere({ text: 'RSI 61', verdict: 'verified', ...where })).toBe(text);
  });
});
