import { deskCountText } from '../../agents/roster.js';
import type { AgentReport, ToolCallRecord } from '../agent/types.js';
import { findCalendarOf } from '../market/calendar/index.js';
import type { MarketSnapshot } from '../market/types.js';
import type { AnalysisResult, Decision, GuardrailFinding } from '../result/types.js';
import { flexPromptTokens } from '../result/run-facts.js';
import { sanitizeDeep } from '../sanitize.js';
import { ClaimMarks, figuresSection } from './claims.js';
import { parseDeskText, rawWithoutSources, withoutListedSources, type DeskBlock } from './desk-text.js';
import {
  agentTitle,
  demoBanner,
  formatCompact,
  formatCost,
  formatDuration,
  formatFraction,
  formatNumber,
  formatPrice,
  formatSigned,
  formatTokens,
  formatWhen,
  notAvailable,
  oneLine,
  shortDemoBanner,
  truncate,
} from './format.js';
import { blindBanner, stabilityBanner, stabilityTone } from './blind.js';
import { fundamentalsParts } from './fundamentals-table.js';
import { historicalBanner } from './historical.js';
import { formatRewardToRisk, keyIndicatorRows, levelRows, runSettingsLine } from './levels.js';
import { reviewLines } from './revision.js';
import { collectSources, searchBackingLine } from './sources.js';
import { statusNotice } from './status-banner.js';
import type { ClaimMark, Fact, Marked, Notice, Part, ReportView, Section, Tone } from './view-types.js';

export type * from './view-types.js';

/** How much of a tool call's arguments report.md and report.html show. */
const toolCallExcerptChars = 200;

/**
 * The report of a run as data: what it says, in which section, in which words. The
 * three renderers (terminal.ts, markdown.ts, html.ts) serialise this and nothing
 * else, so a change to what a report says is made here, once. Pure: same result,
 * same view. Untrusted text is sanitised here; each renderer escapes for its medium.
 */
export function reportView(unsafe: AnalysisResult): ReportView {
  // Sanitised again here: a saved run (`runs show`) may predate sanitising or be hand-edited.
  const result = sanitizeDeep(unsafe);
  const subject = subjectOf(result);
  const full = result.mode !== 'agents';
  const guardrails = result.guardrails ?? [];
  const reports = result.reports ?? [];
  // The checked figures of the prose, numbered as the sections below are built: in reading order.
  const marks = new ClaimMarks(result.claims);
  const sections: Array<Section | null> = [
    marketSection(result, subject),
    full ? decisionSection(result, marks) : null,
    full ? planSection(result, marks) : null,
    full || guardrails.length > 0 ? guardrailSection(guardrails, Boolean(result.decision)) : null,
    figuresSection(result),
    reviewSection(result),
    desksSection(reports, marks),
    ...reports.filter(searched).map(sourcesSection),
    warningsSection(result.warnings ?? []),
    usageSection(result),
    statusSection(result),
  ];
  return {
    title: titleOf(result, subject),
    subject,
    notices: noticesOf(result),
    meta: metaOf(result),
    sections: sections.filter((section): section is Section => section !== null),
    notes: marks.notes(),
    disclaimer: 'Not investment advice: autohedge never places an order.',
  };
}

/** Every section of a view, desks included, in reading order: what tests and generic readers walk. */
export function allSections(view: ReportView): Section[] {
  return view.sections.flatMap((section) => [section, ...(section.subsections ?? [])]);
}

/** Where a claim was checked and what the data says, as one aside ("returns.m1; the data says +8.00%"); empty when neither is known. */
export function claimWhere(claim: ClaimMark): string {
  return [claim.source, claim.detail].filter(Boolean).join('; ');
}

/** The facts of a section, from every facts part, in order. */
export function factsOf(section: Section): Fact[] {
  return section.parts.flatMap((part) => (part.kind === 'facts' ? part.facts : []));
}

