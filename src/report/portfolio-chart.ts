import type { PortfolioPlan, Target } from '../portfolio/types.js';
import { escapeHtml } from './escape.js';
import { formatNumber } from './format.js';

/**
 * The weights chart of a proposed book: per name a grey bar (weight now) and a blue bar
 * (target weight), each on its own line and labelled with its own value at its own end,
 * so a label never sits by the other bar and two labels never share a line. A zero weight
 * is a thin tick at the axis with its "0.00%" beside it.
 *
 * Two layouts of one drawing: wide (weights.svg, and report.html on a screen: the tickers
 * in a column left of the bars) and narrow (report.html on a phone: each ticker on its own
 * line above its bars, drawn at a phone's width so the text is not shrunk below ~10 px,
 * as the run report's and the track record's narrow charts are).
 */

export interface WeightsLayout {
  name: 'wide' | 'narrow';
  width: number;
  /** The ticker column left of the bars; 0 puts each ticker on its own line above its bars. */
  tickerColumn: number;
  tickerSize: number;
  labelSize: number;
  barHeight: number;
}

export const wideWeights: WeightsLayout = {
  name: 'wide',
  width: 640,
  tickerColumn: 90,
  tickerSize: 12,
  labelSize: 11,
  barHeight: 11,
};

export const narrowWeights: WeightsLayout = {
  name: 'narrow',
  width: 360,
  tickerColumn: 0,
  tickerSize: 13,
  labelSize: 12,
  barHeight: 12,
};

const colors = { now: '#9ca3af', target: '#1f4e9c', text: '#374151', grid: '#d1d5db' } as const;
/** Room between a bar's end and its label, and around the plot. */
const gap = 4;

export const weightText = (value: number) => `${formatNumber(value, 2)}%`;

/** A generous width for text in system-ui (digits ≈ 0.55 em), so a label is never cut at the edge. */
const textWidth = (text: string, size: number) => Math.ceil(text.length * size * 0.62);
const fixed = (value: number) => value.toFixed(1);

type Bar = 'now' | 'target';

interface Geometry {
  layout: WeightsLayout;
  /** Vertical distance between the tops of a name's two bars: a label's line. */
  pitch: number;
  /** Height of the ticker's own line in the narrow layout. */
  tickerLine: number;
  rowHeight: number;
  top: number;
  height: number;
  x: (value: number) => number;
}

function geometry(rows: Target[], layout: WeightsLayout): Geometry {
  const values = rows.flatMap((row) => [row.currentWeight, row.targetWeight]);
  const low = Math.min(0, ...values);
  const high = Math.max(0, ...values);
  const reserve = Math.max(...values.map((value) => textWidth(weightText(value), layout.labelSize))) + gap * 2;
  // Labels of positive (and zero) bars go right of the bar's end, of negative ones left of it.
  const plotLeft = layout.tickerColumn + gap + (low < 0 ? reserve : 0);
  const plotRight = layout.width - reserve;
  const span = high - low || 1;
  const pitch = Math.max(layout.barHeight, layout.labelSize) + gap;
  const tickerLine = layout.tickerColumn === 0 ? layout.tickerSize + gap + 2 : 0;
  const rowHeight = tickerLine + pitch * 2 + gap * 2;
  const top = layout.labelSize + gap * 4;
  return {
    layout,
    pitch,
    tickerLine,
    rowHeight,
    top,
    height: top + rows.length * rowHeight,
    x: (value) => plotLeft + ((value - low) / span) * (plotRight - plotLeft),
  };
}

