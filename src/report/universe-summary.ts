import { rankScore, type RankedName, type UniverseSummary } from '../universe/universe-summary.js';
import { formatCost, formatFraction, formatTokens, padEnd } from './format.js';

const statusOrder = ['ok', 'flagged', 'degraded', 'failed', 'interrupted', 'error', 'skipped'] as const;

/**
 * The end-of-universe summary as plain lines: counts by status, the names ranked by
 * action and conviction (all of them when few, else the top and the bottom), total cost.
 */
export function renderUniverseSummary(summary: UniverseSummary): string {
  const counts = statusOrder
    .filter((status) => status !== 'interrupted' && (summary.byStatus[status] ?? 0) > 0)
    .map(
      (status) =>
        `${summary.byStatus[status]} ${status === 'skipped' ? 'skipped (finished earlier: --resume)' : status}`,
    );
  const interrupted = summary.byStatus.interrupted ?? 0;
  const lines = [`Universe: ${summary.analysed} analysed${counts.length > 0 ? ` — ${counts.join(', ')}` : ''}`];
  if (interrupted > 0) {
    lines.push(
      `${interrupted} interrupted: run the same command again with --resume to finish them (finished tickers are skipped)`,
    );
  }
  const shown = Math.max(summary.top.length, summary.bottom.length);
  if (summary.decided > 0 && summary.decided <= shown * 2) {
    lines.push('', 'Ranked by action and conviction:', ...table(union(summary.top, summary.bottom)));
  } else if (summary.decided > 0) {
    lines.push(
      '',
      `Top ${summary.top.length}:`,
      ...table(summary.top),
      '',
      `Bottom ${summary.bottom.length}:`,
      ...table(summary.bottom),
    );
  }
  const unpriced =
    summary.unpricedRuns > 0
      ? ` (${summary.unpricedRuns} run${summary.unpricedRuns === 1 ? '' : 's'} with an unknown price not counted)`
      : '';
  lines.push('', `Total cost: ${formatCost(summary.costUsd)}${unpriced}`);
  if (summary.cachedPromptTokens > 0) lines.push(cacheLine(summary));
  return `${lines.join('\n')}\n`;
}

/** `Cached input: 61% of 120,000 tokens, saved $0.0912`. */
function cacheLine(summary: UniverseSummary): string {
  const share = summary.promptTokens > 0 ? summary.cachedPromptTokens / summary.promptTokens : 0;
  return `Cached input: ${formatFraction(share, { digits: 0 })} of ${formatTokens(summary.promptTokens)} tokens, saved ${formatCost(summary.cacheSavedUsd)}`;
}

function union(top: RankedName[], bottom: RankedName[]): RankedName[] {
  const byTicker = new Map([...top, ...bottom].map((name) => [name.ticker, name]));
  return [...byTicker.values()].sort((a, b) => rankScore(b) - rankScore(a) || a.ticker.localeCompare(b.ticker));
}

function table(names: RankedName[]): string[] {
  const width = Math.max(6, ...names.map((name) => name.ticker.length));
  return names.map(
    (name) =>
      `  ${padEnd(name.ticker, width)}  ${padEnd(name.action, 4)}  ${String(name.conviction).padStart(3)}  ${name.status}`,
  );
}