function subjectOf(result: AnalysisResult): string {
  const name = result.market?.identity?.name;
  return name ? `${name} (${result.ticker})` : result.ticker;
}

function titleOf(result: AnalysisResult, subject: string): string {
  const decision = result.decision;
  // A flagged or degraded call never reads like a clean one: its status is in the title and the H1.
  const status = result.status === 'flagged' || result.status === 'degraded' ? ` (${result.status.toUpperCase()})` : '';
  if (decision)
    return `${subject}: ${decision.action}${status}, conviction ${formatNumber(decision.conviction, 0)}/100`;
  return `${subject}: ${result.mode === 'agents' ? 'desk reports' : 'no decision'}`;
}

/** The lines a report opens with. A new banner (blind, flagged) is one more entry here. */
function noticesOf(result: AnalysisResult): Notice[] {
  const notices: Notice[] = [];
  if (result.demo) notices.push({ key: 'demo', text: demoBanner, short: shortDemoBanner, tone: 'warning' });
  const historical = historicalBanner(result);
  if (historical !== null) notices.push({ key: 'historical', text: historical, tone: 'warning' });
  const blind = blindBanner(result);
  if (blind !== null) notices.push({ key: 'blind', text: blind, tone: 'warning' });
  const stability = stabilityBanner(result);
  if (stability !== null) notices.push({ key: 'stability', text: stability, tone: stabilityTone(result) });
  const status = statusNotice(result);
  if (status !== null) notices.push(status);
  return notices;
}

const statusTone = (status: string): Tone =>
  status === 'ok' ? 'good' : status === 'failed' || status === 'interrupted' ? 'bad' : 'warning';

function metaOf(result: AnalysisResult): Fact[] {
  const mode =
    result.mode === 'agents' ? 'selected desks only (no Director)' : `full (Director and ${deskCountText()})`;
  return [
    { key: 'run', label: 'Run', value: result.runId, code: true },
    { key: 'asOf', label: 'as of', value: asOfValue(result.asOf, result.ticker) },
    { key: 'status', label: 'status', value: result.status, tone: statusTone(result.status) },
    { key: 'mode', label: 'mode', value: mode },
    { key: 'wallTime', label: 'wall time', value: formatDuration(result.durationMs) },
  ];
}

/**
 * The run's as-of, named for what it is: a session's close (a demo, a historical run)
 * says so, so it is not read as the quote's time, which the market facts label apart.
 */
function asOfValue(asOf: string, ticker: string): string {
  const instant = Date.parse(asOf);
  const calendar = findCalendarOf(ticker);
  if (!Number.isFinite(instant) || !calendar) return formatWhen(asOf);
  // The ticker's own exchange's close of that day, early closes included (the demo day closed early, at 18:00 UTC).
  const day = calendar.localDay(new Date(instant));
  const close = calendar.isSession(day) ? calendar.closeAt(day).getTime() : Number.NaN;
  return close === instant ? `${formatWhen(asOf)} (session close)` : formatWhen(asOf);
}

const noMarket =
  'Market data was not available for this run: no price, chart or key stats, and every level is unverifiable.';

