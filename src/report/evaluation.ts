import { splitLines } from '../evaluate/run-kind.js';
import type { DecisionRow, Evaluation, HorizonResult } from '../evaluate/evaluate.js';
import { evaluationDemoBanner, type EvaluationView } from '../evaluate/document.js';
import { forwardLine } from '../evaluate/forward.js';
import type { GroupSummary, Strategy, StrategyStats } from '../evaluate/summary.js';
import { sanitizeText } from '../sanitize.js';
import { attributionLines } from './evaluation-attribution.js';
import { formatFraction, formatNumber, oneLine, padEnd, padStart } from './format.js';

/**
 * `autohedge evaluate` as text: a summary table per contamination label and horizon
 * (desks, then the baselines on the same decisions), a line chart of cumulative excess
 * per strategy, and every decision's outcomes. The terminal view and evaluation.md
 * render the same content; both are pure functions of the evaluation.
 */

export type { EvaluationView } from '../evaluate/document.js';

const strategyNames: Record<Strategy, string> = {
  desks: 'desks',
  'always-buy': 'always BUY',
  'momentum-12-1': '12-1 momentum',
  random: 'random (same mix)',
};

const percent = (value: number | null) => formatFraction(value, { digits: 2, signed: true });
const rate = (value: number | null) => formatFraction(value, { digits: 1 });
const safe = (text: string) => oneLine(sanitizeText(text));

function interval(stats: StrategyStats): string {
  return stats.hitInterval ? `${rate(stats.hitInterval.low)}–${rate(stats.hitInterval.high)}` : 'n/a';
}

const columns = [
  'strategy',
  'n',
  'hit rate',
  '95% interval',
  'mean ret',
  'mean excess',
  'median excess',
  'rho',
] as const;

function strategyCells(stats: StrategyStats): string[] {
  return [
    strategyNames[stats.strategy],
    String(stats.count),
    rate(stats.hitRate),
    interval(stats),
    percent(stats.meanReturn),
    percent(stats.meanExcess),
    percent(stats.medianExcess),
    stats.spearman === null ? '' : formatNumber(stats.spearman, 2),
  ];
}

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) =>
    row
      .map((cell, column) => (column === 0 ? padEnd(cell, widths[column]!) : padStart(cell, widths[column]!)))
      .join('  ')
      .trimEnd(),
  );
}

function groupTitle(group: GroupSummary): string {
  return `${group.contamination} decisions, ${group.horizon} sessions`;
}

function groupCounts(group: GroupSummary): string {
  const positions = group.strategies[0]!.count;
  const hold =
    group.holds > 0 ? ` (${group.holds} HOLD: the stock did ${percent(group.holdMeanReturn)} on average)` : '';
  return `${group.decisions} decisions: ${positions} scored positions${hold}; ${group.pending} pending, ${group.ambiguous} ambiguous, ${group.unfilled} unfilled, ${group.rescaled} rescaled`;
}

function groupTable(group: GroupSummary): string[] {
  return table([[...columns], ...group.strategies.map(strategyCells)]);
}

const blocks = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'] as const;
const ascii = ['_', '.', '-', '=', '*', '#', '#', '#'] as const;

/** One row of a sparkline: each value placed on a shared scale, so strategies compare by eye. */
export function sparkline(values: readonly number[], low: number, high: number, unicode: boolean): string {
  const marks = unicode ? blocks : ascii;
  const span = high - low;
  return values
    .map(
      (value) => marks[span === 0 ? 0 : Math.min(marks.length - 1, Math.floor(((value - low) / span) * marks.length))],
    )
    .join('');
}

function cumulative(values: readonly number[]): number[] {
  let total = 0;
  return values.map((value) => (total += value));
}

/** Cumulative excess per strategy over the group's positions in decision order, or nothing when none has two points. */
export function cumulativeExcessChart(
  series: ReadonlyArray<{ name: string; excess: number[] }>,
  unicode: boolean,
): string[] {
  const lines = series
    .filter((item) => item.excess.length >= 2)
    .map((item) => ({ name: item.name, values: cumulative(item.excess) }));
  if (lines.length === 0) return [];
  const all = lines.flatMap((line) => line.values);
  const low = Math.min(0, ...all);
  const high = Math.max(0, ...all);
  const width = Math.max(...lines.map((line) => line.name.length));
  return lines.map(
    (line) =>
      `${padEnd(line.name, width)}  ${sparkline(line.values, low, high, unicode)}  ${percent(line.values[line.values.length - 1]!)}`,
  );
}

/** The desks' excess per position of a group, in decision order, and the always-BUY baseline's on the same rows. */
function chartSeries(group: GroupSummary, rows: readonly DecisionRow[]): Array<{ name: string; excess: number[] }> {
  const positions = rows
    .filter((row) => row.contamination === group.contamination && row.action !== 'HOLD')
    .map((row) => row.horizons.find((item) => item.horizon === group.horizon))
    .filter(
      (item): item is HorizonResult => item !== undefined && item.signedReturn !== null && item.buyAndHold !== null,
    );
  const desks = positions.flatMap((item) => (item.excess === null ? [] : [item.excess]));
  const always = positions.flatMap((item) =>
    item.buyAndHold?.benchmarkReturn == null ? [] : [item.buyAndHold.stockReturn - item.buyAndHold.benchmarkReturn],
  );
  return [
    { name: 'desks', excess: desks },
    { name: 'always BUY', excess: always },
  ];
}

function outcomeCell(result: HorizonResult | undefined): string {
  if (!result) return '';
  if (result.outcome === 'abstained') return `hold ${percent(result.stockReturn)}`;
  if (result.signedReturn === null) return result.outcome;
  return `${result.outcome} ${percent(result.signedReturn)} (${result.excess === null ? 'n/a' : percent(result.excess)})`;
}

