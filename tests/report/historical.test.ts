import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/report/html.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { makeResult } from '../support/results.js';

/** A historical run's reports open with one line saying so; a live one's do not. */

const historical = makeResult({
  asOf: '2024-03-01T21:00:00.000Z',
  asOfMode: 'historical',
  contamination: { label: 'contaminated', models: [{ model: 'gpt-4.1', cutoff: '2024-06-30' }], reason: 'x' },
});
const line =
  'HISTORICAL — as of the 2024-03-01 US market close; no market data from after it · CONTAMINATED: the model was trained after this day and may remember what happened next';

describe('the historical banner', () => {
  it('in the terminal (ASCII without unicode), report.md and report.html', () => {
    expect(renderTerminal(historical, { color: false, unicode: true, width: 200 })).toContain(line);
    expect(renderTerminal(historical, { color: false, unicode: false, width: 200 })).toContain(
      line.replace(' — ', ' - ').replace(' · ', ' - '),
    );
    expect(renderMarkdown(historical)).toContain(`> **${line}**`);
    expect(renderHtml(historical)).toContain(`<p class="banner" data-historical="">${line}</p>`);
  });

  it('clean and unknown say so; a live run (or an old one without the field) has none', () => {
    expect(
      renderMarkdown({ ...historical, contamination: { ...historical.contamination!, label: 'clean' } }),
    ).toContain('· clean: after the training cutoff of every model used');
    expect(renderMarkdown({ ...historical, contamination: undefined })).toContain('· contamination unknown');
    for (const live of [makeResult({ asOfMode: 'live' }), makeResult()]) {
      expect(renderMarkdown(live)).not.toContain('HISTORICAL');
      expect(renderHtml(live)).not.toContain('data-historical');
    }
  });
});
