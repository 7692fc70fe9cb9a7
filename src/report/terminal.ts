import { blindBanner, stabilityBanner } from './blind.js';
import type { ChalkInstance } from 'chalk';
import type { AgentReport } from '../agent/types.js';
import type { MarketSnapshot } from '../market/types.js';
import type { AnalysisResult, Decision, GuardrailFinding } from '../result/types.js';
import { reviewLines } from './revision.js';
import { renderPriceChart } from './chart.js';
import {
  agentTitle,
  demoBanner,
  shortDemoBanner,
  formatCompact,
  formatCost,
  formatDuration,
  notAvailable,
  formatFraction,
  formatNumber,
  formatPrice,
  formatSigned,
  formatTokens,
  formatWhen,
  oneLine,
  padEnd,
  padStart,
  truncate,
  visibleText,
  wrap,
} from './format.js';
import { historicalBanner } from './historical.js';
import { sanitizeDeep } from '../sanitize.js';
import { createPalette } from './palette.js';
import { collectSources, searchBackingLine } from './sources.js';

// The analyze command takes both renderers from here.
export { renderJson } from './json.js';

export interface TerminalOptions {
  color: boolean;
  /** Box-drawing and symbols; plain ASCII when false (pipes, dumb terminals). */
  unicode: boolean;
  /** Columns available; 0 or less means unknown (80 is used). */
  width: number;
  /** False for a run not saved (--no-save): the footer then names no run id that `runs show` could not find. Default true. */
  saved?: boolean;
}

/**
 * The analysis view, as one string ending in a newline. A pure function of the
 * result and the options, so `autohedge runs show` renders a saved run exactly as
 * the live run printed it.
 */
export function renderTerminal(unsafe: AnalysisResult, options: TerminalOptions): string {
  // Sanitised again here: a saved run (`runs show`) may predate sanitising or be hand-edited.
  const result = sanitizeDeep(unsafe);
  const view = new View(options);
  const blocks: string[][] = [];

  if (result.demo) {
    // The full banner with its padding, or the short one where that would wrap.
    const text = demoBanner.length + 2 <= view.width ? demoBanner : shortDemoBanner;
    const banner = view.unicode ? text : text.replace(' — ', ' - ');
    blocks.push([view.paint.level > 0 ? view.paint.inverse.bold(` ${banner} `) : banner]);
  }
  const historical = historicalBanner(result);
  if (historical !== null)
    blocks.push([view.unicode ? historical : historical.replace(' — ', ' - ').replace(' · ', ' - ')]);
  for (const line of [blindBanner(result), stabilityBanner(result)]) if (line !== null) blocks.push(view.wrap(line));
  blocks.push(header(result, view));
  const chart = chartBlock(result.market, view);
  if (chart.length > 0) blocks.push(chart);
  if (result.mode !== 'agents') blocks.push(decisionSection(result, view));
  if (result.mode !== 'agents' || result.guardrails.length > 0)
    blocks.push(guardrailSection(result.guardrails ?? [], view));
  const review = reviewLines(result);
  if (review) blocks.push([view.heading('Review'), ...review.flatMap((line) => view.wrap(line))]);
  for (const report of result.reports ?? []) blocks.push(deskSection(report, view));
  if ((result.warnings ?? []).length > 0) blocks.push(warningSection(result.warnings, view));
  blocks.push(footer(result, view));

  return `${blocks.map((block) => block.join('\n')).join('\n\n')}\n`;
}

class View {
  readonly paint: ChalkInstance;
  readonly unicode: boolean;
  readonly width: number;
  readonly saved: boolean;
  constructor(options: TerminalOptions) {
    this.saved = options.saved ?? true;
    this.paint = createPalette(options.color);
    this.unicode = options.unicode;
    this.width = options.width > 0 ? Math.min(options.width, 120) : 80;
  }
  get dot(): string {
    return this.unicode ? ' · ' : ' | ';
  }
  get dash(): string {
    return this.unicode ? '–' : '-';
  }
  get bullet(): string {
    return this.unicode ? '•' : '*';
  }
  /** "── Title ─────" across the width. */
  heading(title: string, detail = ''): string {
    const rule = this.unicode ? '─' : '-';
    const label = `${rule}${rule} ${title}${detail ? `${this.dot}${visibleText(detail)}` : ''} `;
    const fill = Math.max(2, this.width - label.length);
    return (
      this.paint.bold(`${rule}${rule} ${title}`) +
      (detail ? `${this.dot}${detail}` : '') +
      ' ' +
      this.paint.dim(rule.repeat(fill))
    );
  }
  wrap(text: string, indent = ''): string[] {
    return wrap(text, this.width, indent);
  }
}

