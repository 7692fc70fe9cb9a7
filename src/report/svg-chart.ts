import type { Bar } from '../market/types.js';
import { sessionsShown } from './chart.js';
import { escapeHtml } from './escape.js';

/**
 * The price chart of report.html and chart.svg: a year of daily closes, the 50- and
 * 200-session simple moving averages, the decision's entry / stop / target as
 * labelled horizontal lines, and the run's as-of day as a vertical line. Time runs
 * along x by calendar day, so an as-of day after the last session still has a place.
 * Pure, self-contained SVG with presentation attributes (no CSS classes needed), so
 * the same string works inline in HTML and as a file a markdown viewer shows.
 */

export interface ChartLevels {
  entry: number | null;
  stopLoss: number | null;
  takeProfit: number | null;
}

export interface SvgChartOptions {
  /** ISO instant of the run's clock. */
  asOf: string;
  levels?: ChartLevels | null;
  /** For the accessible title: "ACME", "Acme Robotics Corp (ACME)". */
  title: string;
  currency?: string | null;
  width?: number;
  height?: number;
  /** Draw the title as text above the plot: chart.svg alone has no page around it to say what it shows. */
  heading?: boolean;
}

interface Close {
  day: number;
  date: string;
  value: number;
}

const dayMs = 86_400_000;
const margin = { top: 16, right: 96, bottom: 28, left: 56 };
/** The room a drawn title takes above the plot. */
const headingHeight = 22;
export const chartColors = {
  close: '#1f4e9c',
  sma50: '#d97706',
  sma200: '#7c3aed',
  entry: '#2563eb',
  stopLoss: '#dc2626',
  takeProfit: '#16a34a',
  asOf: '#6b7280',
  grid: '#e5e7eb',
  text: '#374151',
} as const;

function closesOf(bars: readonly Bar[]): Close[] {
  const closes: Close[] = [];
  for (const bar of bars) {
    const value = bar.close ?? bar.adjClose;
    const day = Date.parse(`${bar.date}T00:00:00Z`);
    if (typeof value === 'number' && Number.isFinite(value) && value > 0 && Number.isFinite(day)) {
      closes.push({ day: day / dayMs, date: bar.date, value });
    }
  }
  return closes;
}

/** The trailing mean of `period` closes at each close; null until there are enough. */
export function movingAverageSeries(values: readonly number[], period: number): Array<number | null> {
  const series: Array<number | null> = [];
  let sum = 0;
  values.forEach((value, index) => {
    sum += value;
    if (index >= period) sum -= values[index - period]!;
    series.push(index >= period - 1 ? sum / period : null);
  });
  return series;
}

function finite(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0;
}

function levelValue(value: number | null | undefined): string {
  return value === null || value === undefined ? '' : value.toFixed(Math.abs(value) < 2 ? 4 : 2);
}

/** Round tick steps (1, 2, 2.5, 5 × 10^n) giving about `count` grid lines. */
function ticks(low: number, high: number, count = 5): number[] {
  const raw = (high - low) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= raw) ?? raw;
  const values: number[] = [];
  for (let value = Math.ceil(low / step) * step; value <= high + step * 1e-9; value += step)
    values.push(Number(value.toPrecision(12)));
  return values;
}

interface Frame {
  x(day: number): number;
  y(value: number): number;
  width: number;
  height: number;
  plotLeft: number;
  plotRight: number;
  plotTop: number;
  plotBottom: number;
  low: number;
  high: number;
}

function frameFor(
  closes: Close[],
  extraValues: number[],
  lastDay: number,
  size: { width: number; height: number; top: number },
): Frame {
  const { width, height } = size;
  const values = [...closes.map((close) => close.value), ...extraValues];
  let low = Math.min(...values);
  let high = Math.max(...values);
  const padding = (high - low) * 0.06 || Math.max(high * 0.02, 0.01);
  low -= padding;
  high += padding;
  const firstDay = closes[0]!.day;
  const plotLeft = margin.left;
  const plotRight = width - margin.right;
  const plotTop = size.top;
  const plotBottom = height - margin.bottom;
  const span = Math.max(lastDay - firstDay, 1);
  return {
    x: (day) => plotLeft + ((day - firstDay) / span) * (plotRight - plotLeft),
    y: (value) => plotBottom - ((value - low) / (high - low)) * (plotBottom - plotTop),
    width,
    height,
    plotLeft,
    plotRight,
    plotTop,
    plotBottom,
    low,
    high,
  };
}

