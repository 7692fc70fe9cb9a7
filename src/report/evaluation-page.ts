import type { evaluationDocument } from '../evaluate/document.js';
import type { DecisionRow, HorizonResult } from '../evaluate/evaluate.js';
import { describeReason, forwardReasons } from '../evaluate/forward.js';
import type { SplitSummary } from '../evaluate/run-kind.js';
import { seededRandom, shuffle } from '../evaluate/statistics.js';
import type { GroupSummary, StrategyStats } from '../evaluate/summary.js';
import { sanitizeText } from '../sanitize.js';
import { alphaLine, calibrationLine, costLine, regimeLine, sharpeLine } from './evaluation-attribution.js';
import type { BarItem, LineSeries } from './evaluation-svg.js';
import { formatFraction, formatNumber, oneLine } from './format.js';
import type { Table } from './view-types.js';

/**
 * evaluation.html as data, once, like `reportView` for a run: every number on the page
 * is read from the evaluation's JSON document (what `evaluate --json` prints and
 * evaluation.json holds), so the page, a saved file and the view site cannot disagree.
 * The renderer (evaluation-html.ts) writes no sentence of its own.
 */

export type EvaluationDocument = ReturnType<typeof evaluationDocument>;

/** Row fields that newer evaluations carry (the run's status, a demo run); older ones lack them. */
type Row = DecisionRow & { status?: string; demo?: boolean };

export interface PageNotice {
  key: 'demo' | 'forward' | 'contaminated';
  text: string;
}

export type ChartSpec =
  | { kind: 'cumulative'; key: string; label: string; caption: string; series: LineSeries[] }
  | { kind: 'rate'; key: string; label: string; caption: string; bars: BarItem[] };

export type PagePart =
  | { kind: 'text'; text: string; tone?: 'muted' | 'bad' }
  | { kind: 'list'; items: string[] }
  | { kind: 'table'; table: Table }
  | { kind: 'chart'; chart: ChartSpec }
  | { kind: 'decisions'; table: Table; links: Array<string | null>; marks: string[][] };

export interface PageSection {
  id: string;
  title: string;
  parts: PagePart[];
}

export interface EvaluationPage {
  title: string;
  notices: PageNotice[];
  /** The lines a reader sees first, in plain words. */
  headline: string[];
  sections: PageSection[];
}

export interface EvaluationPageOptions {
  /** Where a decision's run report is, from this page; null: no link. */
  runLink?: (runId: string) => string | null;
}

const percent = (value: number | null | undefined) => formatFraction(value ?? null, { digits: 2, signed: true });
const rate = (value: number | null | undefined) => formatFraction(value ?? null, { digits: 0 });
const safe = (text: string) => oneLine(sanitizeText(text));

export const strategyLabels: Record<string, string> = {
  desks: 'the calls',
  'always-buy': 'always BUY',
  'momentum-12-1': '12-1 momentum',
  random: 'random (same mix)',
};

export const seriesColors: Record<string, string> = {
  desks: '#1f4e9c',
  benchmark: '#6b7280',
  'always-buy': '#16a34a',
  'momentum-12-1': '#d97706',
  random: '#7c3aed',
};

/** The group the headline speaks of: clean decisions first, at the longest horizon with scored positions. */
export function headlineGroup(groups: readonly GroupSummary[]): GroupSummary | null {
  const order = ['clean', 'unknown', 'contaminated'];
  const scored = groups.filter((group) => (group.strategies[0]?.count ?? 0) > 0);
  const pool = scored.length > 0 ? scored : groups;
  const sorted = [...pool].sort(
    (left, right) =>
      order.indexOf(left.contamination) - order.indexOf(right.contamination) || right.horizon - left.horizon,
  );
  return sorted[0] ?? null;
}

function coverageLine(document: EvaluationDocument): string {
  const reruns =
    document.reruns > 0
      ? ` ${document.reruns} re-run(s) were set aside: one decision per ticker, entry session and configuration, the newest, is scored.`
      : '';
  return `${forwardCoverage(document)}${reruns}`;
}

