import { resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { validateTicker } from '../market/ticker.js';
import { mergeTickers, readUniverseFile } from '../universe/universe-file.js';

export interface CommandTickers {
  /** The command line's own, checked, in order (a repeated one included). */
  named: string[];
  /** Those and the --universe file's, each once. */
  tickers: string[];
}

/**
 * The tickers a command names and those of its --universe file (a path relative to the
 * working directory). Without `whenNone` an empty list is allowed (portfolio falls back to
 * the held tickers); with it, an empty list is that usage error.
 */
export async function commandTickers(
  rawTickers: readonly string[],
  universe: string | undefined,
  cwd: string,
  whenNone?: string,
): Promise<CommandTickers> {
  const fromFile = universe ? await readUniverseFile(resolve(cwd, universe), universe) : [];
  const named = rawTickers.map((ticker) => validateTicker(ticker));
  const tickers = mergeTickers(named, fromFile);
  if (tickers.length === 0 && whenNone !== undefined) throw new UsageError(whenNone);
  return { named, tickers };
}

/** Without --universe the tickers are commander's required argument, and read like it. */
export function requiredTickers(universe: string | undefined): string {
  return universe ? `no tickers in --universe ${universe}` : "missing required argument 'tickers'";
}