function marketSection(result: AnalysisResult, subject: string): Section {
  const market = result.market;
  const section: Section = { id: 'market', key: 'market', title: 'Market', parts: [] };
  if (!market) {
    section.parts.push({ kind: 'text', key: 'unavailable', text: noMarket, tone: 'warning' });
    return section;
  }
  const identity = [market.identity?.exchange, market.identity?.sector, market.identity?.industry].filter(Boolean);
  if (identity.length > 0)
    section.parts.push({ kind: 'text', key: 'identity', text: identity.join(' · '), tone: 'muted' });
  section.parts.push({ kind: 'facts', key: 'quote', facts: quoteFacts(result, market) });
  const source = result.demo ? 'demo (synthetic data)' : market.source;
  section.parts.push({ kind: 'text', key: 'source', text: `Source: ${source}.`, tone: 'muted' });
  section.parts.push({
    kind: 'table',
    table: {
      key: 'indicators',
      title: 'Key indicators',
      columns: [
        { key: 'label', label: '' },
        { key: 'value', label: '' },
      ],
      rows: keyIndicatorRows(market).map(([label, value]) => [label, value]),
    },
  });
  section.parts.push(...fundamentalsParts(market.fundamentals));
  const bars = market.bars ?? [];
  if (bars.filter((bar) => typeof bar.close === 'number').length >= 2) {
    const levels = result.decision ? ', entry, stop and target' : '';
    section.parts.push({
      kind: 'chart',
      bars,
      asOf: result.asOf,
      levels: result.decision,
      title: subject,
      ...(market.identity?.currency ? { currency: market.identity.currency } : {}),
      caption: `Daily closes with SMA 50 and SMA 200${levels}; the dotted vertical line is the as-of day.`,
    });
  }
  return section;
}

function quoteFacts(result: AnalysisResult, market: MarketSnapshot): Fact[] {
  const quote = market.quote;
  const indicators = market.indicators;
  const price = quote?.price ?? indicators?.lastClose;
  const currency = market.identity?.currency;
  const change = quote?.change;
  const percent = quote?.changePercent;
  const low = formatPrice(quote?.fiftyTwoWeekLow ?? indicators?.low52w);
  const high = formatPrice(quote?.fiftyTwoWeekHigh ?? indicators?.high52w);
  return [
    {
      key: 'price',
      label: 'Price',
      value: formatPrice(price),
      ...(currency && price !== null && price !== undefined ? { unit: currency } : {}),
    },
    {
      key: 'change',
      label: 'Change',
      // The quote's changePercent is already in percent (1.28 means 1.28 %).
      value:
        change === null || change === undefined
          ? notAvailable
          : `${formatSigned(change)} (${percent === null || percent === undefined ? notAvailable : `${formatSigned(percent, 2)}%`})`,
      tone: !change ? 'plain' : change > 0 ? 'good' : 'bad',
    },
    { key: 'quoteTime', label: 'Quote time', value: formatWhen(quote?.priceTime) },
    { key: 'marketCap', label: 'Market cap', short: 'Market cap', value: formatCompact(quote?.marketCap) },
    { key: 'pe', label: 'P/E (trailing)', short: 'P/E', value: formatNumber(quote?.trailingPE, 1) },
    { key: 'forwardPe', label: 'P/E (forward)', value: formatNumber(quote?.forwardPE, 1) },
    { key: 'beta', label: 'Beta', value: formatNumber(quote?.beta, 2) },
    { key: 'range52w', label: '52-week range', short: '52w', value: `${low} – ${high}`, compact: `${low}–${high}` },
    { key: 'rsi', label: 'RSI (14)', short: 'RSI', value: formatNumber(indicators?.rsi14, 1) },
    { key: 'atr', label: 'ATR (14)', short: 'ATR', value: formatPrice(indicators?.atr14) },
    {
      key: 'volatility',
      label: 'Volatility (20d, annualised)',
      short: 'Vol 20d',
      value: formatFraction(indicators?.volatility20d),
    },
  ];
}

const actionTone = (action: string): Tone => (action === 'BUY' ? 'good' : action === 'SELL' ? 'bad' : 'warning');

