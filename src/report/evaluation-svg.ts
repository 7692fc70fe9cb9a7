import { escapeHtml } from './escape.js';
import { chartColors } from './svg-chart.js';

/**
 * The charts of evaluation.html, drawn like the run report's price chart: pure,
 * self-contained SVG with presentation attributes, no script and no library. Each is
 * drawn at a given width (the page draws it wide and narrow, and CSS shows one), and
 * every drawn number is also an attribute (`data-final`, `data-value`, `data-n`), so a
 * test can hold the picture to the evaluation's JSON.
 */

export interface LineSeries {
  key: string;
  label: string;
  color: string;
  dashed?: boolean;
  /** Cumulative values, one per position, in decision order. */
  values: number[];
}

export interface BarItem {
  key: string;
  label: string;
  /** A fraction (0.62 for 62 %), or null when there is nothing to draw. */
  value: number | null;
  interval?: { low: number; high: number } | null;
  /** Shown under the bar: how many it stands on. */
  n: number;
}

interface Size {
  width: number;
  height: number;
}

const font = `font-family="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"`;
const percent = (value: number, digits = 1) => `${value > 0 ? '+' : ''}${(value * 100).toFixed(digits)}%`;

function ticks(low: number, high: number, count = 4): number[] {
  const raw = (high - low) / count || 0.01;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= raw) ?? raw;
  const values: number[] = [];
  for (let value = Math.ceil(low / step) * step; value <= high + step * 1e-9; value += step)
    values.push(Number(value.toPrecision(12)));
  return values;
}

function svgOpen(size: Size, label: string, kind: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size.width} ${size.height}" width="${size.width}" height="${size.height}" role="img" aria-label="${escapeHtml(label)}" data-chart="${kind}" ${font}><title>${escapeHtml(label)}</title><rect width="${size.width}" height="${size.height}" fill="#ffffff"/>`;
}

/** Cumulative return lines from 0 at the start, one per series; '' when no series has a point. */
export function cumulativeChart(series: readonly LineSeries[], label: string, size: Size): string {
  const drawn = series.filter((item) => item.values.length > 0);
  if (drawn.length === 0) return '';
  const narrow = size.width < 500;
  const margin = {
    top: 12,
    right: narrow ? 8 : 175,
    bottom: narrow ? 24 + 16 * Math.ceil(drawn.length / 2) : 26,
    left: 52,
  };
  const points = Math.max(...drawn.map((item) => item.values.length));
  const all = [0, ...drawn.flatMap((item) => item.values)];
  const pad = (Math.max(...all) - Math.min(...all)) * 0.08 || 0.01;
  const low = Math.min(...all) - pad;
  const high = Math.max(...all) + pad;
  const left = margin.left;
  const right = size.width - margin.right;
  const top = margin.top;
  const bottom = size.height - margin.bottom;
  const x = (index: number) => left + (index / Math.max(points, 1)) * (right - left);
  const y = (value: number) => bottom - ((value - low) / (high - low)) * (bottom - top);
  const parts = [svgOpen(size, label, 'cumulative')];
  for (const value of ticks(low, high)) {
    const at = y(value).toFixed(1);
    parts.push(
      `<line x1="${left}" x2="${right}" y1="${at}" y2="${at}" stroke="${value === 0 ? '#9ca3af' : chartColors.grid}" stroke-width="1"/>`,
      `<text x="${left - 6}" y="${at}" text-anchor="end" dominant-baseline="middle" font-size="11" fill="${chartColors.text}">${percent(value, 0)}</text>`,
    );
  }
  parts.push(
    `<text x="${(left + right) / 2}" y="${bottom + 16}" text-anchor="middle" font-size="11" fill="${chartColors.text}">positions in decision order (${points})</text>`,
  );
  drawn.forEach((item, index) => {
    const path = [0, ...item.values]
      .map((value, step) => `${step === 0 ? 'M' : 'L'}${x(step).toFixed(1)},${y(value).toFixed(1)}`)
      .join(' ');
    const final = item.values[item.values.length - 1]!;
    parts.push(
      `<path data-series="${escapeHtml(item.key)}" data-final="${final}" data-points="${item.values.length}" d="${path}" fill="none" stroke="${item.color}" stroke-width="${item.key === 'desks' ? 2.5 : 1.5}"${item.dashed ? ' stroke-dasharray="5 3"' : ''}/>`,
    );
    parts.push(legendEntry(item, final, index, { narrow, right, bottom, top, y: y(final) }));
  });
  parts.push('</svg>');
  return parts.join('\n');
}