function path(points: Array<[number, number]>): string {
  return points.map(([x, y], index) => `${index === 0 ? 'M' : 'L'}${x.toFixed(1)},${y.toFixed(1)}`).join(' ');
}

function seriesPath(closes: Close[], series: Array<number | null>, frame: Frame): string {
  const points: Array<[number, number]> = [];
  series.forEach((value, index) => {
    if (value !== null) points.push([frame.x(closes[index]!.day), frame.y(value)]);
  });
  return points.length >= 2 ? path(points) : '';
}

function gridAndAxes(frame: Frame, closes: Close[], lastDay: number): string[] {
  const parts: string[] = [];
  for (const value of ticks(frame.low, frame.high)) {
    const y = frame.y(value).toFixed(1);
    parts.push(
      `<line x1="${frame.plotLeft}" x2="${frame.plotRight}" y1="${y}" y2="${y}" stroke="${chartColors.grid}" stroke-width="1"/>`,
    );
    parts.push(
      `<text x="${frame.plotLeft - 6}" y="${y}" text-anchor="end" dominant-baseline="middle" font-size="11" fill="${chartColors.text}">${levelValue(value)}</text>`,
    );
  }
  // One label at the start of each quarter that lies inside the plotted span.
  const first = new Date(closes[0]!.day * dayMs);
  for (
    let month = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 1));
    month.getTime() / dayMs <= lastDay;
    month = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 1))
  ) {
    if (month.getUTCMonth() % 3 !== 0) continue;
    const x = frame.x(month.getTime() / dayMs).toFixed(1);
    parts.push(
      `<line x1="${x}" x2="${x}" y1="${frame.plotTop}" y2="${frame.plotBottom}" stroke="${chartColors.grid}" stroke-width="1"/>`,
    );
    parts.push(
      `<text x="${x}" y="${frame.plotBottom + 16}" text-anchor="middle" font-size="11" fill="${chartColors.text}">${month.toISOString().slice(0, 7)}</text>`,
    );
  }
  parts.push(
    `<rect x="${frame.plotLeft}" y="${frame.plotTop}" width="${frame.plotRight - frame.plotLeft}" height="${frame.plotBottom - frame.plotTop}" fill="none" stroke="#9ca3af" stroke-width="1"/>`,
  );
  return parts;
}

const levelNames: Array<[keyof ChartLevels, string]> = [
  ['takeProfit', 'target'],
  ['entry', 'entry'],
  ['stopLoss', 'stop'],
];

function levelLines(levels: ChartLevels | null | undefined, frame: Frame): string[] {
  if (!levels) return [];
  const placed: number[] = [];
  const parts: string[] = [];
  for (const [key, label] of levelNames) {
    const value = levels[key];
    if (!finite(value)) continue;
    const y = frame.y(value);
    // Labels of close levels would overlap: nudge each at least 13 px from the last.
    let labelY = y;
    for (const other of placed) if (Math.abs(labelY - other) < 13) labelY = other + 13;
    placed.push(labelY);
    const color = chartColors[key];
    parts.push(
      `<g data-level="${key}"><line x1="${frame.plotLeft}" x2="${frame.plotRight}" y1="${y.toFixed(1)}" y2="${y.toFixed(1)}" stroke="${color}" stroke-width="1.5" stroke-dasharray="6 3"/>` +
        `<text x="${frame.plotRight + 6}" y="${labelY.toFixed(1)}" dominant-baseline="middle" font-size="11" fill="${color}">${label} ${levelValue(value)}</text></g>`,
    );
  }
  return parts;
}

function asOfMarker(asOfDay: number, frame: Frame): string {
  const x = frame.x(asOfDay).toFixed(1);
  const date = new Date(asOfDay * dayMs).toISOString().slice(0, 10);
  return (
    `<g data-as-of="${date}"><line x1="${x}" x2="${x}" y1="${frame.plotTop}" y2="${frame.plotBottom}" stroke="${chartColors.asOf}" stroke-width="1.5" stroke-dasharray="2 3"/>` +
    `<text x="${x}" y="${frame.plotTop - 4}" text-anchor="end" font-size="11" fill="${chartColors.asOf}">as of ${date}</text></g>`
  );
}

