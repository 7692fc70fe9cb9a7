import type { Bar } from '../market/types.js';

/**
 * A small chart of daily closes for the terminal. With `unicode`, an area chart in
 * eighth blocks (▁▂▃▄▅▆▇█) eight rows high; otherwise six rows of ASCII `*` that
 * survive any pipe, log file or Windows console. `color` paints the plot green when
 * the last close is at or above the first, red when below. Max and min label the top
 * and bottom rows; the first and last dates sit under the plot. Pure: same bars, same
 * string.
 */

export interface PriceChartOptions {
  /** Total width in columns, labels included. */
  width: number;
  color: boolean;
  unicode: boolean;
}

const blocks = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'] as const;
const minimumPlotWidth = 10;
const maximumPlotWidth = 120;

interface Close {
  date: string;
  value: number;
}

/** A year of sessions: what both charts (this one and chart.svg) show, so their date ranges agree. */
export const sessionsShown = 252;

function closesOf(bars: readonly Bar[]): Close[] {
  const closes: Close[] = [];
  for (const bar of bars) {
    const value = bar.close ?? bar.adjClose;
    if (typeof value === 'number' && Number.isFinite(value) && value > 0) closes.push({ date: bar.date, value });
  }
  return closes.slice(-sessionsShown);
}

function formatLevel(value: number): string {
  return value.toFixed(Math.abs(value) < 2 ? 4 : 2);
}

/** One value per column: the close at the end of each column's stretch of sessions. */
export function resample(values: readonly number[], columns: number): number[] {
  if (values.length <= columns) return [...values];
  const sampled: number[] = [];
  for (let column = 0; column < columns; column += 1) {
    const end = Math.floor(((column + 1) * values.length) / columns) - 1;
    sampled.push(values[Math.max(end, 0)]!);
  }
  return sampled;
}

function paint(text: string, color: boolean, rising: boolean): string {
  if (!color || text.trim() === '') return text;
  return `${rising ? '\u001b[32m' : '\u001b[31m'}${text}\u001b[39m`;
}

export function renderPriceChart(bars: readonly Bar[], options: PriceChartOptions): string {
  const closes = closesOf(bars);
  if (closes.length < 2) return '';
  const values = closes.map((close) => close.value);
  const high = Math.max(...values);
  const low = Math.min(...values);
  const highLabel = formatLevel(high);
  const lowLabel = formatLevel(low);
  const labelWidth = Math.max(highLabel.length, lowLabel.length);
  const axis = options.unicode ? ' ┤' : ' |';
  const rule = options.unicode ? ' │' : ' |';
  const available = Math.floor(options.width) - labelWidth - axis.length;
  const plotWidth = Math.min(Math.max(available, minimumPlotWidth), maximumPlotWidth, values.length);
  const sampled = resample(values, plotWidth);
  const rising = values[values.length - 1]! >= values[0]!;
  const span = high - low;
  const rows = options.unicode ? 8 : 6;

  const grid: string[][] = Array.from({ length: rows }, () => Array.from({ length: sampled.length }, () => ' '));
  sampled.forEach((value, column) => {
    const share = span === 0 ? 0.5 : (value - low) / span;
    if (options.unicode) {
      // Height in eighths of a row; at least one eighth so the lowest close still shows.
      const eighths = Math.max(1, Math.round(share * rows * 8));
      for (let row = 0; row < rows; row += 1) {
        const fill = Math.min(Math.max(eighths - (rows - 1 - row) * 8, 0), 8);
        if (fill > 0) grid[row]![column] = blocks[fill - 1]!;
      }
    } else {
      const row = rows - 1 - Math.round(share * (rows - 1));
      grid[row]![column] = '*';
    }
  });

  const lines = grid.map((cells, row) => {
    const labelled = row === 0 || row === rows - 1;
    const label = row === 0 ? highLabel : row === rows - 1 ? lowLabel : '';
    return `${label.padStart(labelWidth)}${labelled ? axis : rule}${paint(cells.join('').trimEnd(), options.color, rising)}`.trimEnd();
  });
  const first = closes[0]!.date;
  const last = closes[closes.length - 1]!.date;
  const gap = Math.max(sampled.length - first.length - last.length, 1);
  lines.push(`${' '.repeat(labelWidth + axis.length)}${first}${' '.repeat(gap)}${last}`);
  return `${lines.join('\n')}\n`;
}
