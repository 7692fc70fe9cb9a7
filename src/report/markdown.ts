import { blindBanner, stabilityBanner } from './blind.js';
import type { AgentReport } from '../agent/types.js';
import { sanitizeText } from '../sanitize.js';
import { safeLinkUrl } from './escape.js';
import type { AnalysisResult, Decision, GuardrailFinding } from '../result/types.js';
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
import { historicalBanner } from './historical.js';
import { sanitizeDeep } from '../sanitize.js';
import { parseDeskText, withoutListedSources, type DeskBlock } from './desk-text.js';
import { formatRewardToRisk, keyIndicatorRows, levelRows, runSettingsLine } from './levels.js';
import { collectSources, searchBackingLine } from './sources.js';

export interface MarkdownOptions {
  /** A chart file beside report.md (chart.svg) to show under the market section. */
  chartFile?: string | null;
}

/**
 * report.md: everything a reader needs to judge the run without the JSON — the
 * decision, guardrail findings, each desk's report, the sources Sentiment cited,
 * usage and cost, warnings and status. Plain GitHub-flavoured markdown.
 */
export function renderMarkdown(unsafe: AnalysisResult, options: MarkdownOptions = {}): string {
  // report.md is read in terminals (`cat`, `less -R`) too: no untrusted control sequence.
  const result = sanitizeDeep(unsafe);
  const sections: string[] = [title(result)];
  if (result.demo) sections.push(`> **${demoBanner}**`);
  const historical = historicalBanner(result);
  if (historical !== null) sections.push(`> **${historical}**`);
  for (const line of [blindBanner(result), stabilityBanner(result)]) if (line !== null) sections.push(`> **${line}**`);
  sections.push(summaryLine(result));
  sections.push(marketSection(result));
  if (result.market && options.chartFile)
    sections.push(`![Daily closes with SMA 50/200 and the decision's levels](${options.chartFile})`);
  if (result.mode !== 'agents') {
    sections.push(decisionSection(result));
    const plan = planSection(result);
    if (plan) sections.push(plan);
  }
  if (result.mode !== 'agents' || (result.guardrails ?? []).length > 0)
    sections.push(guardrailSection(result.guardrails ?? []));
  const review = reviewLines(result);
  if (review) sections.push(['## Review', '', ...review.map((line) => `- ${inline(line)}`)].join('\n'));
  const listed = new Set(sentimentSources(result.reports ?? []).map((source) => source.url));
  sections.push(desksSection(result.reports ?? [], listed));
  const sources = sourcesSection(result.reports ?? []);
  if (sources) sections.push(sources);
  sections.push(usageSection(result));
  if ((result.warnings ?? []).length > 0)
    sections.push(`## Warnings\n\n${result.warnings.map((warning) => `- ${oneLine(warning)}`).join('\n')}`);
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
  if (!market)
    return '## Market\n\nMarket data was not available for this run: no price or key stats, and every level is unverifiable.';
  const quote = market.quote;
  const price = quote?.price ?? market.indicators?.lastClose;
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
    [
      '52-week range',
      `${formatPrice(quote?.fiftyTwoWeekLow ?? market.indicators?.low52w)} – ${formatPrice(quote?.fiftyTwoWeekHigh ?? market.indicators?.high52w)}`,
    ],
    ['RSI (14)', formatNumber(market.indicators?.rsi14, 1)],
    ['ATR (14)', formatPrice(market.indicators?.atr14)],
    ['Volatility (20d, annualised)', formatFraction(market.indicators?.volatility20d)],
  ];
  const identity = [market.identity?.exchange, market.identity?.sector, market.identity?.industry]
    .filter(Boolean)
    .join(' · ');
  const lines = ['## Market', ''];
  if (identity) lines.push(inline(identity), '');
  lines.push(twoColumnTable(rows));
  const source = result.demo ? 'demo (synthetic data)' : market.source;
  lines.push('', `${quote?.priceTime ? `Quote time: ${formatWhen(quote.priceTime)}. ` : ''}Source: ${source}.`);
  lines.push('', '### Key indicators', '', twoColumnTable(keyIndicatorRows(market)));
  return lines.join('\n');
}