function header(result: AnalysisResult, view: View): string[] {
  const market = result.market;
  const { paint } = view;
  if (!market) {
    return [
      paint.bold(result.ticker),
      ...view
        .wrap('Market data not available for this run: no price, chart or key stats; levels are unverifiable.')
        .map((line) => paint.yellow(line)),
    ];
  }
  const identity = market.identity;
  const quote = market.quote;
  const indicators = market.indicators;
  const symbol = identity?.symbol ?? market.symbol ?? result.ticker;
  const title = identity?.name ? `${identity.name} (${symbol})` : symbol;
  const where = [identity?.exchange, identity?.currency].filter(Boolean).join(view.dot);
  const lines = [paint.bold(title) + (where ? paint.dim(`${view.dot}${where}`) : '')];

  const price = quote?.price ?? indicators?.lastClose ?? null;
  if (price === null || price === undefined) lines.push(paint.yellow('Price not available'));
  else {
    const change = quote?.change;
    const changeText =
      change === null || change === undefined
        ? ''
        : `  ${formatSigned(change)} (${formatPercentChange(quote?.changePercent)})`;
    const painted = !changeText
      ? ''
      : change! > 0
        ? paint.green(changeText)
        : change! < 0
          ? paint.red(changeText)
          : changeText;
    const when = quote?.priceTime ? paint.dim(`  as of ${formatWhen(quote.priceTime)}`) : '';
    lines.push(`${paint.bold(formatPrice(price))}${painted}${when}`);
  }

  const high = quote?.fiftyTwoWeekHigh ?? indicators?.high52w;
  const low = quote?.fiftyTwoWeekLow ?? indicators?.low52w;
  const stats = [
    `Market cap ${formatCompact(quote?.marketCap)}`,
    `P/E ${formatNumber(quote?.trailingPE, 1)}`,
    `52w ${formatPrice(low)}${view.dash}${formatPrice(high)}`,
    `RSI ${formatNumber(indicators?.rsi14, 1)}`,
    `ATR ${formatPrice(indicators?.atr14)}`,
    `Volatility ${formatFraction(indicators?.volatility20d)}`,
  ];
  lines.push(...joinToWidth(stats, view.dot, view.width));
  return lines;
}

/** Yahoo's changePercent is already in percent (1.28 means 1.28 %). */
function formatPercentChange(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return notAvailable;
  return `${formatSigned(value, 2)}%`;
}

function chartBlock(market: MarketSnapshot | null, view: View): string[] {
  const bars = market?.bars ?? [];
  if (bars.filter((bar) => typeof bar.close === 'number').length < 2) return [];
  const chart = renderPriceChart(bars, { width: view.width, color: view.paint.level > 0, unicode: view.unicode });
  return chart.trimEnd() === '' ? [] : [chart.trimEnd()];
}

function decisionSection(result: AnalysisResult, view: View): string[] {
  const { paint } = view;
  const lines = [view.heading('Decision')];
  const decision = result.decision;
  if (!decision) {
    const reason = result.error ?? 'the run ended before the Director decided';
    lines.push(paint.red(`No decision: ${reason}`));
  } else {
    lines.push(...decisionLines(decision, view));
  }
  if (result.plan?.thesis) {
    lines.push('', ...view.wrap(`Thesis: ${result.plan.thesis}`));
  }
  return lines;
}

function decisionLines(decision: Decision, view: View): string[] {
  const { paint } = view;
  const summary = [
    actionPaint(decision.action, paint)(decision.action),
    `conviction ${formatNumber(decision.conviction, 0)}/100`,
    `size ${formatNumber(decision.positionSizePct, 1)}% of portfolio`,
    `${decision.orderType} order`,
    `horizon ${decision.timeHorizon}`,
  ];
  const lines = joinToWidth(summary, view.dot, view.width);
  lines.push(
    ...joinToWidth(
      [
        `Entry ${formatPrice(decision.entry)}`,
        `Stop ${formatPrice(decision.stopLoss)}`,
        `Target ${formatPrice(decision.takeProfit)}`,
      ],
      view.dot,
      view.width,
    ),
  );
  lines.push(...view.wrap(`Rationale: ${decision.rationale}`));
  if (decision.keyRisks.length > 0) {
    lines.push('Key risks:');
    for (const risk of decision.keyRisks) lines.push(...hanging(`${view.bullet} `, risk, view, '  '));
  }
  if (decision.dissent) lines.push(...view.wrap(`Dissent: ${decision.dissent}`));
  return lines;
}

