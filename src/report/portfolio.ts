import type { PortfolioPlan, Target } from '../portfolio/types.js';
import { sanitizeText } from '../sanitize.js';
import { formatNumber, oneLine, padEnd, padStart } from './format.js';
import { cell as markdownCell } from './markdown-text.js';

/**
 * A proposed book as text: the terminal table, report.md and the orders CSV. Pure
 * functions of the plan; every string that came from a saved file (tickers, run ids,
 * sectors in messages) is sanitised on the way out.
 */

export interface PortfolioReport {
  plan: PortfolioPlan;
  /** ISO instant of the book's clock. */
  asOf: string;
  /** The book's last closed session (YYYY-MM-DD): its prices are that day's closes. */
  lastSession?: string;
  demo: boolean;
}

/** "the 2026-11-27 close", or the instant for a report saved before the session was recorded. */
export function asOfText(report: PortfolioReport): string {
  return report.lastSession === undefined ? report.asOf : `the ${report.lastSession} close`;
}

export const proposedBanner = 'PROPOSED — nothing is placed: autohedge never sends an order. Not investment advice.';

const safe = (text: string) => oneLine(sanitizeText(text));
const weight = (value: number) => `${formatNumber(value, 2)}%`;
const money = (value: number) => formatNumber(value, 2);

function tradeShares(target: Target): string {
  const change = Math.round((target.shares - target.currentShares) * 1e6) / 1e6;
  return change === 0 ? '0' : `${change > 0 ? '+' : ''}${change}`;
}

function table(rows: string[][], numeric: ReadonlySet<number>): string[] {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) =>
    row
      .map((cell, column) => (numeric.has(column) ? padStart(cell, widths[column]!) : padEnd(cell, widths[column]!)))
      .join('  ')
      .trimEnd(),
  );
}

function targetRows(plan: PortfolioPlan, arrow: string): string[][] {
  return [
    ['ticker', 'action', `weight now ${arrow} target`, 'shares to trade', 'trade value', 'binding'],
    ...plan.targets.map((target) => [
      safe(target.ticker) + (target.stale ? ' (stale)' : ''),
      target.action,
      `${weight(target.currentWeight)} ${arrow} ${weight(target.targetWeight)}`,
      tradeShares(target),
      money(target.tradeValue),
      bindingCell(target),
    ]),
  ];
}

/** The constraint that bound the target, or else the decision's own size when it set a BUY's weight. */
export function bindingCell(target: Target): string {
  if (target.binding !== null) return target.binding;
  if (target.action !== 'BUY' || target.decisionSizePct === undefined) return '';
  return `decision size ${formatNumber(target.decisionSizePct, 0)} %`;
}

function riskLine(plan: PortfolioPlan): string {
  const { risk } = plan;
  const volatility = risk.estVolPct === null ? 'n/a' : weight(risk.estVolPct);
  return `gross ${weight(risk.grossPct)} · net ${weight(risk.netPct)} · cash ${weight(risk.cashPct)} · est. vol ${volatility} · turnover ${weight(risk.turnoverPct)}`;
}

function listLines(plan: PortfolioPlan): string[] {
  const lines: string[] = [];
  if (plan.clamps.length > 0) {
    lines.push('', 'Clamps:');
    for (const clamp of plan.clamps) {
      lines.push(`  ${clamp.constraint}: ${safe(clamp.message)} (${weight(clamp.before)} → ${weight(clamp.after)})`);
    }
  }
  if (plan.held.length > 0) {
    lines.push('', 'Held, not traded:');
    for (const held of plan.held) {
      lines.push(`  ${safe(held.ticker)}  ${held.quantity} shares, ${weight(held.weight)} — ${safe(held.reason)}`);
    }
  }
  if (plan.excluded.length > 0) {
    lines.push('', 'Excluded:');
    for (const entry of plan.excluded) lines.push(`  ${safe(entry.ticker)} — ${safe(entry.reason)}`);
  }
  if (plan.warnings.length > 0) {
    lines.push('', 'Warnings:');
    for (const warning of plan.warnings) lines.push(`  ${safe(warning)}`);
  }
  return lines;
}

function orderLine(order: PortfolioPlan['orders'][number], currency: string): string {
  const price = order.limitPrice !== undefined ? `limit ${money(order.limitPrice)} ${currency}` : 'market';
  return `${order.trim ? 'TRIM' : order.side} ${order.quantity} ${safe(order.ticker)} ${price} ≈ ${money(order.tradeValue)} ${currency} — ${safe(order.reason)}`;
}

/** The book's currency: plans saved before it was recorded are in USD. */
export function bookCurrency(plan: PortfolioPlan): string {
  return plan.baseCurrency ?? 'USD';
}