function twoColumnTable(rows: Array<[string, string]>): string {
  return ['| | |', '|---|---|', ...rows.map(([label, value]) => `| ${cell(label)} | ${cell(value)} |`)].join('\n');
}

function decisionSection(result: AnalysisResult): string {
  const decision = result.decision;
  if (!decision)
    return `## Decision\n\nNo decision: ${inline(result.error ?? 'the run ended before the Director decided')}.`;
  return [
    '## Decision',
    '',
    decisionTable(decision),
    '',
    ...decisionText(decision),
    '',
    levelsTable(result, decision),
  ].join('\n');
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
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    `| ${values.map(cell).join(' | ')} |`,
  ].join('\n');
}

function levelsTable(result: AnalysisResult, decision: Decision): string {
  const rows = levelRows(decision, result.market).map(
    (row) => `| ${[row.level, row.price, row.from, row.distance, row.percent, row.atr].map(cell).join(' | ')} |`,
  );
  return [
    '### Levels',
    '',
    '| Level | Price | From | Distance | % | In ATR |',
    '|---|---:|---|---:|---:|---:|',
    ...rows,
    '',
    `Reward / risk: ${formatRewardToRisk(decision, result.market)}.`,
  ].join('\n');
}

function decisionText(decision: Decision): string[] {
  const lines = [`**Rationale.** ${inline(decision.rationale.trim())}`];
  if (decision.keyRisks.length > 0)
    lines.push('', '**Key risks**', '', ...decision.keyRisks.map((risk) => `- ${inline(oneLine(risk))}`));
  if (decision.dissent) lines.push('', `**Dissent.** ${inline(decision.dissent.trim())}`);
  return lines;
}

function planSection(result: AnalysisResult): string | null {
  const plan = result.plan;
  if (!plan?.thesis) return null;
  const lines = ['## Plan', '', inline(plan.thesis.trim())];
  const briefs = Object.entries(plan.briefs ?? {}).filter(
    ([, brief]) => typeof brief === 'string' && brief.trim() !== '',
  );
  if (briefs.length > 0) {
    lines.push(
      '',
      "### The Director's briefs",
      '',
      ...briefs.map(([agent, brief]) => `- **${agentTitle(agent)}:** ${inline(oneLine(brief))}`),
    );
  }
  return lines.join('\n');
}

const severityOrder: Record<string, number> = { error: 0, warning: 1, info: 2 };

function guardrailSection(findings: GuardrailFinding[]): string {
  if (findings.length === 0) return '## Guardrails\n\nNo findings.';
  const sorted = [...findings].sort((a, b) => (severityOrder[a.severity] ?? 3) - (severityOrder[b.severity] ?? 3));
  return [
    '## Guardrails',
    '',
    ...sorted.map((finding) => `- **${finding.severity}** \`${finding.rule}\`: ${inline(oneLine(finding.message))}`),
  ].join('\n');
}

function desksSection(reports: AgentReport[], listed: ReadonlySet<string>): string {
  if (reports.length === 0) return '## Desks\n\nNo desk reports.';
  return ['## Desks', ...reports.map((report) => deskSection(report, listed))].join('\n\n');
}

function deskSection(report: AgentReport, listed: ReadonlySet<string>): string {
  const status = report.status === 'ok' ? 'ok' : '**failed**';
  const lines = [
    `### ${agentTitle(report.agent)}`,
    '',
    `${status} · ${report.model} · ${formatDuration(report.durationMs)}`,
  ];
  if (report.status !== 'ok') lines.push('', `> Error: ${inline(oneLine(report.error ?? 'unknown error'))}`);
  const blocks = parseDeskText((report.text ?? '').trim());
  const shown = report.agent === 'sentiment' ? withoutListedSources(blocks, listed) : blocks;
  for (const block of shown) lines.push('', blockMarkdown(block));
  const calls = report.toolCalls ?? [];
  if (calls.length > 0) {
    lines.push('', '**Tool calls**', '');
    calls.forEach((call, index) => {
      const outcome = call.error ? `error: ${inline(oneLine(call.error))}` : formatDuration(call.durationMs);
      lines.push(
        `${index + 1}. \`${call.name}\` \`${truncate(oneLine(sanitizeText(call.arguments)), 200).replace(/`/g, "'")}\` (${outcome})`,
      );
    });
  }
  return lines.join('\n');
}