function forwardCoverage(document: EvaluationDocument): string {
  const total = document.decisions.length;
  const forward = document.forward;
  if (!forward) return `Covers all ${total} decision(s); the ledger was not consulted, so none is shown as forward.`;
  const excluded = forwardReasons
    .filter((reason) => (forward.excluded[reason] ?? 0) > 0)
    .map((reason) => `${forward.excluded[reason]} ${describeReason(reason)}`);
  const why = excluded.length > 0 ? excluded.join('; ') : 'none';
  if (forward.applied)
    return `Forward-only: ${forward.included} of ${forward.total} decision(s) were sealed in the ledger before their outcome and are scored; left out: ${why}.`;
  const left = forward.total - forward.included;
  return left === 0
    ? `Covers all ${total} decision(s), every one sealed in the ledger before its outcome (forward).`
    : `Covers all ${total} decision(s), not only the forward ones: ${left} would be excluded under --forward-only (${why}).`;
}

function hitLine(group: GroupSummary): string {
  const desks = group.strategies.find((item) => item.strategy === 'desks');
  if (!desks || desks.count === 0)
    return `At ${group.horizon} sessions (${group.contamination} decisions): no position scored yet (${group.pending} pending).`;
  const interval = desks.hitInterval
    ? ` (95 % Wilson interval ${rate(desks.hitInterval.low)}–${rate(desks.hitInterval.high)})`
    : '';
  return `At ${group.horizon} sessions (${group.contamination} decisions): hit rate ${rate(desks.hitRate)} over ${desks.count} position(s)${interval}; mean return ${percent(desks.meanReturn)}, mean excess ${percent(desks.meanExcess)}.`;
}

function headlineOf(document: EvaluationDocument): string[] {
  const lines = [coverageLine(document)];
  const skipped = document.skipped.length;
  if (skipped > 0) lines.push(`${skipped} saved run(s) were not scored (listed under Skipped).`);
  const group = headlineGroup(document.summary.groups);
  if (!group) return [...lines, 'No decision could be scored yet.'];
  const benchmark = safe(document.benchmark);
  return [...lines, hitLine(group), alphaLine(group, benchmark), costLine(group)];
}

function noticesOf(document: EvaluationDocument, rows: readonly Row[]): PageNotice[] {
  const notices: PageNotice[] = [];
  if (document.demo) notices.push({ key: 'demo', text: document.demo.banner });
  if (document.forward && !document.forward.applied && document.forward.included < document.forward.total)
    notices.push({
      key: 'forward',
      text: `NOT FORWARD-ONLY — ${document.forward.total - document.forward.included} of ${document.forward.total} decision(s) were not on record before their outcome; score only the sealed ones with --forward-only.`,
    });
  const contaminated = rows.filter((row) => row.contamination === 'contaminated').length;
  if (contaminated > 0)
    notices.push({
      key: 'contaminated',
      text: `CONTAMINATED — ${contaminated} decision(s) are dated on or before a model's training cutoff: shown apart, never pooled with clean ones.`,
    });
  return notices;
}

/** The positions a group scored, in decision order: the same filter as the summary (src/evaluate/summary.ts). */
export function groupPositions(group: GroupSummary, rows: readonly Row[]): Array<{ row: Row; outcome: HorizonResult }> {
  return rows.flatMap((row) => {
    if (row.contamination !== group.contamination || row.problem !== null || row.action === 'HOLD') return [];
    const outcome = row.horizons.find((item) => item.horizon === group.horizon);
    if (!outcome || outcome.buyAndHold === null || !['target', 'stop', 'horizon'].includes(outcome.outcome)) return [];
    return [{ row, outcome }];
  });
}

function running(values: readonly number[]): number[] {
  let total = 0;
  return values.map((value) => (total += value));
}

/** Cumulative return of the calls, the benchmark on their dates and each baseline on the same positions. */
export function cumulativeSeries(
  group: GroupSummary,
  rows: readonly Row[],
  seed: number,
  benchmark: string,
): LineSeries[] {
  const positions = groupPositions(group, rows);
  const stock = (item: (typeof positions)[number]) => item.outcome.buyAndHold!.stockReturn;
  const shuffled = shuffle(
    positions.map(({ row }) => row.action),
    seededRandom(seed),
  );
  const line = (key: string, label: string, values: number[], dashed = false): LineSeries => ({
    key,
    label,
    color: seriesColors[key]!,
    dashed,
    values: running(values),
  });
  return [
    line(
      'desks',
      'the calls',
      positions.map(({ outcome }) => outcome.signedReturn!),
    ),
    line(
      'benchmark',
      benchmark,
      positions.flatMap(({ outcome }) => (outcome.benchmarkReturn === null ? [] : [outcome.benchmarkReturn])),
      true,
    ),
    line('always-buy', 'always BUY', positions.map(stock)),
    line(
      'momentum-12-1',
      '12-1 momentum',
      positions.flatMap((item) => (item.row.momentum ? [(item.row.momentum === 'BUY' ? 1 : -1) * stock(item)] : [])),
    ),
    line(
      'random',
      'random',
      positions.map((item, index) => (shuffled[index] === 'BUY' ? 1 : -1) * stock(item)),
      true,
    ),
  ];
}

