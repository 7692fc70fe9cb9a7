import { marked } from 'marked';
import { describe, expect, test } from 'vitest';
import { renderMarkdown } from '../../src/report/markdown.js';
import { makeReport, makeResult } from '../support/results.js';

/**
 * report.md as a markdown viewer shows it: rendered with a GitHub-flavoured parser
 * (marked), the desks keep their sections and lines, sources appear once, and the
 * levels and indicator tables are real tables.
 */

const quantText = [
  'TREND',
  'Last close 141.85 above SMA50.',
  'Returns: 1 week +0.22 %.',
  '',
  'SCORES (0 to 1)',
  'Trend 0.80.',
  'Momentum 0.59.',
  '---',
].join('\n');

const sentimentText = [
  'SENTIMENT SCORE',
  '0.68, mostly positive.',
  '',
  'SOURCES',
  '1. Acme beats on revenue — https://news.example.com/acme-beats',
].join('\n');

function rendered() {
  const result = makeResult({
    reports: [makeReport('quant', { text: quantText }), makeReport('sentiment', { text: sentimentText })],
  });
  const markdown = renderMarkdown(result, { chartFile: 'chart.svg' });
  return { markdown, html: marked.parse(markdown, { gfm: true, async: false }) };
}

describe('report.md in a markdown viewer', () => {
  test("each desk's sections are headings and its lines stay lines", () => {
    const { html } = rendered();
    expect(html).toContain('<h4>TREND</h4>');
    expect(html).toContain('<h4>SCORES (0 to 1)</h4>');
    expect(html).toMatch(/<p>Last close 141\.85 above SMA50\.<br>\s*Returns: 1 week \+0\.22 %\.<\/p>/);
    expect(html).toMatch(/<p>Trend 0\.80\.<br>\s*Momentum 0\.59\.<br>\s*---<\/p>/);
    // A stray "---" is text, not a rule turning the line above into a heading.
    expect(html).not.toContain('<h2>Trend 0.80.');
  });

  test('sources are shown once, as links in their own section', () => {
    const { html, markdown } = rendered();
    expect(markdown.split('https://news.example.com/acme-beats').length - 1).toBe(1);
    expect(html).toContain('<a href="https://news.example.com/acme-beats">Acme beats on revenue</a>');
    expect(html).not.toContain('<h4>SOURCES</h4>');
  });

  test('levels and key indicators are tables; the chart is an image beside the report', () => {
    const { html } = rendered();
    expect(html).toMatch(/<th>Level<\/th>\s*<th align="right">Price<\/th>/);
    expect(html).toMatch(
      /<td>Take profit<\/td>\s*<td align="right">205\.00<\/td>\s*<td>entry<\/td>\s*<td align="right">\+25\.00<\/td>/,
    );
    expect(html).toMatch(/<th>Reward \/ risk<\/th>/);
    expect(html).toMatch(/<td>SMA 200<\/td>\s*<td>140\.00 \(close \+30\.40%\)<\/td>/);
    expect(html).toContain('<img src="chart.svg"');
    expect(html).toContain('<h3>The Director&#39;s briefs</h3>');
  });

  test('untrusted text cannot become HTML or a script link', () => {
    const result = makeResult({
      reports: [makeReport('quant', { text: 'TREND\n<script>alert(1)</script> [x](javascript:alert(2))' })],
    });
    const html = marked.parse(renderMarkdown(result), { gfm: true, async: false });
    expect(html).not.toContain('<script');
    expect(html).not.toContain('href="javascript:');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});