function decisionSection(result: AnalysisResult, marks: ClaimMarks): Section {
  const section: Section = { id: 'decision', key: 'decision', title: 'Decision', parts: [] };
  const decision = result.decision;
  if (!decision) {
    const reason = result.error ?? 'the run ended before the Director decided';
    section.parts.push({ kind: 'text', key: 'none', text: `No decision: ${reason}.`, tone: 'bad' });
    return section;
  }
  section.parts.push(
    { kind: 'facts', key: 'decision', facts: decisionFacts(decision), layout: 'row' },
    { kind: 'facts', key: 'levels', facts: levelFacts(decision, result.market), layout: 'row' },
    ...decisionText(decision, marks),
    {
      kind: 'table',
      table: {
        key: 'levels',
        title: 'Levels',
        columns: [
          { key: 'level', label: 'Level' },
          { key: 'price', label: 'Price', numeric: true },
          { key: 'from', label: 'From' },
          { key: 'distance', label: 'Distance', numeric: true },
          { key: 'percent', label: '%', numeric: true },
          { key: 'atr', label: 'In ATR', numeric: true },
        ],
        rows: levelRows(decision, result.market).map((row) => [
          row.level,
          row.price,
          row.from,
          row.distance,
          row.percent,
          row.atr,
        ]),
      },
    },
  );
  return section;
}

function decisionFacts(decision: Decision): Fact[] {
  const conviction = `${formatNumber(decision.conviction, 0)}/100`;
  const size = `${formatNumber(decision.positionSizePct, 1)}%`;
  return [
    {
      key: 'action',
      label: 'Action',
      value: decision.action,
      inline: decision.action,
      tone: actionTone(decision.action),
    },
    {
      key: 'conviction',
      label: 'Conviction',
      value: conviction,
      inline: `conviction ${conviction}`,
      bar: Number.isFinite(decision.conviction) ? Math.max(0, Math.min(100, decision.conviction)) : 0,
    },
    { key: 'size', label: 'Size', value: size, inline: `size ${size} of portfolio` },
    { key: 'order', label: 'Order', value: decision.orderType, inline: `${decision.orderType} order` },
    { key: 'horizon', label: 'Horizon', value: decision.timeHorizon, inline: `horizon ${decision.timeHorizon}` },
  ];
}

function levelFacts(decision: Decision, market: MarketSnapshot | null): Fact[] {
  return [
    { key: 'entry', label: 'Entry', value: formatPrice(decision.entry) },
    { key: 'stopLoss', label: 'Stop loss', short: 'Stop', value: formatPrice(decision.stopLoss) },
    { key: 'takeProfit', label: 'Take profit', short: 'Target', value: formatPrice(decision.takeProfit) },
    { key: 'rewardRisk', label: 'Reward / risk', value: formatRewardToRisk(decision, market) },
  ];
}

function decisionText(decision: Decision, marks: ClaimMarks): Part[] {
  const text = (field: string, value: string) => ({ text: value, marked: marks.marked('director', field, value) });
  const parts: Part[] = [
    { kind: 'text', key: 'rationale', label: 'Rationale', ...text('decision.rationale', decision.rationale.trim()) },
  ];
  if (decision.keyRisks.length > 0)
    parts.push({
      kind: 'list',
      key: 'keyRisks',
      label: 'Key risks',
      items: decision.keyRisks.map((risk, index) => text(`decision.keyRisks.${index}`, oneLine(risk))),
    });
  if (decision.dissent)
    parts.push({
      kind: 'text',
      key: 'dissent',
      label: 'Dissent',
      ...text('decision.dissent', decision.dissent.trim()),
    });
  return parts;
}

function planSection(result: AnalysisResult, marks: ClaimMarks): Section | null {
  const plan = result.plan;
  if (!plan?.thesis) return null;
  const thesis = plan.thesis.trim();
  const parts: Part[] = [
    {
      kind: 'text',
      key: 'thesis',
      label: 'Thesis',
      text: thesis,
      marked: marks.marked('director', 'plan.thesis', thesis),
    },
  ];
  const briefs = Object.entries(plan.briefs ?? {}).filter(
    ([, brief]) => typeof brief === 'string' && brief.trim() !== '',
  );
  if (briefs.length > 0)
    parts.push({
      kind: 'list',
      key: 'briefs',
      title: "The Director's briefs",
      items: briefs.map(([agent, brief]) => ({
        label: agentTitle(agent),
        text: oneLine(brief),
        marked: marks.marked('director', `plan.briefs.${agent}`, oneLine(brief)),
      })),
    });
  return { id: 'plan', key: 'plan', title: 'Plan', parts };
}