function strategyTable(group: GroupSummary): Table {
  const interval = (stats: StrategyStats) =>
    stats.hitInterval ? `${rate(stats.hitInterval.low)}–${rate(stats.hitInterval.high)}` : 'n/a';
  return {
    key: 'strategies',
    columns: [
      { key: 'strategy', label: 'strategy' },
      { key: 'n', label: 'n', numeric: true },
      { key: 'hit', label: 'hit rate', numeric: true },
      { key: 'interval', label: '95 % interval', numeric: true },
      { key: 'return', label: 'mean return', numeric: true },
      { key: 'excess', label: 'mean excess', numeric: true },
    ],
    rows: group.strategies.map((stats) => [
      strategyLabels[stats.strategy] ?? stats.strategy,
      String(stats.count),
      rate(stats.hitRate),
      interval(stats),
      percent(stats.meanReturn),
      percent(stats.meanExcess),
    ]),
  };
}

function regimeTable(group: GroupSummary): Table {
  return {
    key: 'regimes',
    title: 'By regime',
    columns: [
      { key: 'regime', label: 'regime' },
      { key: 'n', label: 'n', numeric: true },
      { key: 'hit', label: 'hit rate', numeric: true },
      { key: 'interval', label: '95 % interval', numeric: true },
      { key: 'excess', label: 'mean excess', numeric: true },
    ],
    rows: (['up', 'flat', 'down'] as const).map((name) => {
      const stats = group.regimes[name];
      const interval = stats.hitRateCI ? `${rate(stats.hitRateCI[0])}–${rate(stats.hitRateCI[1])}` : 'n/a';
      return [name, String(stats.n), rate(stats.hitRate), interval, percent(stats.meanExcess)];
    }),
  };
}

function calibrationChart(group: GroupSummary, key: string): ChartSpec {
  const buckets = group.calibration.buckets;
  return {
    kind: 'rate',
    key: `calibration-${key}`,
    label: `Calibration, ${group.contamination} decisions at ${group.horizon} sessions: hit rate by conviction`,
    caption: `Conviction bucket against hit rate, with the count in each; ${calibrationLine(group)}.`,
    bars: buckets.map((bucket) => ({
      key: `${bucket.from}-${bucket.to}`,
      label: `${bucket.from}–${bucket.to}`,
      value: bucket.n > 0 ? bucket.hitRate : null,
      n: bucket.n,
    })),
  };
}

function counts(group: GroupSummary): string {
  const positions = group.strategies[0]?.count ?? 0;
  const hold =
    group.holds > 0 ? ` (${group.holds} HOLD: the stock did ${percent(group.holdMeanReturn)} on average)` : '';
  return `${group.decisions} decision(s): ${positions} scored position(s)${hold}; ${group.pending} pending, ${group.ambiguous} ambiguous, ${group.unfilled} unfilled, ${group.rescaled} rescaled.`;
}

function groupSection(group: GroupSummary, document: EvaluationDocument, rows: readonly Row[]): PageSection {
  const key = `${group.contamination}-${group.horizon}`;
  const benchmark = safe(document.benchmark);
  return {
    id: `group-${key}`,
    title: `${group.contamination} decisions, ${group.horizon} sessions`,
    parts: [
      { kind: 'text', text: counts(group) },
      {
        kind: 'chart',
        chart: {
          kind: 'cumulative',
          key,
          label: `Cumulative return, ${group.contamination} decisions at ${group.horizon} sessions: the calls against ${benchmark} and the baselines`,
          caption: `Each position's return added up in decision order: the calls, ${benchmark} over the same dates, and the baselines on the same positions (entry at the same open, exit at the horizon's close).`,
          series: cumulativeSeries(group, rows, document.summary.seed, benchmark),
        },
      },
      { kind: 'table', table: strategyTable(group) },
      {
        kind: 'list',
        items: [alphaLine(group, benchmark), costLine(group), sharpeLine(group), regimeLine(group, benchmark)],
      },
      { kind: 'table', table: regimeTable(group) },
      { kind: 'text', text: 'Calibration: did more conviction mean more hits?' },
      { kind: 'chart', chart: calibrationChart(group, key) },
    ],
  };
}

