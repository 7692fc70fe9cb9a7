import { blindBanner, stabilityBanner } from './blind.js';
import type { AgentReport } from '../agent/types.js';
import type { AnalysisResult, Decision, GuardrailFinding } from '../result/types.js';
import { parseDeskText, withoutListedSources, type DeskBlock } from './desk-text.js';
import { escapeHtml, safeLinkUrl } from './escape.js';
import {
  agentTitle,
  demoBanner,
  formatCompact,
  formatCost,
  formatDuration,
  formatNumber,
  formatPrice,
  formatSigned,
  formatTokens,
  formatWhen,
  oneLine,
  truncate,
} from './format.js';
import { historicalBanner } from './historical.js';
import { reportStyle } from './html-style.js';
import { reviewLines } from './revision.js';
import { formatRewardToRisk, keyIndicatorRows, levelRows, runSettingsLine } from './levels.js';
import { collectSources, type Source } from './sources.js';
import { renderSvgChart } from './svg-chart.js';

/**
 * report.html: one self-contained file — inline CSS, the chart as inline SVG, no
 * script, no font, image or stylesheet to fetch — so it opens offline and in a mail
 * client. The only links are to the sources Sentiment cited (http(s) only). Every
 * string that did not come from autohedge is sanitised and escaped (escapeHtml).
 */