/**
 * One block of a desk's text. Its section lines become level-4 headings (under the
 * desk's own level 3), and its lines are joined by hard breaks, so a viewer shows
 * them as written rather than as one run-on paragraph.
 */
function blockMarkdown(block: DeskBlock): string {
  switch (block.kind) {
    case 'heading':
      return `#### ${inline(block.text)}`;
    case 'lines':
      // A line that starts like markup (`---` would turn the line above into a heading) starts escaped.
      return block.lines.map((line) => inline(line).replace(/^([-=+*_#]|\d+[.)])/, '\\$1')).join('\\\n');
    case 'list':
      return block.items.map((item, index) => `${block.ordered ? `${index + 1}.` : '-'} ${inline(item)}`).join('\n');
    case 'code':
      return ['```text', ...block.lines.map((line) => line.replace(/^(\s*)```/, '$1` ``')), '```'].join('\n');
  }
}

function sentimentSources(reports: AgentReport[]) {
  const sentiment = reports.find((report) => report.agent === 'sentiment');
  return sentiment ? collectSources(sentiment) : [];
}

function sourcesSection(reports: AgentReport[]): string | null {
  if (!reports.some((report) => report.agent === 'sentiment')) return null;
  const sources = sentimentSources(reports);
  if (sources.length === 0) return '## Sources cited by Sentiment\n\nNone.';
  const lines = ['## Sources cited by Sentiment', ''];
  for (const source of sources) {
    const url = safeLinkUrl(source.url);
    const label = !url
      ? inline(source.url)
      : source.title
        ? `[${inline(source.title).replace(/[[\]]/g, '')}](${url.replace(/[()]/g, (bracket) => encodeURIComponent(bracket))})`
        : `<${url}>`;
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
  const lines = [
    '## Status',
    '',
    `**${result.status}**, started ${formatWhen(result.startedAt)}, took ${formatDuration(result.durationMs)}.`,
  ];
  if (result.error) lines.push('', `Error: ${oneLine(result.error)}`);
  if (result.status === 'flagged')
    lines.push('', "Flagged: the decision breaks the guardrails' rules (an `error` finding above); autohedge exits 4.");
  const failed = (result.reports ?? [])
    .filter((report) => report.status !== 'ok')
    .map((report) => agentTitle(report.agent));
  if (failed.length > 0) lines.push('', `Failed desks: ${failed.join(', ')}.`);
  const settings = runSettingsLine(result);
  if (settings) lines.push('', `Run settings: ${inline(settings)}.`);
  lines.push('', '_Not investment advice._');
  return lines.join('\n');
}

/** A table cell: pipes escaped, one line. */
function cell(text: string): string {
  return inline(oneLine(text)).replace(/\|/g, '\\|');
}

/**
 * Untrusted text for markdown: sanitised, with `<`, `>` and `&` escaped so a viewer
 * renders them as text rather than as HTML, and `[label](target)` links whose target
 * is not http(s) broken apart (no javascript: or file: link can be clicked).
 */
function inline(text: string): string {
  return (
    sanitizeText(text)
      .replace(/[<>&]/g, (character) => `\\${character}`)
      // `![x](url)` would make a viewer fetch url with no click (a beacon): an escaped `!` leaves a plain link.
      .replace(/!\[/g, '\\![')
      .replace(/\]\((?!https?:\/\/)/gi, ']\\(')
  );
}
