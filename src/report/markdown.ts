import type { AgentReport } from '../agent/types.js';
import type { AnalysisResult, Decision, GuardrailFinding } from '../pipeline/types.js';
import { reviewLines } from './revision.js';
import {
  agentTitle,
  demoBanner,
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
  truncate,
} from './format.js';
import { collectSources, searchBackingLine } from './sources.js';

/**
 * report.md: everything a reader needs to judge the run without the JSON — the
 * decision, guardrail findings, each desk's report, the sources Sentiment cited,
 * usage and cost, warnings and status. Plain GitHub-flavoured markdown.
 */
export function renderMarkdown(result: AnalysisResult): string {
  const sections: string[] = [title(result)];
  if (result.demo) sections.push(`> **${demoBanner}**`);
  sections.push(summaryLine(result));
  sections.push(marketSection(result));
  if (result.mode !== 'agents') {
    sections.push(decisionSection(result));
    if (result.plan?.thesis) sections.push(`## Plan\n\n${result.plan.thesis.trim()}`);
  }
  if (result.mode !== 'agents' || (result.guardrails ?? []).length > 0) sections.push(guardrailSection(result.guardrails ?? []));
  const review = reviewLines(result);
  if (review) sections.push(['## Review', '', ...review.map((line) => `- ${line}`)].join('\n'));
  sections.push(desksSection(result.reports ?? []));
  const sources = sourcesSection(result.reports ?? []);
  if (sources) sections.push(sources);
  sections.push(usageSection(result));
  if ((result.warnings ?? []).length > 0) sections.push(`## Warnings\n\n${result.warnings.map((warning) => `- ${oneLine(warning)}`).join('\n')}`);
  sections.push(statusSection(result));
  return `${sections.join('\n\n')}\n`;
}

function title(result: AnalysisResult): string {
  const decision = result.decision;
  const name = result.market?.identity?.name;
  const subject = name ? `${name} (${result.ticker})` : result.ticker;
  if (decision) return `# ${subject}: ${decision.action}, conviction ${formatNumber(decision.conviction, 0)}/100`;
  return `# ${subject}: ${result.mode === 'agents' ? 'desk reports' : 'no decision'}`;
}

function summaryLine(result: AnalysisResult): string {
  const mode = result.mode === 'agents' ? 'selected desks only (no Director)' : 'full (Director and four desks)';
  return [
    `Run \`${result.runId}\``,
    `as of ${formatWhen(result.asOf)}`,
    `status **${result.status}**`,
    `mode ${mode}`,
    `wall time ${formatDuration(result.durationMs)}`,
  ].join(' · ');
}

function marketSection(result: AnalysisResult): string {
  const market = result.market;
  if (!market) return '## Market\n\nMarket data was not available for this run: no price or key stats, and every level is unverifiable.';
  const quote = market.quote;
  const indicators = market.indicators;
  const price = quote?.price ?? indicators?.lastClose;
  const currency = market.identity?.currency ? ` ${market.identity.currency}` : '';
  const change =
    quote?.change === null || quote?.change === undefined
      ? notAvailable
      : `${formatSigned(quote.change)} (${quote.changePercent === null || quote.changePercent === undefined ? notAvailable : `${formatSigned(quote.changePercent, 2)}%`})`;
  const rows: Array<[string, string]> = [
    ['Price', `${formatPrice(price)}${price === null || price === undefined ? '' : currency}`],
    ['Change', change],
    ['Market cap', formatCompact(quote?.marketCap)],
    ['P/E (trailing)', formatNumber(quote?.trailingPE, 1)],
    ['52-week range', `${formatPrice(quote?.fiftyTwoWeekLow ?? indicators?.low52w)} – ${formatPrice(quote?.fiftyTwoWeekHigh ?? indicators?.high52w)}`],
    ['RSI (14)', formatNumber(indicators?.rsi14, 1)],
    ['ATR (14)', formatPrice(indicators?.atr14)],
    ['Volatility (20d, annualised)', formatFraction(indicators?.volatility20d)],
  ];
  const identity = [market.identity?.exchange, market.identity?.sector, market.identity?.industry].filter(Boolean).join(' · ');
  const lines = ['## Market', ''];
  if (identity) lines.push(identity, '');
  lines.push('| | |', '|---|---|', ...rows.map(([label, value]) => `| ${label} | ${cell(value)} |`));
  if (quote?.priceTime) lines.push('', `Quote time: ${formatWhen(quote.priceTime)}. Source: ${market.source}.`);
  return lines.join('\n');
}

function decisionSection(result: AnalysisResult): string {
  const decision = result.decision;
  if (!decision) return `## Decision\n\nNo decision: ${result.error ?? 'the run ended before the Director decided'}.`;
  return ['## Decision', '', decisionTable(decision), '', ...decisionText(decision)].join('\n');
}

function decisionTable(decision: Decision): string {
  const header = ['Action', 'Conviction', 'Size', 'Order', 'Entry', 'Stop loss', 'Take profit', 'Horizon'];
  const values = [
    `**${decision.action}**`,
    `${formatNumber(decision.conviction, 0)}/100`,
    `${formatNumber(decision.positionSizePct, 1)}%`,
    decision.orderType,
    formatPrice(decision.entry),
    formatPrice(decision.stopLoss),
    formatPrice(decision.takeProfit),
    decision.timeHorizon,
  ];
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, `| ${values.map(cell).join(' | ')} |`].join('\n');
}