export function actionPaint(action: string, paint: ChalkInstance): ChalkInstance {
  if (action === 'BUY') return paint.bold.green;
  if (action === 'SELL') return paint.bold.red;
  return paint.bold.yellow;
}

export function statusPaint(status: string, paint: ChalkInstance): ChalkInstance {
  if (status === 'ok') return paint.green;
  if (status === 'failed' || status === 'corrupt') return paint.red;
  return paint.yellow;
}

const severityOrder: Record<GuardrailFinding['severity'], number> = { error: 0, warning: 1, info: 2 };

function guardrailSection(findings: GuardrailFinding[], view: View): string[] {
  const { paint } = view;
  const lines = [view.heading('Guardrails')];
  if (findings.length === 0) {
    lines.push(paint.green('No findings.'));
    return lines;
  }
  const sorted = [...findings].sort((a, b) => (severityOrder[a.severity] ?? 3) - (severityOrder[b.severity] ?? 3));
  for (const finding of sorted) {
    const marker = severityMarker(finding.severity, view);
    const label = padEnd(finding.severity, 8);
    const tint = finding.severity === 'error' ? paint.red : finding.severity === 'warning' ? paint.yellow : paint.dim;
    const prefix = `${marker} ${label}`;
    const body = wrap(`${finding.rule}: ${finding.message}`, view.width, ' '.repeat(prefix.length + 1));
    lines.push(tint(prefix) + ' ' + (body[0] ?? '').trimStart(), ...body.slice(1));
  }
  return lines;
}

function severityMarker(severity: string, view: View): string {
  if (view.unicode) return severity === 'error' ? '✖' : severity === 'warning' ? '▲' : 'ℹ';
  return severity === 'error' ? 'x' : severity === 'warning' ? '!' : 'i';
}

function deskSection(report: AgentReport, view: View): string[] {
  const { paint } = view;
  const failed = report.status !== 'ok';
  const status = failed ? paint.red.bold('FAILED') : paint.green('ok');
  const detail = [status, report.model, formatDuration(report.durationMs)].filter(Boolean).join(view.dot);
  const lines = [view.heading(agentTitle(report.agent), detail)];
  if (failed) lines.push(...view.wrap(`Error: ${report.error ?? 'unknown error'}`).map((line) => paint.red(line)));
  const text = (report.text ?? '').trim();
  if (text) lines.push(...view.wrap(text));
  else if (!failed) lines.push(paint.dim('(no text)'));

  const calls = report.toolCalls ?? [];
  if (calls.length > 0) {
    lines.push('', paint.bold(`Tool calls (${calls.length}):`));
    calls.forEach((call, index) => {
      const outcome = call.error ? paint.red(`error: ${oneLine(call.error)}`) : formatDuration(call.durationMs);
      const head = `  ${index + 1}. ${call.name} `;
      // Measured without colour: the line must end at the width, marker and outcome included.
      const tail = `${view.dot}${visibleText(outcome)}`;
      const argumentsText = fitWithin(oneLine(call.arguments), view.width - head.length - tail.length);
      lines.push(`${head}${argumentsText}${view.dot}${outcome}`);
    });
  }
  if (report.agent === 'sentiment' || calls.length > 0) {
    const sources = collectSources(report);
    if (sources.length > 0) {
      lines.push('', paint.bold(`Sources (${sources.length}):`));
      for (const source of sources) {
        const label = source.title ? `${source.title}${view.dot}` : '';
        const mark = source.cited ? '' : ' (search result)';
        lines.push(...hanging(`${view.bullet} `, `${label}${source.url}${mark}`, view, '  '));
      }
    }
  }
  return lines;
}

