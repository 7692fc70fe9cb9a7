import type { AnalysisResult } from '../../result/types.js';
import type { UniverseTally } from '../../universe/universe-summary.js';
import { reportOptions, type CliIo } from '../io.js';
import { stringifyJsonSafely } from '../../sanitize.js';

export interface PrintModes {
  json: boolean;
  jsonl: boolean;
  quiet: boolean;
  /** Whether the runs are saved here: the terminal footer names the run id `runs show` finds only then. */
  save: boolean;
}

/**
 * Results on stdout as they arrive: `--jsonl` one line each, the terminal report each;
 * `--json` keeps them for one array at the end, in the tickers' order (for a single
 * ticker, the object itself). The summary goes under the terminal reports, or to stderr
 * with `--jsonl`; `--json` (one array, for small runs) prints none, its stderr unchanged.
 */
export async function createResultPrinter(modes: PrintModes, io: CliIo, tickers: readonly string[]) {
  const render = await import('../../report/terminal.js');
  const kept = new Map<string, AnalysisResult>();
  let printed = 0;
  return {
    print(result: AnalysisResult): void {
      if (modes.jsonl) io.stdout(`${stringifyJsonSafely(result)}\n`);
      else if (modes.json) kept.set(result.ticker, result);
      else
        io.stdout(
          `${printed > 0 ? '\n' : ''}${render.renderTerminal(result, { ...reportOptions(io), saved: modes.save })}`,
        );
      printed += 1;
    },
    flushJson(): void {
      if (!modes.json || kept.size === 0) return;
      const ordered = tickers.flatMap((ticker) => (kept.has(ticker) ? [kept.get(ticker)!] : []));
      io.stdout(render.renderJson(tickers.length === 1 ? ordered[0]! : ordered));
    },
    async summary(tally: UniverseTally): Promise<void> {
      if (modes.json) return;
      const { renderUniverseSummary } = await import('../../report/universe-summary.js');
      const text = renderUniverseSummary(tally.result());
      if (!modes.jsonl) io.stdout(`\n${text}`);
      else if (!modes.quiet) io.stderr(text);
    },
  };
}