function decisionText(decision: Decision): string[] {
  const lines = [`**Rationale.** ${decision.rationale.trim()}`];
  if (decision.keyRisks.length > 0) lines.push('', '**Key risks**', '', ...decision.keyRisks.map((risk) => `- ${oneLine(risk)}`));
  if (decision.dissent) lines.push('', `**Dissent.** ${decision.dissent.trim()}`);
  return lines;
}

const severityOrder: Record<string, number> = { error: 0, warning: 1, info: 2 };

function guardrailSection(findings: GuardrailFinding[]): string {
  if (findings.length === 0) return '## Guardrails\n\nNo findings.';
  const sorted = [...findings].sort((a, b) => (severityOrder[a.severity] ?? 3) - (severityOrder[b.severity] ?? 3));
  return ['## Guardrails', '', ...sorted.map((finding) => `- **${finding.severity}** \`${finding.rule}\`: ${oneLine(finding.message)}`)].join('\n');
}

function desksSection(reports: AgentReport[]): string {
  if (reports.length === 0) return '## Desks\n\nNo desk reports.';
  return ['## Desks', ...reports.map(deskSection)].join('\n\n');
}

function deskSection(report: AgentReport): string {
  const status = report.status === 'ok' ? 'ok' : '**failed**';
  const lines = [`### ${agentTitle(report.agent)}`, '', `${status} · ${report.model} · ${formatDuration(report.durationMs)}`];
  if (report.status !== 'ok') lines.push('', `> Error: ${oneLine(report.error ?? 'unknown error')}`);
  const text = (report.text ?? '').trim();
  if (text) lines.push('', demoteHeadings(text));
  const calls = report.toolCalls ?? [];
  if (calls.length > 0) {
    lines.push('', '**Tool calls**', '');
    calls.forEach((call, index) => {
      const outcome = call.error ? `error: ${oneLine(call.error)}` : formatDuration(call.durationMs);
      lines.push(`${index + 1}. \`${call.name}\` \`${truncate(oneLine(call.arguments), 200).replace(/`/g, "'")}\` (${outcome})`);
    });
  }
  return lines.join('\n');
}

/** A desk's own "# Heading" must not outrank the report's sections. */
function demoteHeadings(text: string): string {
  let inFence = false;
  return text
    .split('\n')
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
      if (inFence) return line;
      const match = /^(#{1,6})(\s)/.exec(line);
      if (!match) return line;
      const level = Math.min(6, match[1]!.length + 3);
      return '#'.repeat(level) + line.slice(match[1]!.length);
    })
    .join('\n');
}

function sourcesSection(reports: AgentReport[]): string | null {
  const sentiment = reports.find((report) => report.agent === 'sentiment');
  if (!sentiment) return null;
  const sources = collectSources(sentiment);
  if (sources.length === 0) return '## Sources cited by Sentiment\n\nNone.';
  const lines = ['## Sources cited by Sentiment', ''];
  for (const source of sources) {
    const label = source.title ? `[${source.title.replace(/[[\]]/g, '')}](${source.url})` : `<${source.url}>`;
    lines.push(`- ${label}${source.cited ? '' : ' (search result, not cited in the text)'}`);
  }
  return lines.join('\n');
}

function usageSection(result: AnalysisResult): string {
  const usage = result.usage;
  const header = '| Agent | Model | Input tokens | Cached input | Output tokens | Cost (USD) |';
  const lines = ['## Usage and cost', '', header, '|---|---|---:|---:|---:|---:|'];
  for (const [agent, entry] of Object.entries(usage?.byAgent ?? {})) {
    lines.push(
      `| ${cell(agent)} | ${cell(entry.model ?? '')} | ${formatTokens(entry.promptTokens)} | ${formatTokens(entry.cachedPromptTokens)} | ${formatTokens(entry.completionTokens)} | ${formatCost(entry.costUsd)} |`,
    );
  }
  lines.push(
    `| **Total** | | **${formatTokens(usage?.promptTokens ?? 0)}** | **${formatTokens(usage?.cachedPromptTokens ?? 0)}** | **${formatTokens(usage?.completionTokens ?? 0)}** | **${formatCost(usage?.costUsd)}** |`,
  );
  if (usage?.costUsd === null || usage?.costUsd === undefined) {
    lines.push('', 'Cost unknown: at least one model has no known price, so no total is given rather than a guess.');
  }
  const search = searchBackingLine(result);
  if (search) lines.push('', `${search}.`);
  return lines.join('\n');
}

function statusSection(result: AnalysisResult): string {
  const lines = ['## Status', '', `**${result.status}**, started ${formatWhen(result.startedAt)}, took ${formatDuration(result.durationMs)}.`];
  if (result.error) lines.push('', `Error: ${oneLine(result.error)}`);
  if (result.status === 'flagged') lines.push('', 'Flagged: the decision breaks the guardrails\' rules (an `error` finding above); autohedge exits 4.');
  const failed = (result.reports ?? []).filter((report) => report.status !== 'ok').map((report) => agentTitle(report.agent));
  if (failed.length > 0) lines.push('', `Failed desks: ${failed.join(', ')}.`);
  lines.push('', '_Not investment advice._');
  return lines.join('\n');
}

/** A table cell: pipes escaped, one line. */
function cell(text: string): string {
  return oneLine(text).replace(/\|/g, '\\|');
}