function warningSection(warnings: string[], view: View): string[] {
  const lines = [view.heading('Warnings')];
  for (const warning of warnings)
    lines.push(...hanging(`${view.unicode ? '⚠' : '!'} `, warning, view).map((line) => view.paint.yellow(line)));
  return lines;
}

function footer(result: AnalysisResult, view: View): string[] {
  const { paint } = view;
  const usage = result.usage;
  const rule = (view.unicode ? '─' : '-').repeat(view.width);
  const cached = usage?.cachedPromptTokens ? ` (${formatTokens(usage.cachedPromptTokens)} cached)` : '';
  const tokens = `Tokens ${formatTokens(usage?.promptTokens ?? 0)} in${cached}${view.dot}${formatTokens(usage?.completionTokens ?? 0)} out`;
  const cost =
    usage?.costUsd === null || usage?.costUsd === undefined
      ? paint.yellow('cost unknown')
      : `cost ${formatCost(usage.costUsd)}`;
  const lines = [
    paint.dim(rule),
    ...joinToWidth([tokens, cost, `wall time ${formatDuration(result.durationMs)}`], view.dot, view.width),
  ];

  const agents = Object.entries(usage?.byAgent ?? {});
  if (agents.length > 0) {
    const nameWidth = Math.max(...agents.map(([agent]) => agent.length));
    const modelWidth = Math.max(...agents.map(([, entry]) => (entry.model ?? '').length));
    const inWidth = Math.max(...agents.map(([, entry]) => formatTokens(entry.promptTokens).length));
    const outWidth = Math.max(...agents.map(([, entry]) => formatTokens(entry.completionTokens).length));
    for (const [agent, entry] of agents) {
      const agentCached = entry.cachedPromptTokens ? ` (${formatTokens(entry.cachedPromptTokens)} cached)` : '';
      const line =
        `  ${padEnd(agent, nameWidth)}  ${padEnd(entry.model ?? '', modelWidth)}  ${padStart(formatTokens(entry.promptTokens), inWidth)} in` +
        `${view.dot}${padStart(formatTokens(entry.completionTokens), outWidth)} out${view.dot}${formatCost(entry.costUsd)}`;
      // The cached count where it fits; the total line above always names it.
      lines.push(paint.dim(line.length + agentCached.length <= view.width ? line + agentCached : line));
    }
  }
  const search = searchBackingLine(result);
  if (search) lines.push(paint.dim(`  ${search}`));
  const status = statusPaint(result.status, paint)(result.status);
  const run = view.saved ? `Run ${result.runId}` : 'Run not saved (--no-save)';
  lines.push(...joinToWidth([run, `status ${status}`, `as of ${formatWhen(result.asOf)}`], view.dot, view.width));
  if (result.error && result.status !== 'ok')
    lines.push(...view.wrap(`Error: ${result.error}`).map((line) => paint.red(line)));
  if (result.status === 'flagged') lines.push(...view.wrap(flaggedLine(result)).map((line) => paint.yellow(line)));
  return lines;
}

/** Text cut (with truncate's marker) so that marker included it is at most `max` characters; at least 10 are kept. */
function fitWithin(text: string, max: number): string {
  if (text.length <= max) return text;
  for (let keep = Math.max(max, 10); keep > 10; keep -= 1) {
    const cut = truncate(text, keep);
    if (cut.length <= max) return cut;
  }
  return truncate(text, 10);
}

/** A bulleted item whose wrapped lines line up under its text. */
function hanging(marker: string, text: string, view: View, indent = ''): string[] {
  const body = wrap(text, view.width, indent + ' '.repeat(marker.length));
  return body.map((line, index) => (index === 0 ? indent + marker + line.slice(indent.length + marker.length) : line));
}

/** Join items with a separator, breaking onto a new line rather than past the width. */
function joinToWidth(items: string[], separator: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const item of items) {
    if (line === '') line = item;
    else if (visibleText(line).length + separator.length + visibleText(item).length <= width) line += separator + item;
    else {
      lines.push(line);
      line = item;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** Why a run is flagged: the decision that stands breaks the guardrails' rules. */
function flaggedLine(result: AnalysisResult): string {
  const errors = (result.guardrails ?? []).filter((finding) => finding.severity === 'error').length;
  return `Flagged: the decision breaks ${errors} guardrail rule${errors === 1 ? '' : 's'} (exit code 4); do not act on it unchecked.`;
}