function byHorizonSection(document: EvaluationDocument): PageSection {
  const labels = [...new Set(document.summary.groups.map((group) => group.contamination))];
  const desksOf = (group: GroupSummary) => group.strategies.find((item) => item.strategy === 'desks');
  const table: Table = {
    key: 'by-horizon',
    columns: [
      { key: 'label', label: 'label' },
      { key: 'horizon', label: 'horizon', numeric: true },
      { key: 'n', label: 'n', numeric: true },
      { key: 'hit', label: 'hit rate', numeric: true },
      { key: 'interval', label: '95 % interval', numeric: true },
      { key: 'return', label: 'mean return', numeric: true },
      { key: 'excess', label: 'mean excess', numeric: true },
    ],
    rows: document.summary.groups.map((group) => {
      const desks = desksOf(group);
      const interval = desks?.hitInterval ? `${rate(desks.hitInterval.low)}–${rate(desks.hitInterval.high)}` : 'n/a';
      return [
        group.contamination,
        `${group.horizon}`,
        String(desks?.count ?? 0),
        rate(desks?.hitRate),
        interval,
        percent(desks?.meanReturn),
        percent(desks?.meanExcess),
      ];
    }),
  };
  const charts = labels.map((label): PagePart => ({
    kind: 'chart',
    chart: {
      kind: 'rate',
      key: `horizons-${label}`,
      label: `Hit rate by horizon, ${label} decisions, with 95 % Wilson intervals`,
      caption: `The calls' hit rate at each horizon (${label} decisions), the whisker its 95 % Wilson interval.`,
      bars: document.summary.groups
        .filter((group) => group.contamination === label)
        .map((group) => {
          const desks = desksOf(group);
          return {
            key: String(group.horizon),
            label: `${group.horizon} sessions`,
            value: desks?.hitRate ?? null,
            interval: desks?.hitInterval ?? null,
            n: desks?.count ?? 0,
          };
        }),
    },
  }));
  return {
    id: 'by-horizon',
    title: 'Hit rate and mean return by horizon and label',
    parts: [{ kind: 'table', table }, ...charts],
  };
}

function splitSection(splits: readonly SplitSummary[]): PageSection {
  if (splits.length === 0)
    return {
      id: 'by-kind',
      title: 'By run kind',
      parts: [
        {
          kind: 'text',
          text: 'No blind or sampled (--samples) run among these decisions: every one is named and decided once.',
          tone: 'muted',
        },
      ],
    };
  const table: Table = {
    key: 'splits',
    columns: [
      { key: 'split', label: 'split' },
      { key: 'group', label: 'group' },
      { key: 'label', label: 'label' },
      { key: 'horizon', label: 'horizon', numeric: true },
      { key: 'n', label: 'n', numeric: true },
      { key: 'hit', label: 'hit rate', numeric: true },
      { key: 'interval', label: '95 % interval', numeric: true },
      { key: 'excess', label: 'mean excess', numeric: true },
    ],
    rows: splits.map((split) => [
      split.split === 'blind' ? 'named / blind' : 'stability',
      split.group,
      split.contamination,
      String(split.horizon),
      String(split.positions),
      rate(split.hitRate),
      split.hitInterval ? `${rate(split.hitInterval.low)}–${rate(split.hitInterval.high)}` : 'n/a',
      percent(split.meanExcess),
    ]),
  };
  return { id: 'by-kind', title: 'By run kind: named or blind, and stability', parts: [{ kind: 'table', table }] };
}

function outcomeCell(result: HorizonResult | undefined): string {
  if (!result) return '';
  if (result.outcome === 'abstained') return `hold ${percent(result.stockReturn)}`;
  if (result.signedReturn === null) return result.outcome;
  return `${result.outcome} ${percent(result.signedReturn)} (${result.excess === null ? 'n/a' : percent(result.excess)})`;
}