function legend(frame: Frame, hasSma50: boolean, hasSma200: boolean): string {
  const entries: Array<[string, string, string]> = [['close', chartColors.close, '']];
  if (hasSma50) entries.push(['SMA 50', chartColors.sma50, '5 3']);
  if (hasSma200) entries.push(['SMA 200', chartColors.sma200, '']);
  let x = frame.plotLeft + 8;
  const y = frame.plotTop + 12;
  const parts = entries.map(([label, color, dash]) => {
    const item =
      `<line x1="${x}" x2="${x + 18}" y1="${y}" y2="${y}" stroke="${color}" stroke-width="2"${dash ? ` stroke-dasharray="${dash}"` : ''}/>` +
      `<text x="${x + 22}" y="${y}" dominant-baseline="middle" font-size="11" fill="${chartColors.text}">${label}</text>`;
    x += 30 + label.length * 7;
    return item;
  });
  return `<g data-legend="">${parts.join('')}</g>`;
}

/** The chart as one `<svg>` element; '' when there are fewer than two closes to draw. */
export function renderSvgChart(bars: readonly Bar[], options: SvgChartOptions): string {
  const all = closesOf(bars);
  if (all.length < 2) return '';
  const width = options.width ?? 760;
  const height = options.height ?? 320;
  const values = all.map((close) => close.value);
  const shownFrom = Math.max(0, all.length - sessionsShown);
  const closes = all.slice(shownFrom);
  const sma50 = movingAverageSeries(values, 50).slice(shownFrom);
  const sma200 = movingAverageSeries(values, 200).slice(shownFrom);
  const asOfInstant = Date.parse(options.asOf);
  const lastBarDay = closes[closes.length - 1]!.day;
  const asOfDay = Number.isFinite(asOfInstant) ? Math.floor(asOfInstant / dayMs) : lastBarDay;
  const lastDay = Math.max(lastBarDay, asOfDay);
  const levels = options.levels ?? null;
  const levelValues = levels ? [levels.entry, levels.stopLoss, levels.takeProfit].filter(finite) : [];
  const averages = [...sma50, ...sma200].filter((value): value is number => value !== null);
  const top = margin.top + (options.heading ? headingHeight : 0);
  const frame = frameFor(closes, [...levelValues, ...averages], lastDay, { width, height, top });
  const currency = options.currency ? ` (${options.currency})` : '';
  const title = `${options.title}: daily closes${currency}, ${closes[0]!.date} to ${closes[closes.length - 1]!.date}`;
  const heading = options.heading
    ? `<text data-heading="" x="${margin.left}" y="18" font-size="14" font-weight="600" fill="${chartColors.text}">${escapeHtml(title)}</text>`
    : '';
  const closePath = path(closes.map((close) => [frame.x(close.day), frame.y(close.value)]));
  const sma50Path = seriesPath(closes, sma50, frame);
  const sma200Path = seriesPath(closes, sma200, frame);
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeHtml(title)}" data-chart="price" font-family="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif">`,
    `<title>${escapeHtml(title)}</title>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    heading,
    ...gridAndAxes(frame, closes, lastDay),
    sma200Path
      ? `<path data-series="sma200" d="${sma200Path}" fill="none" stroke="${chartColors.sma200}" stroke-width="1.5"/>`
      : '',
    sma50Path
      ? `<path data-series="sma50" d="${sma50Path}" fill="none" stroke="${chartColors.sma50}" stroke-width="1.5" stroke-dasharray="5 3"/>`
      : '',
    `<path data-series="close" d="${closePath}" fill="none" stroke="${chartColors.close}" stroke-width="2" stroke-linejoin="round"/>`,
    ...levelLines(levels, frame),
    asOfMarker(asOfDay, frame),
    legend(frame, sma50Path !== '', sma200Path !== ''),
    '</svg>',
  ];
  return parts.filter((part) => part !== '').join('\n');
}
