import { describe, expect, it } from 'vitest';
import type { Bar } from '../../src/market/types.js';
import { renderPriceChart, resample } from '../../src/report/chart.js';

function bars(closes: Array<number | null>): Bar[] {
  return closes.map((close, index) => ({
    date: new Date(Date.UTC(2025, 0, 1) + index * 86_400_000).toISOString().slice(0, 10),
    open: null,
    high: null,
    low: null,
    close,
    adjClose: null,
    volume: null,
  }));
}

const ansi = /\u001b\[\d+m/g;
const visible = (line: string) => line.replace(ansi, '');

describe('renderPriceChart', () => {
  it('plain text: six rows of *, max and min labels, first and last date', () => {
    // closes 10…60 step 10: each one row higher than the last, (close − 10) / 50 × 5 rows up
    expect(renderPriceChart(bars([10, 20, 30, 40, 50, 60]), { width: 80, color: false, unicode: false })).toBe(
      [
        '60.00 |     *',
        '      |    *',
        '      |   *',
        '      |  *',
        '      | *',
        '10.00 |*',
        '       2025-01-01 2025-01-06',
        '',
      ].join('\n'),
    );
  });

  it('skips sessions without a close', () => {
    const chart = renderPriceChart(bars([10, null, 60]), { width: 80, color: false, unicode: false });
    expect(chart.split('\n')[0]).toBe('60.00 | *');
    expect(chart.split('\n')[5]).toBe('10.00 |*');
  });

  it('on a colour terminal: eight rows of blocks, green when the year rose, red when it fell', () => {
    const rising = renderPriceChart(bars([10, 20, 30, 40, 50, 60]), { width: 80, color: true, unicode: true });
    const lines = rising.trimEnd().split('\n');
    expect(lines).toHaveLength(9);
    expect(lines[0]).toBe('60.00 ┤\u001b[32m     █\u001b[39m');
    expect(visible(lines[7]!)).toBe('10.00 ┤▁█████');
    const falling = renderPriceChart(bars([60, 10]), { width: 80, color: true, unicode: true });
    expect(falling).toContain('\u001b[31m');
    expect(falling).not.toContain('\u001b[32m');
  });

  it('no colour codes when colour is off, even with block characters', () => {
    expect(renderPriceChart(bars([10, 20, 30]), { width: 80, color: false, unicode: true })).not.toMatch(ansi);
  });

  it('fits the width: a year of closes is resampled to the columns there are', () => {
    const year = bars(Array.from({ length: 250 }, (_, index) => 100 + Math.sin(index / 10) * 10));
    for (const width of [40, 60, 100]) {
      for (const unicode of [false, true]) {
        const lines = renderPriceChart(year, { width, color: unicode, unicode }).trimEnd().split('\n');
        for (const line of lines) expect(visible(line).length).toBeLessThanOrEqual(width);
      }
    }
  });

  it('nothing to draw with fewer than two closes', () => {
    expect(renderPriceChart(bars([42]), { width: 80, color: false, unicode: false })).toBe('');
    expect(renderPriceChart([], { width: 80, color: true, unicode: true })).toBe('');
  });

  it('resample keeps the close at the end of each column’s stretch', () => {
    expect(resample([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 5)).toEqual([2, 4, 6, 8, 10]);
    expect(resample([1, 2, 3], 5)).toEqual([1, 2, 3]);
  });
});