/** "FX: EUR→USD 1.0823 (close of 2026-11-27)", one line per converted currency. */
export function fxLines(plan: PortfolioPlan, arrow = '→'): string[] {
  return (plan.fx ?? []).map((fx) =>
    `FX: 1 ${fx.from} = ${fx.rate.toFixed(4)} ${fx.to} (close of ${fx.day}); ${fx.from} listings are valued and priced in ${fx.to}`.replace(
      '→',
      arrow,
    ),
  );
}

export function renderPortfolioTerminal(report: PortfolioReport, options: { unicode: boolean }): string {
  const { plan } = report;
  const arrow = options.unicode ? '→' : '->';
  const lines = [
    report.demo ? 'DEMO — synthetic data; not advice' : '',
    proposedBanner,
    `Book as of ${safe(asOfText(report))}: NAV ${money(plan.nav)} ${bookCurrency(plan)}, cash ${money(plan.cashBefore)} ${arrow} ${money(plan.cash)} ${bookCurrency(plan)}`,
    ...fxLines(plan),
    '',
    ...table(targetRows(plan, arrow), new Set([3, 4])),
    '',
    plan.orders.length > 0 ? 'Proposed orders:' : 'No orders proposed.',
    ...plan.orders.map((order) => `  ${orderLine(order, bookCurrency(plan))}`),
    '',
    riskLine(plan),
    ...listLines(plan),
  ].filter((line, index) => line !== '' || index > 1);
  const text = `${lines.join('\n')}\n`;
  return options.unicode ? text : text.replace(/→/g, '->').replace(/≈/g, '~').replace(/—/g, '-').replace(/·/g, '|');
}

export function renderPortfolioMarkdown(report: PortfolioReport, chartFile: string | null): string {
  const { plan } = report;
  // The run reports' escaping: a hostile sector name or reason cannot become markup or a link.
  const cell = markdownCell;
  const lines = [
    `# Proposed portfolio as of ${cell(asOfText(report))}`,
    '',
    ...(report.demo ? ['> DEMO — synthetic data; not advice', ''] : []),
    `> ${proposedBanner}`,
    '',
    `NAV ${money(plan.nav)} ${bookCurrency(plan)}; cash ${money(plan.cashBefore)} → ${money(plan.cash)} ${bookCurrency(plan)}. ${riskLine(plan)}.`,
    '',
    ...fxLines(plan).flatMap((line) => [line, '']),
    ...(chartFile ? [`![Current and target weights](${chartFile})`, ''] : []),
    '## Targets',
    '',
    '| ticker | action | now | target | shares to trade | trade value | binding | decision |',
    '|---|---|--:|--:|--:|--:|---|---|',
    ...plan.targets.map(
      (target) =>
        `| ${cell(target.ticker)}${target.stale ? ' (stale)' : ''} | ${target.action} | ${weight(target.currentWeight)} | ${weight(target.targetWeight)} | ${tradeShares(target)} | ${money(target.tradeValue)} | ${bindingCell(target)} | ${cell(target.decisionRunId ?? '')} |`,
    ),
    '',
    '## Proposed orders',
    '',
    ...(plan.orders.length > 0
      ? plan.orders.map((order) => `- ${cell(orderLine(order, bookCurrency(plan)))}`)
      : ['None.']),
    ...markdownList(
      'Clamps',
      plan.clamps.map(
        (clamp) => `**${clamp.constraint}**: ${cell(clamp.message)} (${weight(clamp.before)} → ${weight(clamp.after)})`,
      ),
    ),
    ...markdownList(
      'Held, not traded',
      plan.held.map(
        (held) => `${cell(held.ticker)}: ${held.quantity} shares, ${weight(held.weight)} — ${cell(held.reason)}`,
      ),
    ),
    ...markdownList(
      'Excluded',
      plan.excluded.map((entry) => `${cell(entry.ticker)}: ${cell(entry.reason)}`),
    ),
    ...markdownList('Warnings', plan.warnings.map(cell)),
    '',
  ];
  return `${lines.join('\n')}\n`;
}

function markdownList(title: string, items: string[]): string[] {
  return items.length === 0 ? [] : ['', `## ${title}`, '', ...items.map((item) => `- ${item}`)];
}

/** The orders alone, RFC 4180; a cell a spreadsheet would run as a formula is prefixed with '. */
export function renderOrdersCsv(plan: PortfolioPlan): string {
  const quote = (text: string) => {
    const clean = sanitizeText(text).replace(/\n/g, ' ');
    const inert = /^[=+\-@\t]/.test(clean) ? `'${clean}` : clean;
    return /[",\n]/.test(inert) ? `"${inert.replace(/"/g, '""')}"` : inert;
  };
  const rows = plan.orders.map((order) =>
    [
      quote(order.ticker),
      order.side,
      String(order.quantity),
      order.limitPrice === undefined ? '' : String(order.limitPrice),
      order.tradeValue.toFixed(2),
      quote(order.reason),
    ].join(','),
  );
  return `${['ticker,side,quantity,limitPrice,tradeValue,reason', ...rows].join('\n')}\n`;
}