/** The marks a decision's row carries: DEMO, its label when not clean, not forward (an --as-of run), rescaled, flagged. */
export function rowMarks(row: Row, demoPage: boolean): string[] {
  return [
    ...(row.demo === true || (demoPage && row.demo === undefined) ? ['DEMO'] : []),
    ...(row.contamination !== 'clean' ? [row.contamination.toUpperCase()] : []),
    ...(row.asOfMode === 'historical' ? ['NOT FORWARD (as-of run)'] : []),
    ...(row.rescaled ? ['RESCALED'] : []),
    ...(row.status && row.status !== 'ok' ? [row.status.toUpperCase()] : []),
  ];
}

function levels(row: Row): string {
  const price = (value: number | null) => (value === null ? '—' : formatNumber(value, 2));
  return `${row.orderType} ${price(row.entry)} · stop ${price(row.stopLoss)} · target ${price(row.takeProfit)}`;
}

function decisionsSection(
  document: EvaluationDocument,
  rows: readonly Row[],
  options: EvaluationPageOptions,
): PageSection {
  const table: Table = {
    key: 'decisions',
    columns: [
      { key: 'asOf', label: 'as of' },
      { key: 'ticker', label: 'ticker' },
      { key: 'call', label: 'call' },
      { key: 'status', label: 'status' },
      { key: 'labels', label: 'labels' },
      { key: 'levels', label: 'levels' },
      ...document.horizons.map((horizon) => ({ key: `h${horizon}`, label: `${horizon} sessions: return (excess)` })),
      { key: 'run', label: 'run' },
    ],
    rows: rows.map((row) => [
      row.asOf.slice(0, 10),
      safe(row.ticker),
      `${row.action} ${formatNumber(row.conviction, 0)}`,
      row.status ?? 'n/a',
      `${row.contamination}${row.blind ? ', blind' : ''}${row.stability ? `, stability ${row.stability}` : ''}`,
      levels(row),
      ...document.horizons.map((horizon) =>
        row.problem
          ? `not scored: ${safe(row.problem)}`
          : outcomeCell(row.horizons.find((item) => item.horizon === horizon)),
      ),
      safe(row.runId),
    ]),
  };
  return {
    id: 'decisions',
    title: `Decisions (${rows.length})`,
    parts: [
      {
        kind: 'decisions',
        table,
        links: rows.map((row) => options.runLink?.(row.runId) ?? null),
        marks: rows.map((row) => rowMarks(row, document.demo !== undefined)),
      },
    ],
  };
}

const legend = [
  'Entry at the next session open after each decision; exit at its stop or target when touched first, else the horizon close.',
  'Excess = signed (stock − benchmark) on the same dates. Hit = the position made money. Intervals are 95 %: Wilson for hit rates, a seeded bootstrap for alpha.',
  'A decision is scored once its horizon has elapsed, so the baselines stand on the same rows. Clean, unknown and contaminated decisions are never pooled.',
  'Cumulative return adds each position’s return in decision order (not compounded, not a portfolio).',
];

function notesSection(document: EvaluationDocument): PageSection {
  const parts: PagePart[] = [];
  if (document.warnings.length > 0)
    parts.push({ kind: 'list', items: document.warnings.map((warning) => `warning: ${safe(warning)}`) });
  if (document.skipped.length > 0)
    parts.push({
      kind: 'list',
      items: document.skipped.map((item) => `skipped ${safe(item.runId)}: ${safe(item.reason)}`),
    });
  parts.push({ kind: 'list', items: legend });
  return { id: 'notes', title: 'Notes and how to read this', parts };
}

/** The page of one evaluation, from its JSON document. */
export function evaluationPage(document: EvaluationDocument, options: EvaluationPageOptions = {}): EvaluationPage {
  const rows = document.decisions as Row[];
  const demo = document.demo ? 'DEMO ' : '';
  return {
    title: `${demo}Track record: ${rows.length} decision(s) against ${safe(document.benchmark)}, prices to ${document.evaluatedAt.slice(0, 10)}`,
    notices: noticesOf(document, rows),
    headline: headlineOf(document),
    sections: [
      byHorizonSection(document),
      ...document.summary.groups.map((group) => groupSection(group, document, rows)),
      splitSection(document.summary.splits ?? []),
      decisionsSection(document, rows, options),
      notesSection(document),
    ],
  };
}