export function renderHtml(result: AnalysisResult): string {
  const subject = subjectOf(result);
  const body = [
    headerSection(result, subject),
    result.mode !== 'agents' ? decisionCard(result) : '',
    chartFigure(result, subject),
    marketSection(result),
    result.mode !== 'agents' || (result.guardrails ?? []).length > 0 ? guardrailSection(result.guardrails ?? []) : '',
    reviewSection(result),
    planSection(result),
    desksSection(result.reports ?? []),
    sourcesSection(result.reports ?? []),
    usageSection(result),
    warningsSection(result.warnings ?? []),
    footerSection(result),
  ].filter((part) => part !== '');
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    // Nothing may load: no scripts, no remote fonts, images or styles; links still work.
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
    '<meta name="referrer" content="no-referrer">',
    `<title>${escapeHtml(titleText(result, subject))}</title>`,
    `<style>${reportStyle}</style>`,
    '</head>',
    '<body>',
    '<main>',
    ...body,
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function subjectOf(result: AnalysisResult): string {
  const name = result.market?.identity?.name;
  return name ? `${name} (${result.ticker})` : result.ticker;
}

function titleText(result: AnalysisResult, subject: string): string {
  const decision = result.decision;
  if (decision) return `${subject}: ${decision.action}, conviction ${formatNumber(decision.conviction, 0)}/100`;
  return `${subject}: ${result.mode === 'agents' ? 'desk reports' : 'no decision'}`;
}

function headerSection(result: AnalysisResult, subject: string): string {
  const mode = result.mode === 'agents' ? 'selected desks only (no Director)' : 'full (Director and four desks)';
  const meta = [
    `Run <code>${escapeHtml(result.runId)}</code>`,
    `as of ${escapeHtml(formatWhen(result.asOf))}`,
    `<span class="status status-${escapeHtml(result.status)}">${escapeHtml(result.status)}</span>`,
    escapeHtml(mode),
  ].join(' · ');
  return [
    '<header>',
    `<h1>${escapeHtml(titleText(result, subject))}</h1>`,
    result.demo ? `<p class="banner" data-demo="">${escapeHtml(demoBanner)}</p>` : '',
    historicalBanner(result) !== null
      ? `<p class="banner" data-historical="">${escapeHtml(historicalBanner(result)!)}</p>`
      : '',
    banner('blind', blindBanner(result)),
    banner('stability', stabilityBanner(result)),
    `<p class="meta">${meta}</p>`,
    '</header>',
  ]
    .filter(Boolean)
    .join('\n');
}

function fact(label: string, value: string): string {
  return `<div><dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd></div>`;
}

function decisionCard(result: AnalysisResult): string {
  const decision = result.decision;
  if (!decision) {
    return `<section class="card" id="decision" data-decision="none"><h2>Decision</h2><p>No decision: ${escapeHtml(result.error ?? 'the run ended before the Director decided')}.</p></section>`;
  }
  const conviction = Math.max(0, Math.min(100, decision.conviction));
  return [
    `<section class="card" id="decision" data-decision="${escapeHtml(decision.action)}">`,
    '<h2>Decision</h2>',
    `<div class="action action-${escapeHtml(decision.action)}">${escapeHtml(decision.action)}</div>`,
    `<p>Conviction ${escapeHtml(formatNumber(decision.conviction, 0))}/100</p>`,
    `<div class="conviction" aria-hidden="true"><span style="width:${conviction.toFixed(0)}%"></span></div>`,
    '<dl class="facts">',
    fact('Size', `${formatNumber(decision.positionSizePct, 1)}% of portfolio`),
    fact('Order', decision.orderType),
    fact('Entry', formatPrice(decision.entry)),
    fact('Stop loss', formatPrice(decision.stopLoss)),
    fact('Take profit', formatPrice(decision.takeProfit)),
    fact('Reward / risk', formatRewardToRisk(decision, result.market)),
    fact('Horizon', decision.timeHorizon),
    '</dl>',
    ...decisionText(decision),
    levelsTable(decision, result),
    '</section>',
  ].join('\n');
}

function decisionText(decision: Decision): string[] {
  const parts = [`<p><strong>Rationale.</strong> ${escapeHtml(decision.rationale.trim())}</p>`];
  if (decision.keyRisks.length > 0) {
    parts.push(
      '<p><strong>Key risks</strong></p>',
      `<ul>${decision.keyRisks.map((risk) => `<li>${escapeHtml(oneLine(risk))}</li>`).join('')}</ul>`,
    );
  }
  if (decision.dissent) parts.push(`<p><strong>Dissent.</strong> ${escapeHtml(decision.dissent.trim())}</p>`);
  return parts;
}

function table(header: string[], rows: string[][], numeric: ReadonlySet<number> = new Set()): string {
  const cell = (tag: 'th' | 'td', text: string, column: number) =>
    `<${tag}${numeric.has(column) ? ' class="number"' : ''}>${text}</${tag}>`;
  const head = `<tr>${header.map((text, column) => cell('th', escapeHtml(text), column)).join('')}</tr>`;
  const body = rows.map((row) => `<tr>${row.map((text, column) => cell('td', text, column)).join('')}</tr>`).join('\n');
  return `<div class="scroll"><table>\n<thead>${head}</thead>\n<tbody>\n${body}\n</tbody>\n</table></div>`;
}

function levelsTable(decision: Decision, result: AnalysisResult): string {
  const rows = levelRows(decision, result.market).map((row) =>
    [row.level, row.price, row.from, row.distance, row.percent, row.atr].map(escapeHtml),
  );
  return `<h3>Levels</h3>\n${table(['Level', 'Price', 'From', 'Distance', '%', 'In ATR'], rows, new Set([1, 3, 4, 5]))}`;
}

function chartFigure(result: AnalysisResult, subject: string): string {
  const market = result.market;
  if (!market) return '';
  const svg = renderSvgChart(market.bars ?? [], {
    asOf: result.asOf,
    levels: result.decision,
    title: subject,
    currency: market.identity?.currency,
  });
  if (svg === '') return '';
  const caption = `Daily closes with SMA 50 and SMA 200${result.decision ? ', entry, stop and target' : ''}; the dotted vertical line is the as-of day.`;
  return `<figure class="chart" id="chart">\n${svg}\n<figcaption class="meta">${escapeHtml(caption)}</figcaption>\n</figure>`;
}

function marketSection(result: AnalysisResult): string {
  const market = result.market;
  if (!market)
    return '<section id="market"><h2>Market</h2><p>Market data was not available for this run: no price or key stats, and every level is unverifiable.</p></section>';
  const quote = market.quote;
  const price = quote?.price ?? market.indicators?.lastClose;
  const currency = market.identity?.currency ? ` ${market.identity.currency}` : '';
  const change =
    quote?.change === null || quote?.change === undefined
      ? 'n/a'
      : `${formatSigned(quote.change)} (${formatSigned(quote.changePercent, 2)}%)`;
  const rows: Array<[string, string]> = [
    ['Price', `${formatPrice(price)}${price === null || price === undefined ? '' : currency}`],
    ['Change', change],
    ['Market cap', formatCompact(quote?.marketCap)],
    ['P/E (trailing / forward)', `${formatNumber(quote?.trailingPE, 1)} / ${formatNumber(quote?.forwardPE, 1)}`],
    ['Beta', formatNumber(quote?.beta, 2)],
    ...keyIndicatorRows(market),
  ];
  const identity = [market.identity?.exchange, market.identity?.sector, market.identity?.industry]
    .filter(Boolean)
    .join(' · ');
  const source = result.demo ? 'demo (synthetic data)' : market.source;
  const when = `${quote?.priceTime ? `Quote time ${formatWhen(quote.priceTime)}. ` : ''}Source: ${source}.`;
  return [
    '<section id="market">',
    '<h2>Market and key indicators</h2>',
    identity ? `<p class="meta">${escapeHtml(identity)}</p>` : '',
    table(
      ['', ''],
      rows.map(([label, value]) => [escapeHtml(label), escapeHtml(value)]),
    ),
    `<p class="meta">${escapeHtml(when)}</p>`,
    '</section>',
  ]
    .filter(Boolean)
    .join('\n');
}

const severityOrder: Record<string, number> = { error: 0, warning: 1, info: 2 };

function guardrailSection(findings: GuardrailFinding[]): string {
  if (findings.length === 0) return '<section id="guardrails"><h2>Guardrails</h2><p>No findings.</p></section>';
  const sorted = [...findings].sort((a, b) => (severityOrder[a.severity] ?? 3) - (severityOrder[b.severity] ?? 3));
  const items = sorted.map(
    (finding) =>
      `<li class="finding-${escapeHtml(finding.severity)}"><strong>${escapeHtml(finding.severity)}</strong> <code>${escapeHtml(finding.rule)}</code>: ${escapeHtml(oneLine(finding.message))}</li>`,
  );
  return `<section id="guardrails"><h2>Guardrails</h2>\n<ul>\n${items.join('\n')}\n</ul></section>`;
}

/** What the Director's review pass did (a first decision that broke a rule), when there was one. */
function reviewSection(result: AnalysisResult): string {
  const lines = reviewLines(result);
  if (!lines) return '';
  return `<section id="review"><h2>Review</h2>\n<ul>\n${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('\n')}\n</ul></section>`;
}

function planSection(result: AnalysisResult): string {
  const plan = result.plan;
  if (!plan?.thesis) return '';
  const briefs = Object.entries(plan.briefs ?? {}).filter(
    ([, brief]) => typeof brief === 'string' && brief.trim() !== '',
  );
  const list = briefs
    .map(
      ([agent, brief]) => `<li><strong>${escapeHtml(agentTitle(agent))}:</strong> ${escapeHtml(oneLine(brief))}</li>`,
    )
    .join('\n');
  return [
    '<section id="plan">',
    "<h2>The Director's plan</h2>",
    `<p>${escapeHtml(plan.thesis.trim())}</p>`,
    briefs.length > 0 ? `<h3>Briefs</h3>\n<ul>\n${list}\n</ul>` : '',
    '</section>',
  ]
    .filter(Boolean)
    .join('\n');
}

function blockHtml(block: DeskBlock): string {
  switch (block.kind) {
    case 'heading':
      return `<h4>${escapeHtml(block.text)}</h4>`;
    case 'lines':
      return `<p>${block.lines.map(escapeHtml).join('<br>\n')}</p>`;
    case 'list': {
      const tag = block.ordered ? 'ol' : 'ul';
      return `<${tag}>${block.items.map((item) => `<li>${escapeHtml(item)}</li>`).join('')}</${tag}>`;
    }
    case 'code':
      return `<pre>${block.lines.map(escapeHtml).join('\n')}</pre>`;
  }
}

function deskSection(report: AgentReport, listed: ReadonlySet<string>): string {
  const failed = report.status !== 'ok';
  const meta = [
    failed ? '<strong class="finding-error">failed</strong>' : 'ok',
    escapeHtml(report.model ?? ''),
    escapeHtml(formatDuration(report.durationMs)),
  ].join(' · ');
  const parts = [
    `<article class="desk${failed ? ' desk-failed' : ''}" data-agent="${escapeHtml(report.agent)}">`,
    `<h3>${escapeHtml(agentTitle(report.agent))}</h3>`,
    `<p class="meta">${meta}</p>`,
  ];
  if (failed) parts.push(`<p class="finding-error">Error: ${escapeHtml(oneLine(report.error ?? 'unknown error'))}</p>`);
  const blocks = parseDeskText((report.text ?? '').trim());
  parts.push(...(report.agent === 'sentiment' ? withoutListedSources(blocks, listed) : blocks).map(blockHtml));
  const calls = report.toolCalls ?? [];
  if (calls.length > 0) {
    const items = calls.map((call) => {
      const outcome = call.error
        ? `<span class="finding-error">error: ${escapeHtml(oneLine(call.error))}</span>`
        : escapeHtml(formatDuration(call.durationMs));
      return `<li class="tool-call"><code>${escapeHtml(call.name)}</code> <code>${escapeHtml(truncate(oneLine(call.arguments), 200))}</code> (${outcome})</li>`;
    });
    parts.push('<p><strong>Tool calls</strong></p>', `<ol>${items.join('')}</ol>`);
  }
  parts.push('</article>');
  return parts.join('\n');
}

function sentimentSources(reports: AgentReport[]): Source[] {
  const sentiment = reports.find((report) => report.agent === 'sentiment');
  return sentiment ? collectSources(sentiment) : [];
}

function desksSection(reports: AgentReport[]): string {
  if (reports.length === 0) return '<section id="desks"><h2>Desks</h2><p>No desk reports.</p></section>';
  const listed = new Set(sentimentSources(reports).map((source) => source.url));
  return `<section id="desks"><h2>Desks</h2>\n${reports.map((report) => deskSection(report, listed)).join('\n')}\n</section>`;
}

function sourcesSection(reports: AgentReport[]): string {
  if (!reports.some((report) => report.agent === 'sentiment')) return '';
  const sources = sentimentSources(reports);
  if (sources.length === 0) return '<section id="sources"><h2>Sources cited by Sentiment</h2><p>None.</p></section>';
  const items = sources.map((source) => {
    const href = safeLinkUrl(source.url);
    const label = escapeHtml(source.title ?? source.url);
    const link = href ? `<a href="${escapeHtml(href)}" rel="noreferrer noopener">${label}</a>` : label;
    return `<li>${link}${source.cited ? '' : ' <span class="meta">(search result, not cited in the text)</span>'}</li>`;
  });
  return `<section id="sources"><h2>Sources cited by Sentiment</h2>\n<ul>\n${items.join('\n')}\n</ul></section>`;
}

function usageSection(result: AnalysisResult): string {
  const usage = result.usage;
  const rows = Object.entries(usage?.byAgent ?? {}).map(([agent, entry]) =>
    [
      agent,
      entry.model ?? '',
      formatTokens(entry.promptTokens),
      formatTokens(entry.cachedPromptTokens),
      formatTokens(entry.completionTokens),
      formatCost(entry.costUsd),
    ].map(escapeHtml),
  );
  rows.push(
    [
      'Total',
      '',
      formatTokens(usage?.promptTokens ?? 0),
      formatTokens(usage?.cachedPromptTokens ?? 0),
      formatTokens(usage?.completionTokens ?? 0),
      formatCost(usage?.costUsd),
    ].map((text) => `<strong>${escapeHtml(text)}</strong>`),
  );
  const note = result.demo
    ? '<p class="meta">A demo replays a recording: these are the recorded token counts priced at today’s table; nothing was spent.</p>'
    : usage?.costUsd === null || usage?.costUsd === undefined
      ? '<p class="meta">Cost unknown: at least one model has no known price, so no total is given rather than a guess.</p>'
      : '';
  return `<section id="usage"><h2>Usage and cost</h2>\n${table(['Agent', 'Model', 'Input tokens', 'Cached input', 'Output tokens', 'Cost (USD)'], rows, new Set([2, 3, 4, 5]))}\n${note}</section>`;
}

function warningsSection(warnings: string[]): string {
  if (warnings.length === 0) return '';
  return `<section id="warnings"><h2>Warnings</h2>\n<ul>\n${warnings.map((warning) => `<li>${escapeHtml(oneLine(warning))}</li>`).join('\n')}\n</ul></section>`;
}

function footerSection(result: AnalysisResult): string {
  const failed = (result.reports ?? [])
    .filter((report) => report.status !== 'ok')
    .map((report) => agentTitle(report.agent));
  return [
    '<footer>',
    `<p>Status <strong>${escapeHtml(result.status)}</strong>, started ${escapeHtml(formatWhen(result.startedAt))}, took ${escapeHtml(formatDuration(result.durationMs))}.</p>`,
    result.error ? `<p>Error: ${escapeHtml(oneLine(result.error))}</p>` : '',
    result.status === 'flagged'
      ? '<p>Flagged: the decision breaks a guardrail rule (an <code>error</code> finding above); autohedge exits 4.</p>'
      : '',
    failed.length > 0 ? `<p>Failed desks: ${escapeHtml(failed.join(', '))}.</p>` : '',
    runSettingsLine(result) ? `<p>Run settings: ${escapeHtml(runSettingsLine(result)!)}.</p>` : '',
    '<p>Generated by autohedge. Not investment advice: autohedge never places an order.</p>',
    '</footer>',
  ]
    .filter(Boolean)
    .join('\n');
}

function banner(kind: string, line: string | null): string {
  return line === null ? '' : `<p class="banner" data-${kind}="">${escapeHtml(line)}</p>`;
}