function legendEntry(
  item: LineSeries,
  final: number,
  index: number,
  place: { narrow: boolean; right: number; bottom: number; top: number; y: number },
): string {
  const text = `${escapeHtml(item.label)} ${percent(final)}`;
  if (place.narrow) {
    const column = index % 2;
    const row = Math.floor(index / 2);
    const lx = 8 + column * 180;
    const ly = place.bottom + 34 + row * 16;
    return `<g data-legend="${escapeHtml(item.key)}"><line x1="${lx}" x2="${lx + 14}" y1="${ly}" y2="${ly}" stroke="${item.color}" stroke-width="2"${item.dashed ? ' stroke-dasharray="5 3"' : ''}/><text x="${lx + 18}" y="${ly}" dominant-baseline="middle" font-size="11" fill="${chartColors.text}">${text}</text></g>`;
  }
  const ly = place.top + 8 + index * 16;
  return `<g data-legend="${escapeHtml(item.key)}"><line x1="${place.right + 8}" x2="${place.right + 22}" y1="${ly}" y2="${ly}" stroke="${item.color}" stroke-width="2"${item.dashed ? ' stroke-dasharray="5 3"' : ''}/><text x="${place.right + 26}" y="${ly}" dominant-baseline="middle" font-size="11" fill="${chartColors.text}">${text}</text></g>`;
}

/**
 * Vertical bars of a rate from 0 to 100 %, each with its 95 % interval as a whisker
 * when it has one, its value above and its count below; a dotted line at 50 %.
 */
export function rateBarChart(bars: readonly BarItem[], label: string, size: Size): string {
  if (bars.length === 0) return '';
  const margin = { top: 18, right: 8, bottom: 40, left: 40 };
  const left = margin.left;
  const right = size.width - margin.right;
  const top = margin.top;
  const bottom = size.height - margin.bottom;
  const y = (value: number) => bottom - value * (bottom - top);
  const slot = (right - left) / bars.length;
  const barWidth = Math.min(slot * 0.6, 70);
  const parts = [svgOpen(size, label, 'rate')];
  for (const value of [0, 0.25, 0.5, 0.75, 1]) {
    const at = y(value).toFixed(1);
    parts.push(
      `<line x1="${left}" x2="${right}" y1="${at}" y2="${at}" stroke="${value === 0.5 ? '#9ca3af' : chartColors.grid}" stroke-width="1"${value === 0.5 ? ' stroke-dasharray="2 3"' : ''}/>`,
      `<text x="${left - 6}" y="${at}" text-anchor="end" dominant-baseline="middle" font-size="11" fill="${chartColors.text}">${value * 100}%</text>`,
    );
  }
  bars.forEach((bar, index) => {
    const center = left + slot * (index + 0.5);
    parts.push(barGroup(bar, center, barWidth, { y, bottom }));
  });
  parts.push('</svg>');
  return parts.join('\n');
}

function barGroup(
  bar: BarItem,
  center: number,
  width: number,
  frame: { y: (value: number) => number; bottom: number },
): string {
  const { y, bottom } = frame;
  const inner: string[] = [];
  if (bar.value !== null) {
    const at = y(bar.value);
    inner.push(
      `<rect x="${(center - width / 2).toFixed(1)}" y="${at.toFixed(1)}" width="${width.toFixed(1)}" height="${(bottom - at).toFixed(1)}" fill="${chartColors.close}" opacity="0.85"/>`,
    );
    if (bar.interval) {
      const [low, high] = [y(bar.interval.low), y(bar.interval.high)];
      inner.push(
        `<line data-interval="${bar.interval.low} ${bar.interval.high}" x1="${center}" x2="${center}" y1="${low.toFixed(1)}" y2="${high.toFixed(1)}" stroke="#111827" stroke-width="1.5"/>`,
        `<line x1="${center - 6}" x2="${center + 6}" y1="${low.toFixed(1)}" y2="${low.toFixed(1)}" stroke="#111827" stroke-width="1.5"/>`,
        `<line x1="${center - 6}" x2="${center + 6}" y1="${high.toFixed(1)}" y2="${high.toFixed(1)}" stroke="#111827" stroke-width="1.5"/>`,
      );
    }
    const labelY = bar.interval ? Math.min(at, y(bar.interval.high)) - 4 : at - 4;
    inner.push(
      `<text x="${center + (bar.interval ? 8 : 0)}" y="${Math.max(labelY, 11).toFixed(1)}" text-anchor="${bar.interval ? 'start' : 'middle'}" font-size="11" font-weight="600" fill="${chartColors.text}">${Math.round(bar.value * 100)}%</text>`,
    );
  } else {
    inner.push(
      `<text x="${center}" y="${bottom - 4}" text-anchor="middle" font-size="11" fill="${chartColors.asOf}">none</text>`,
    );
  }
  inner.push(
    `<text x="${center}" y="${bottom + 14}" text-anchor="middle" font-size="11" fill="${chartColors.text}">${escapeHtml(bar.label)}</text>`,
    `<text x="${center}" y="${bottom + 28}" text-anchor="middle" font-size="11" fill="${chartColors.asOf}">n ${bar.n}</text>`,
  );
  return `<g data-bar="${escapeHtml(bar.key)}" data-value="${bar.value ?? ''}" data-n="${bar.n}">${inner.join('')}</g>`;
}