const severityOrder: Record<string, number> = { error: 0, warning: 1, info: 2 };

function guardrailSection(findings: GuardrailFinding[], decided: boolean): Section {
  const sorted = [...findings].sort((a, b) => (severityOrder[a.severity] ?? 3) - (severityOrder[b.severity] ?? 3));
  // "No findings." would read as a clean bill of health where nothing was checked.
  const none: Part = decided
    ? { kind: 'text', key: 'none', text: 'No findings.', tone: 'good' }
    : { kind: 'text', key: 'unchecked', text: 'No decision was checked: the run made none.', tone: 'muted' };
  const parts: Part[] =
    sorted.length === 0
      ? [none]
      : [{ kind: 'findings', findings: sorted.map((finding) => ({ ...finding, message: oneLine(finding.message) })) }];
  return { id: 'guardrails', key: 'guardrails', title: 'Guardrails', parts };
}

/** What the Director's review pass did (a first decision that broke a rule), when there was one. */
function reviewSection(result: AnalysisResult): Section | null {
  const lines = reviewLines(result);
  if (!lines) return null;
  const parts: Part[] = [{ kind: 'list', key: 'review', items: lines.map((text) => ({ text })) }];
  return { id: 'review', key: 'review', title: 'Review', parts };
}

/** A call that searched the web: `exa_search`, or an MCP server's `…search` tool. Its results are sources. */
export function isSearchCall(call: Pick<ToolCallRecord, 'name'>): boolean {
  return /(^|[_.-])search$/i.test(call.name);
}

/** Whose sources: the desks that made a search call, whatever their id. */
function searched(report: AgentReport): boolean {
  return (report.toolCalls ?? []).some(isSearchCall);
}

/** The sources of a desk that searched: the URLs it cited, then those its searches returned. */
function sourcesOf(report: AgentReport) {
  return collectSources({ ...report, toolCalls: (report.toolCalls ?? []).filter(isSearchCall) });
}

function desksSection(reports: AgentReport[], marks: ClaimMarks): Section {
  const parts: Part[] =
    reports.length === 0 ? [{ kind: 'text', key: 'none', text: 'No desk reports.', tone: 'muted' }] : [];
  const subsections = reports.map((report) => deskSection(report, marks));
  return { id: 'desks', key: 'desks', title: 'Desks', parts, subsections };
}

/** Each block's text with its checked figures: a heading's, each line's or item's; none in code. */
function markedBlocks(blocks: DeskBlock[], mark: (text: string) => Marked): Array<Marked[] | null> {
  return blocks.map((block) => {
    if (block.kind === 'heading') return [mark(block.text)];
    if (block.kind === 'lines') return block.lines.map(mark);
    if (block.kind === 'list') return block.items.map(mark);
    return null;
  });
}

