import type { PortfolioPlan } from '../portfolio/types.js';
import { escapeHtml, pageHead } from './escape.js';
import { formatNumber } from './format.js';
import { reportStyle } from './html-style.js';
import { tableHtml } from './html-blocks.js';
import { asOfText, bindingCell, bookCurrency, fxLines, proposedBanner, type PortfolioReport } from './portfolio.js';

/**
 * The proposed book as report.html (self-contained: inline CSS and SVG, no script, a
 * CSP that loads nothing) and weights.svg, a bar chart of current and target weight
 * per name. Every string is escaped through escapeHtml (sanitised first).
 */

const weight = (value: number) => `${formatNumber(value, 2)}%`;
const colors = { current: '#9ca3af', target: '#1f4e9c', text: '#374151', grid: '#e5e7eb' } as const;

export function renderWeightsSvg(plan: PortfolioPlan): string | null {
  const rows = plan.targets.filter((target) => target.currentWeight !== 0 || target.targetWeight !== 0);
  if (rows.length === 0) return null;
  const rowHeight = 26;
  const left = 90;
  const width = 640;
  const plot = width - left - 70;
  const top = 24;
  const height = top + rows.length * rowHeight + 12;
  const low = Math.min(0, ...rows.flatMap((row) => [row.currentWeight, row.targetWeight]));
  const high = Math.max(0, ...rows.flatMap((row) => [row.currentWeight, row.targetWeight]));
  const span = high - low || 1;
  const x = (value: number) => left + ((value - low) / span) * plot;
  const bar = (value: number, y: number, fill: string, label: string) => {
    const start = Math.min(x(0), x(value));
    const length = Math.abs(x(value) - x(0));
    return `<rect x="${start.toFixed(1)}" y="${y.toFixed(1)}" width="${Math.max(length, 0.5).toFixed(1)}" height="9" fill="${fill}"><title>${escapeHtml(label)}</title></rect>`;
  };
  const body = rows.map((row, index) => {
    const y = top + index * rowHeight;
    return [
      `<text x="${left - 8}" y="${(y + 13).toFixed(1)}" text-anchor="end" font-size="12" fill="${colors.text}">${escapeHtml(row.ticker)}</text>`,
      bar(row.currentWeight, y + 2, colors.current, `${row.ticker} now ${weight(row.currentWeight)}`),
      bar(row.targetWeight, y + 12, colors.target, `${row.ticker} target ${weight(row.targetWeight)}`),
      `<text x="${(x(Math.max(row.currentWeight, row.targetWeight, 0)) + 6).toFixed(1)}" y="${(y + 20).toFixed(1)}" font-size="11" fill="${colors.text}">${escapeHtml(weight(row.targetWeight))}</text>`,
    ].join('');
  });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-labelledby="weights-title">`,
    `<title id="weights-title">Current (grey) and target (blue) weight per name, percent of NAV</title>`,
    `<line x1="${x(0).toFixed(1)}" y1="${top - 6}" x2="${x(0).toFixed(1)}" y2="${height - 8}" stroke="${colors.grid}"/>`,
    `<text x="${left}" y="14" font-size="11" fill="${colors.text}">now</text><rect x="${left + 28}" y="6" width="10" height="9" fill="${colors.current}"/>`,
    `<text x="${left + 50}" y="14" font-size="11" fill="${colors.text}">target</text><rect x="${left + 88}" y="6" width="10" height="9" fill="${colors.target}"/>`,
    ...body,
    '</svg>',
    '',
  ].join('\n');
}

/** A table of the page: `numeric` names the columns set right-aligned. */
function table(key: string, headers: string[], rows: string[][], numeric: ReadonlySet<number>): string {
  const columns = headers.map((label, index) => ({ key: label, label, numeric: numeric.has(index) }));
  return tableHtml({ key, columns, rows });
}

function listHtml(title: string, items: string[]): string {
  if (items.length === 0) return '';
  return `<section><h2>${escapeHtml(title)}</h2><ul>${items.map((item) => `<li>${escapeHtml(item)}</li>`).join('')}</ul></section>`;
}

export function renderPortfolioHtml(report: PortfolioReport, chart: string | null): string {
  const { plan } = report;
  const { risk } = plan;
  const targets = table(
    'targets',
    ['ticker', 'action', 'now', 'target', 'shares to trade', 'trade value', 'binding'],
    plan.targets.map((target) => [
      target.ticker + (target.stale ? ' (stale)' : ''),
      target.action,
      weight(target.currentWeight),
      weight(target.targetWeight),
      String(Math.round((target.shares - target.currentShares) * 1e6) / 1e6),
      formatNumber(target.tradeValue, 2),
      bindingCell(target),
    ]),
    new Set([2, 3, 4, 5]),
  );
  const orders = table(
    'orders',
    ['ticker', 'side', 'quantity', 'limit', 'trade value', 'reason'],
    plan.orders.map((order) => [
      order.ticker,
      order.trim ? 'TRIM' : order.side,
      String(order.quantity),
      order.limitPrice === undefined ? 'market' : formatNumber(order.limitPrice, 2),
      formatNumber(order.tradeValue, 2),
      order.reason,
    ]),
    new Set([2, 3, 4]),
  );
  const body = [
    `<header><h1>${escapeHtml(`Proposed portfolio as of ${asOfText(report)}`)}</h1>`,
    report.demo ? `<p class="banner" data-demo="">${escapeHtml('DEMO — synthetic data; not advice')}</p>` : '',
    `<p class="banner" data-proposed="">${escapeHtml(proposedBanner)}</p>`,
    `<p class="meta">${escapeHtml(
      `NAV ${formatNumber(plan.nav, 2)} ${bookCurrency(plan)} · cash ${formatNumber(plan.cashBefore, 2)} → ${formatNumber(plan.cash, 2)} ${bookCurrency(plan)}${fxLines(
        plan,
      )
        .map((line) => ` · ${line}`)
        .join(
          '',
        )} · gross ${weight(risk.grossPct)} · net ${weight(risk.netPct)} · est. vol ${risk.estVolPct === null ? 'n/a' : weight(risk.estVolPct)} · turnover ${weight(risk.turnoverPct)}`,
    )}</p></header>`,
    chart ? `<figure class="chart">${chart}</figure>` : '',
    `<section><h2>Targets</h2>${targets}</section>`,
    `<section><h2>Proposed orders</h2>${plan.orders.length > 0 ? orders : '<p>None.</p>'}</section>`,
    listHtml(
      'Clamps',
      plan.clamps.map(
        (clamp) => `${clamp.constraint}: ${clamp.message} (${weight(clamp.before)} → ${weight(clamp.after)})`,
      ),
    ),
    listHtml(
      'Held, not traded',
      plan.held.map((held) => `${held.ticker}: ${held.quantity} shares, ${weight(held.weight)} — ${held.reason}`),
    ),
    listHtml(
      'Excluded',
      plan.excluded.map((entry) => `${entry.ticker}: ${entry.reason}`),
    ),
    listHtml('Warnings', plan.warnings),
  ].filter((part) => part !== '');
  return [
    ...pageHead(`Proposed portfolio as of ${asOfText(report)}`, reportStyle),
    '<body>',
    '<main>',
    ...body,
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