/** One bar and its own label, `y` its top. */
function barSvg(shape: Geometry, ticker: string, bar: Bar, value: number, y: number): string {
  const { layout, x } = shape;
  const zero = x(0);
  const end = x(value);
  // A zero weight is drawn as a tick so the bar is still seen at the axis.
  const length = Math.max(Math.abs(end - zero), 2);
  const start = value < 0 ? end : zero;
  const label = weightText(value);
  const labelX = value < 0 ? end - gap : zero + length + gap;
  const baseline = y + layout.barHeight / 2 + layout.labelSize * 0.35;
  const data = `data-ticker="${escapeHtml(ticker)}" data-bar="${bar}"`;
  return [
    `<rect ${data} data-value="${value}" x="${fixed(start)}" y="${fixed(y)}" width="${fixed(length)}" height="${layout.barHeight}" fill="${colors[bar]}">`,
    `<title>${escapeHtml(`${ticker} ${bar} ${label}`)}</title></rect>`,
    `<text ${data} x="${fixed(labelX)}" y="${fixed(baseline)}" text-anchor="${value < 0 ? 'end' : 'start'}" font-size="${layout.labelSize}" fill="${colors.text}">${escapeHtml(label)}</text>`,
  ].join('');
}

function rowSvg(shape: Geometry, row: Target, index: number): string {
  const { layout, pitch, tickerLine } = shape;
  const rowTop = shape.top + index * shape.rowHeight;
  const barsTop = rowTop + tickerLine;
  const ticker =
    layout.tickerColumn === 0
      ? { x: gap, y: rowTop + layout.tickerSize, anchor: 'start' }
      : {
          x: layout.tickerColumn - gap * 2,
          y: barsTop + (pitch + layout.barHeight) / 2 + layout.tickerSize * 0.35,
          anchor: 'end',
        };
  return [
    `<text x="${fixed(ticker.x)}" y="${fixed(ticker.y)}" text-anchor="${ticker.anchor}" font-size="${layout.tickerSize}" font-weight="600" fill="${colors.text}">${escapeHtml(row.ticker)}</text>`,
    barSvg(shape, row.ticker, 'now', row.currentWeight, barsTop),
    barSvg(shape, row.ticker, 'target', row.targetWeight, barsTop + pitch),
  ].join('');
}

function legendSvg(layout: WeightsLayout): string {
  const size = layout.labelSize;
  const baseline = size + gap;
  let left = layout.tickerColumn === 0 ? gap : layout.tickerColumn;
  const items = (['now', 'target'] as const).map((bar) => {
    const item = `<rect x="${left}" y="${baseline - size * 0.8}" width="${size}" height="${size * 0.8}" fill="${colors[bar]}"/><text x="${left + size + gap}" y="${baseline}" font-size="${size}" fill="${colors.text}">${bar}</text>`;
    left += size + gap + textWidth(bar, size) + gap * 3;
    return item;
  });
  return items.join('');
}

/** The chart as an SVG document, or null when no name has a weight now or after. */
export function renderWeightsSvg(plan: PortfolioPlan, layout: WeightsLayout = wideWeights): string | null {
  const rows = plan.targets.filter((target) => target.currentWeight !== 0 || target.targetWeight !== 0);
  if (rows.length === 0) return null;
  const shape = geometry(rows, layout);
  const zero = fixed(shape.x(0));
  const title = `weights-title-${layout.name}`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${layout.width} ${shape.height}" width="${layout.width}" height="${shape.height}" role="img" aria-labelledby="${title}" data-layout="${layout.name}">`,
    `<title id="${title}">Weight now (grey) and target weight (blue) per name, percent of NAV</title>`,
    `<line x1="${zero}" y1="${shape.top - gap}" x2="${zero}" y2="${shape.height - gap}" stroke="${colors.grid}"/>`,
    legendSvg(layout),
    ...rows.map((row, index) => rowSvg(shape, row, index)),
    '</svg>',
    '',
  ].join('\n');
}

/** The figure of report.html: both layouts, the shared stylesheet shows one (`.chart-wide` / `.chart-narrow`). */
export function weightsFigure(plan: PortfolioPlan): string {
  const wide = renderWeightsSvg(plan, wideWeights);
  const narrow = renderWeightsSvg(plan, narrowWeights);
  if (wide === null || narrow === null) return '';
  return [
    '<figure class="chart" id="weights">',
    `<div class="chart-wide">${wide}</div>`,
    `<div class="chart-narrow">${narrow}</div>`,
    `<figcaption class="meta">${escapeHtml('Weight now (grey) and target (blue) per name, % of NAV')}</figcaption>`,
    '</figure>',
  ].join('\n');
}