function deskSection(report: AgentReport, marks: ClaimMarks): Section {
  const failed = report.status !== 'ok';
  const parts: Part[] = [];
  if (failed)
    parts.push({
      kind: 'text',
      key: 'error',
      label: 'Error',
      text: oneLine(report.error ?? 'unknown error'),
      tone: 'bad',
    });
  const raw = (report.text ?? '').trim();
  if (raw) {
    const blocks = parseDeskText(raw);
    // A trailing SOURCES list the Sources section repeats is shown once, there.
    const listed = new Set(searched(report) ? sourcesOf(report).map((source) => source.url) : []);
    const shown = withoutListedSources(blocks, listed);
    const marked = markedBlocks(shown, (text) => marks.marked(report.agent, 'report', text));
    parts.push({ kind: 'desk-text', raw: rawWithoutSources(raw, blocks, shown), blocks: shown, marked });
  } else if (!failed) parts.push({ kind: 'text', key: 'empty', text: '(no text)', tone: 'muted' });
  const calls = report.toolCalls ?? [];
  if (calls.length > 0)
    parts.push({
      kind: 'tool-calls',
      calls: calls.map((call) => ({
        name: call.name,
        arguments: oneLine(call.arguments),
        excerpt: truncate(oneLine(call.arguments), toolCallExcerptChars),
        outcome: call.error ? `error: ${oneLine(call.error)}` : formatDuration(call.durationMs),
        failed: Boolean(call.error),
      })),
    });
  const detail: Fact[] = [
    failed
      ? { key: 'status', label: 'status', value: 'failed', compact: 'FAILED', tone: 'bad' }
      : { key: 'status', label: 'status', value: 'ok', tone: 'good' },
    { key: 'model', label: 'model', value: report.model ?? '' },
    { key: 'duration', label: 'time', value: formatDuration(report.durationMs) },
  ];
  return {
    id: 'desk',
    key: report.agent,
    title: agentTitle(report.agent),
    detail,
    parts,
    tone: failed ? 'bad' : 'plain',
  };
}

function sourcesSection(report: AgentReport): Section {
  const sources = sourcesOf(report).map((source) => ({
    ...source,
    note: source.cited ? null : 'search result, not cited in the text',
  }));
  const parts: Part[] =
    sources.length === 0
      ? [{ kind: 'text', key: 'none', text: 'None.', tone: 'muted' }]
      : [{ kind: 'sources', sources }];
  return { id: 'sources', key: report.agent, title: `Sources cited by ${agentTitle(report.agent)}`, parts };
}

function usageSection(result: AnalysisResult): Section {
  const usage = result.usage;
  const rows = Object.entries(usage?.byAgent ?? {}).map(([agent, entry]) => [
    agent,
    entry.model ?? '',
    formatTokens(entry.promptTokens),
    formatTokens(entry.cachedPromptTokens),
    formatTokens(entry.completionTokens),
    formatCost(entry.costUsd),
  ]);
  const rowKeys = rows.map(([agent]) => agent!);
  // The searches are priced apart but counted in the total: a row of their own, so the rows add up.
  const search = usage?.search;
  if (search) {
    rows.push([
      `search (${search.searches} × ${search.provider})`,
      search.model ?? '',
      formatTokens(search.promptTokens),
      formatTokens(0),
      formatTokens(search.completionTokens),
      formatCost(search.costUsd),
    ]);
    rowKeys.push('search');
  }
  const parts: Part[] = [
    {
      kind: 'table',
      table: {
        key: 'usage',
        columns: [
          { key: 'agent', label: 'Agent' },
          { key: 'model', label: 'Model' },
          { key: 'in', label: 'Input tokens', numeric: true },
          { key: 'cached', label: 'Cached input', numeric: true },
          { key: 'out', label: 'Output tokens', numeric: true },
          { key: 'cost', label: 'Cost (USD)', numeric: true },
        ],
        rows,
        rowKeys,
        total: [
          'Total',
          '',
          formatTokens((usage?.promptTokens ?? 0) + (search?.promptTokens ?? 0)),
          formatTokens(usage?.cachedPromptTokens ?? 0),
          formatTokens((usage?.completionTokens ?? 0) + (search?.completionTokens ?? 0)),
          formatCost(usage?.costUsd),
        ],
      },
    },
  ];
  if (result.demo)
    parts.push({
      kind: 'text',
      key: 'demo',
      text: 'A demo replays a recording: these are the recorded token counts priced at today’s table; nothing was spent.',
      tone: 'muted',
    });
  else if (usage?.costUsd === null || usage?.costUsd === undefined)
    parts.push({
      kind: 'text',
      key: 'costUnknown',
      text: 'Cost unknown: at least one model has no known price, so no total is given rather than a guess.',
      tone: 'warning',
    });
  const cache = cacheLine(usage);
  if (cache) parts.push({ kind: 'text', key: 'cache', text: cache, tone: 'muted' });
  const flex = flexLine(usage);
  if (flex) parts.push({ kind: 'text', key: 'flex', text: flex, tone: 'muted' });
  const backing = searchBackingLine(result);
  if (backing) parts.push({ kind: 'text', key: 'search', text: `${backing}.`, tone: 'muted' });
  return { id: 'usage', key: 'usage', title: 'Usage and cost', parts };
}