function decisionTable(evaluation: Evaluation): string[] {
  const header = [
    'as of',
    'ticker',
    'action',
    'status',
    'conv',
    'label',
    ...evaluation.horizons.map((horizon) => `${horizon} sessions: return (excess)`),
    'run',
  ];
  const rows = evaluation.decisions.map((row) => [
    `${row.asOf.slice(0, 10)}${row.asOfMode === 'historical' ? ' H' : ''}`,
    safe(row.ticker),
    row.action,
    row.status ?? 'ok',
    formatNumber(row.conviction, 0),
    row.contamination,
    ...evaluation.horizons.map((horizon) =>
      row.problem
        ? 'not scored'
        : `${outcomeCell(row.horizons.find((item) => item.horizon === horizon))}${row.rescaled ? ' *' : ''}`,
    ),
    safe(row.runId),
  ]);
  return table([header, ...rows]);
}

/** How many re-runs were set aside, said beside n so no reader takes them for independent calls. */
function rerunNote(view: EvaluationView): string {
  const count = view.reruns ?? 0;
  return count > 0
    ? ` (${count} re-run(s) set aside: one decision per ticker, entry session and configuration, the newest)`
    : '';
}

function headline(view: EvaluationView): string {
  const { evaluation, summary } = view;
  return `Evaluation of ${evaluation.decisions.length} independent decision(s)${rerunNote(view)} against ${safe(evaluation.benchmark)} · horizons ${evaluation.horizons.join(', ')} sessions · seed ${summary.seed} · prices to ${evaluation.evaluatedAt.slice(0, 10)}`;
}

const legend = [
  'Entry at the next session open after each decision; exit at its stop or target when touched first, else the horizon close.',
  'Excess = signed (stock − benchmark) on the same dates. Hit = the position made money. rho = Spearman(conviction, excess).',
  'A decision is scored once its horizon has elapsed (a stop or target hit earlier is shown, and counted then), so baselines stand on the same rows.',
  "status = the run's own: a flagged or degraded run broke a rule or lost a desk, and is scored as it was decided.",
  'H = historical run (--as-of); * = levels rescaled after a split or revision. Clean, unknown and contaminated decisions are never pooled.',
];

export function renderEvaluationTerminal(view: EvaluationView, options: { unicode: boolean }): string {
  const lines: string[] = [...(view.demo ? [evaluationDemoBanner(view.demo)] : []), headline(view), ''];
  if (view.forward) lines.push(forwardLine(view.forward, view.forward.total), '');
  if (view.summary.groups.length === 0) lines.push('No decision could be scored.', '');
  for (const group of view.summary.groups) {
    lines.push(`${groupTitle(group)} — ${groupCounts(group)}`);
    lines.push(...attributionLines(group, safe(view.evaluation.benchmark)).map((line) => `  ${line}`));
    lines.push(...groupTable(group).map((line) => `  ${line}`));
    const chart = cumulativeExcessChart(chartSeries(group, view.evaluation.decisions), options.unicode);
    if (chart.length > 0) lines.push('  cumulative excess:', ...chart.map((line) => `    ${line}`));
    lines.push('');
  }
  lines.push(...splitLines(view.summary.splits ?? []));
  lines.push('Decisions:', ...decisionTable(view.evaluation).map((line) => `  ${line}`), '');
  for (const skipped of view.skipped) lines.push(`skipped ${safe(skipped.runId)}: ${safe(skipped.reason)}`);
  if (view.skipped.length > 0) lines.push('');
  lines.push(...legend);
  return `${lines.join('\n')}\n`;
}

/** evaluation.md: the same content as GitHub-flavoured markdown. */
export function renderEvaluationMarkdown(view: EvaluationView): string {
  const sections: string[] = [`# Evaluation: ${view.evaluation.decisions.length} decision(s)`];
  if (view.demo) sections.push(`> **${evaluationDemoBanner(view.demo)}**`);
  sections.push(headline(view));
  if (view.forward) sections.push(forwardLine(view.forward, view.forward.total));
  for (const group of view.summary.groups) {
    const rows = group.strategies.map(strategyCells);
    const chart = cumulativeExcessChart(chartSeries(group, view.evaluation.decisions), true);
    sections.push(
      [
        `## ${groupTitle(group)}`,
        '',
        groupCounts(group),
        '',
        ...attributionLines(group, safe(view.evaluation.benchmark)).map((line) => `- ${line}`),
        '',
        `| ${columns.join(' | ')} |`,
        `| ${columns.map(() => '---').join(' | ')} |`,
        ...rows.map((row) => `| ${row.join(' | ')} |`),
        ...(chart.length > 0 ? ['', 'Cumulative excess:', '', '```', ...chart, '```'] : []),
      ].join('\n'),
    );
  }
  const decisions = decisionTable(view.evaluation);
  sections.push(['## Decisions', '', '```', ...decisions, '```'].join('\n'));
  if (view.evaluation.warnings.length > 0)
    sections.push(`## Warnings\n\n${view.evaluation.warnings.map((warning) => `- ${safe(warning)}`).join('\n')}`);
  if (view.skipped.length > 0)
    sections.push(
      `## Skipped\n\n${view.skipped.map((item) => `- \`${safe(item.runId)}\`: ${safe(item.reason)}`).join('\n')}`,
    );
  sections.push(`## How to read this\n\n${legend.map((line) => `- ${line}`).join('\n')}`);
  return `${sections.join('\n\n')}\n`;
}
