import { escapeHtml, htmlPage } from './escape.js';
import { formatNumber } from './format.js';
import { reportStyle } from './html-style.js';
import { weightText, weightsFigure } from './portfolio-chart.js';
import { tableHtml } from './html-blocks.js';
import { asOfText, bindingCell, bookCurrency, fxLines, proposedBanner, type PortfolioReport } from './portfolio.js';

/**
 * The proposed book as report.html (self-contained: inline CSS and SVG, no script, a
 * CSP that loads nothing), in the run report's stylesheet: its tables scroll sideways in
 * their own container, and on a phone each row is a card of labelled cells; the weights
 * chart is drawn wide and narrow (portfolio-chart.ts). Every string is escaped through
 * escapeHtml (sanitised first).
 */

const weight = weightText;

export { renderWeightsSvg } from './portfolio-chart.js';

/**
 * A table of the page: `numeric` names the columns set right-aligned, `prose` those whose
 * long words (a run id in a reason) may break anywhere and take a whole line on a phone.
 */
function table(
  key: string,
  headers: string[],
  rows: string[][],
  columnsOf: { numeric: ReadonlySet<number>; prose: ReadonlySet<number> },
): string {
  const columns = headers.map((label, index) => ({
    key: label,
    label,
    numeric: columnsOf.numeric.has(index),
    wrap: columnsOf.prose.has(index),
  }));
  return tableHtml({ key, columns, rows, stack: true });
}

function listHtml(title: string, items: string[]): string {
  if (items.length === 0) return '';
  return `<section><h2>${escapeHtml(title)}</h2><ul>${items.map((item) => `<li>${escapeHtml(item)}</li>`).join('')}</ul></section>`;
}

export function renderPortfolioHtml(report: PortfolioReport): string {
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
    { numeric: new Set([2, 3, 4, 5]), prose: new Set([6]) },
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
    { numeric: new Set([2, 3, 4]), prose: new Set([5]) },
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
    weightsFigure(plan),
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
  return htmlPage(`Proposed portfolio as of ${asOfText(report)}`, reportStyle, body);
}