/**
 * What the provider's prompt cache served, and what that saved: cached tokens × (input
 * price − cached price). Nothing when no token was served from a cache.
 */
function cacheLine(usage: AnalysisResult['usage'] | undefined): string | null {
  if (!usage || !(usage.cachedPromptTokens > 0)) return null;
  const share = usage.promptTokens > 0 ? usage.cachedPromptTokens / usage.promptTokens : 0;
  const saved =
    usage.cacheSavedUsd === undefined
      ? ''
      : usage.cacheSavedUsd === null
        ? ', saving unknown'
        : `, saving ${formatCost(usage.cacheSavedUsd)}`;
  const written = usage.cacheWriteTokens ? `; ${formatTokens(usage.cacheWriteTokens)} written to the cache` : '';
  return `Cached input: ${formatTokens(usage.cachedPromptTokens)} of ${formatTokens(usage.promptTokens)} prompt tokens (${formatFraction(share, { digits: 0 })})${saved}${written}.`;
}

/** The prompt tokens the server said the flex tier served (`--service-tier flex`), priced at its rates. */
function flexLine(usage: AnalysisResult['usage'] | undefined): string | null {
  if (!usage) return null;
  const flex = flexPromptTokens(usage);
  if (flex === 0) return null;
  return `Flex tier: ${formatTokens(flex)} of ${formatTokens(usage.promptTokens)} prompt tokens served at flex, priced at its rates.`;
}

function warningsSection(warnings: string[]): Section | null {
  if (warnings.length === 0) return null;
  const parts: Part[] = [
    { kind: 'list', key: 'warnings', items: warnings.map((text) => ({ text: oneLine(text) })), tone: 'warning' },
  ];
  return { id: 'warnings', key: 'warnings', title: 'Warnings', parts };
}

function statusSection(result: AnalysisResult): Section {
  const tone = statusTone(result.status);
  const parts: Part[] = [
    {
      kind: 'facts',
      key: 'status',
      layout: 'row',
      facts: [
        { key: 'status', label: 'Status', value: result.status, tone },
        { key: 'started', label: 'Started', value: formatWhen(result.startedAt) },
        { key: 'took', label: 'Took', value: formatDuration(result.durationMs) },
      ],
    },
  ];
  if (result.error)
    parts.push({ kind: 'text', key: 'error', label: 'Error', text: oneLine(result.error), tone: 'bad' });
  if (result.status === 'flagged')
    parts.push({ kind: 'text', key: 'flagged', text: flaggedLine(result), tone: 'warning' });
  const failed = (result.reports ?? [])
    .filter((report) => report.status !== 'ok')
    .map((report) => agentTitle(report.agent));
  if (failed.length > 0)
    parts.push({ kind: 'text', key: 'failedDesks', label: 'Failed desks', text: `${failed.join(', ')}.`, tone: 'bad' });
  const settings = runSettingsLine(result);
  if (settings)
    parts.push({ kind: 'text', key: 'settings', label: 'Run settings', text: `${settings}.`, tone: 'muted' });
  return { id: 'status', key: 'status', title: 'Status', parts };
}

/** Why a run is flagged: the decision that stands breaks the guardrails' rules. */
function flaggedLine(result: AnalysisResult): string {
  const errors = (result.guardrails ?? []).filter((finding) => finding.severity === 'error').length;
  return `Flagged: the decision breaks ${errors} guardrail rule${errors === 1 ? '' : 's'} (exit code 4); do not act on it unchecked.`;
}
