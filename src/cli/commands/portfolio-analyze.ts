import type { AnalysisResult } from '../../result/types.js';
import { scopeCap } from '../../run/cap.js';
import { parseRunRequest } from '../../run/request.js';
import { runAndSave } from '../../run/run-and-save.js';
import type { SearchChoice } from '../../search/types.js';
import type { PortfolioCliOptions } from '../command-table.js';
import { warningWriter, type CliIo } from '../io.js';
import { requestFromFlags } from '../run-request-flags.js';
import type { Session } from '../services.js';

/**
 * `portfolio --analyze`: every ticker is analysed first, one RunRequest each through
 * runAndSave — saved like any `analyze` run (run store, run record, whatever follows a
 * saved run) — and the book then reads the store as usual. A run that ends without a
 * decision leaves its ticker unsized: listed as excluded, never treated as flat.
 */
export async function analyzeFirst(
  tickers: readonly string[],
  options: PortfolioCliOptions,
  search: SearchChoice | undefined,
  session: Session,
  io: CliIo,
): Promise<AnalysisResult[]> {
  // The runs are the store's: saved whatever --no-save says of the book; --out is the book's.
  const base = requestFromFlags({ ...options, save: true, out: undefined }, search);
  const cap = scopeCap(options.maxCost, session);
  const results: AnalysisResult[] = [];
  for (const ticker of tickers) {
    const request = parseRunRequest({ ...base, ticker });
    const { result } = await runAndSave(request, session, { warn: warningWriter(io) }, { cap, signal: io.signal });
    if (!options.quiet) {
      const decision = result.decision
        ? `${result.decision.action}, conviction ${result.decision.conviction}`
        : 'no decision';
      io.stderr(`autohedge: analysed ${ticker}: ${result.status} (${decision}), run ${result.runId}\n`);
    }
    results.push(result);
  }
  return results;
}
