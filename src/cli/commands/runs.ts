import { UsageError } from '../../errors.js';
import { autohedgeHome } from '../../paths.js';
import { formatCost, formatFraction } from '../../report/format.js';
import { createPalette } from '../../report/palette.js';
import { renderJson, renderTerminal } from '../../report/terminal.js';
import { listRuns, loadRun, runsDirectory, type RunSummary } from '../../store/index.js';
import { sanitizeDeep, stringifyJsonSafely } from '../../sanitize.js';
import { colorEnabled, reportOptions, type CliIo } from '../io.js';

/** `autohedge runs`: saved runs, newest first, as a table or JSON. */
export async function runsListCommand(options: { json?: boolean }, io: CliIo): Promise<number> {
  const home = autohedgeHome(io.env);
  const runs = await listRuns(home);
  if (options.json) io.stdout(`${stringifyJsonSafely(runs, 2)}\n`);
  if (runs.length === 0) {
    io.stderr(`No saved runs yet in ${runsDirectory(home)}. Run \`autohedge analyze <ticker>\` to make one.\n`);
    return 0;
  }
  if (!options.json) io.stdout(renderRunTable(runs, colorEnabled(io.env, io.stdoutIsTTY)));
  // stdout is the table a script reads; what could not be read is said on stderr.
  for (const line of runProblems(runs)) io.stderr(`${line}\n`);
  return 0;
}

/** `autohedge runs show <runId>`: a saved run rendered exactly as the live run was. */
export async function runsShowCommand(
  runId: string,
  options: { json?: boolean; html?: boolean },
  io: CliIo,
): Promise<number> {
  if (options.json && options.html) throw new UsageError('--json and --html cannot be combined');
  const result = await loadRun(autohedgeHome(io.env), runId);
  if (options.json) io.stdout(renderJson(result));
  else if (options.html) {
    // Rendered from the saved result, so a run saved before report.html existed gets one too.
    const { renderHtml } = await import('../../report/html.js');
    io.stdout(renderHtml(result));
  } else io.stdout(renderTerminal(result, reportOptions(io)));
  return 0;
}

/** The view options `autohedge analyze` uses, so a re-render matches the live one. */
const columns = ['WHEN', 'RUN ID', 'TICKER', 'MODE', 'ACTION', 'CONVICTION', 'STATUS', 'COST', 'CACHED'] as const;

export function renderRunTable(savedRuns: RunSummary[], color: boolean): string {
  // A saved file is whatever is on disk now (hand-edited, or written before sanitising).
  const runs = sanitizeDeep(savedRuns);
  const paint = createPalette(color);
  const rows = runs.map((run) => [
    formatWhen(run.when),
    run.runId,
    run.ticker ?? '-',
    modeCell(run),
    run.action ?? '-',
    run.conviction === null ? '-' : String(Math.round(run.conviction)),
    run.state === 'ok' ? (run.status ?? '-') : run.state,
    costCell(run),
    cachedCell(run),
  ]);
  const widths = columns.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  // Pad first, then colour: escape codes must not count towards a column's width.
  const line = (cells: readonly string[], tint: (cell: string, column: number) => string) =>
    cells
      .map((cell, column) => tint(cell.padEnd(widths[column]!), column))
      .join('  ')
      .trimEnd();
  const lines = [line(columns, (cell) => paint.bold(cell))];
  for (const row of rows) {
    lines.push(
      line(row, (cell, column) => {
        const value = row[column];
        if (column === 4)
          return value === 'BUY'
            ? paint.green(cell)
            : value === 'SELL'
              ? paint.red(cell)
              : value === 'HOLD'
                ? paint.yellow(cell)
                : cell;
        if (column === 6) {
          if (value === 'ok') return paint.green(cell);
          if (value === 'failed' || value === 'corrupt' || value === 'unreadable') return paint.red(cell);
          return paint.yellow(cell);
        }
        return cell;
      }),
    );
  }
  return `${lines.join('\n')}\n`;
}

/** One line per run that could not be read in full: `<run id>: partial: …`. */
export function runProblems(savedRuns: RunSummary[]): string[] {
  return sanitizeDeep(savedRuns)
    .filter((run) => run.problem)
    .map((run) => `${run.runId}: ${run.state}: ${run.problem}`);
}

/** "full", "desks", or with a demo "demo, full" / "demo, desks". */
function modeCell(run: RunSummary): string {
  if (run.mode === null) return run.demo ? 'demo' : '-';
  return run.demo ? `demo, ${run.mode}` : run.mode;
}

/** A demo replays a recording: its token counts cost nothing, so no amount is shown as spent. */
function costCell(run: RunSummary): string {
  if (run.state !== 'ok') return '-';
  if (run.demo) return 'none (demo)';
  return run.costUsd === null ? 'unknown' : formatCost(run.costUsd);
}

/** The share of the prompt tokens the provider's cache served, as the usage footer rounds it. */
function cachedCell(run: RunSummary): string {
  if (run.state !== 'ok') return '-';
  return run.cachedShare === undefined ? 'none' : formatFraction(run.cachedShare, { digits: 0 });
}

/** "YYYY-MM-DD HH:MM" in UTC, like every instant autohedge prints. */
function formatWhen(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toISOString().slice(0, 16).replace('T', ' ');
}
