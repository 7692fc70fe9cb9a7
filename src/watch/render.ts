import { sanitizeText } from '../sanitize.js';
import { callPhrase, plainProblem, type WatchReport } from './delta.js';
import { renderWatchPage } from './page.js';
import { ageInWords } from './rows.js';

/**
 * The delta report of one cycle, as lines (terminal and the webhook's `text`), markdown and
 * the watch page (src/watch/page.ts, one row per ticker). Every sentence is built once, in
 * `sections` (the page's rows in src/watch/rows.ts).
 */

interface Section {
  title: string;
  lines: string[];
}

function spendLine(report: WatchReport): string {
  return report.spend.budgetUsd === null
    ? `spent this month: $${report.spend.monthUsd.toFixed(4)} (no budget set)`
    : `spent this month: $${report.spend.monthUsd.toFixed(4)} of $${report.spend.budgetUsd.toFixed(2)}`;
}

function sections(report: WatchReport): Section[] {
  const budget = spendLine(report);
  const analysed = report.analysed.filter((item) => item.problem === undefined);
  const failed = report.analysed.filter((item) => item.problem !== undefined);
  const why = (item: WatchReport['analysed'][number]) => item.triggers.map((trigger) => trigger.name).join(', ');
  return [
    {
      title: `Analysed (${analysed.length})`,
      lines: analysed.map((item) => {
        const changes = item.changes.length > 0 ? item.changes.join('; ') : 'same call';
        const what = item.jobId
          ? `queued as job ${item.jobId}`
          : item.current
            ? `${callPhrase(item.current)}: ${changes}`
            : changes;
        return `${item.ticker} [${why(item)}]: ${what}${item.runId ? ` (run ${item.runId})` : ''}`;
      }),
    },
    {
      title: `Failed (${failed.length})`,
      lines: failed.map(
        (item) =>
          `${item.ticker} [${why(item)}]: ${plainProblem(item.problem!)}${item.runId ? ` (run ${item.runId})` : ''}`,
      ),
    },
    {
      title: `Skipped (${report.skipped.length}), most urgent first`,
      lines: report.skipped.map(
        (item) => `${item.ticker} [${item.triggers.map((trigger) => trigger.name).join(', ')}]: ${item.reason}`,
      ),
    },
    {
      title: `Carried (${report.carried.length})`,
      lines: report.carried.map(
        (item) => `${item.ticker}: ${callPhrase(item)}; ${ageInWords(item.ageSessions)} (run ${item.runId})`,
      ),
    },
    {
      title: `No market data (${report.unavailable.length})`,
      lines: report.unavailable.map((item) => `${item.ticker}: ${plainProblem(item.reason)}`),
    },
    { title: 'Spend', lines: [budget] },
  ].filter((section) => section.lines.length > 0);
}

function heading(report: WatchReport): string {
  return `${report.demo ? 'DEMO — synthetic data, not advice · ' : ''}${title(report)}`;
}

function title(report: WatchReport): string {
  return `autohedge watch — as of ${report.asOf.slice(0, 16).replace('T', ' ')} UTC${report.historical ? ' (historical)' : ''}`;
}

/** Why each trigger fired, for the terminal and the markdown. */
function triggerDetails(report: WatchReport): string[] {
  return [...report.analysed, ...report.skipped].flatMap((item) =>
    item.triggers.map((trigger) => `${item.ticker} ${trigger.name}: ${trigger.detail}`),
  );
}

export function renderWatchText(report: WatchReport): string {
  const lines = [heading(report)];
  for (const section of sections(report))
    lines.push('', `${section.title}:`, ...section.lines.map((line) => `  ${line}`));
  const details = triggerDetails(report);
  if (details.length > 0) lines.push('', 'Triggers:', ...details.map((line) => `  ${line}`));
  return `${sanitizeText(lines.join('\n'))}\n`;
}

export function renderWatchMarkdown(report: WatchReport): string {
  const lines = [`# ${heading(report)}`];
  for (const section of sections(report))
    lines.push('', `## ${section.title}`, '', ...section.lines.map((line) => `- ${markdownText(line)}`));
  const details = triggerDetails(report);
  if (details.length > 0) lines.push('', '## Triggers', '', ...details.map((line) => `- ${markdownText(line)}`));
  lines.push('', '_Proposed research only; nothing here places an order._');
  return `${lines.join('\n')}\n`;
}

export function renderWatchHtml(report: WatchReport): string {
  return renderWatchPage(report, {
    heading: heading(report),
    title: title(report),
    spend: spendLine(report),
    triggers: triggerDetails(report),
  });
}

function markdownText(text: string): string {
  return sanitizeText(text).replace(/[<>&*_[\]`]/g, (character) => `\\${character}`);
}
