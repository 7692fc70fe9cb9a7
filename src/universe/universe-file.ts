import { readFile } from 'node:fs/promises';
import { UsageError, errorMessage } from '../errors.js';
import { quoteInput } from '../text.js';
import { validateTicker } from '../market/ticker.js';

/**
 * A universe file: one ticker per line (`#` starts a comment, blank lines are skipped),
 * or a CSV whose header row has a `ticker` or `symbol` column. Returns the canonical
 * symbols in file order; a bad symbol is a UsageError naming its line.
 */
export async function readUniverseFile(path: string, shownAs = path): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(
      `cannot read --universe ${shownAs}: ${errorMessage(error).replace(/,\s*\w+\s+'[^']*'$/, '')}`,
      { cause: error },
    );
  }
  return parseUniverse(text, shownAs);
}

export function parseUniverse(text: string, source = 'universe'): string[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const firstRow = lines.findIndex((line) => stripComment(line) !== '');
  const header = firstRow >= 0 ? splitCsv(stripComment(lines[firstRow]!)) : [];
  const column = header.findIndex((cell) => /^(ticker|symbol)$/i.test(cell));
  if (column < 0 && header.length > 1) {
    throw new UsageError(
      `${source}: a CSV universe needs a 'ticker' or 'symbol' column in its first row (got ${header
        .slice(0, 8)
        .map((cell) => quoteInput(cell))
        .join(', ')}${header.length > 8 ? ', …' : ''})`,
    );
  }
  const tickers: string[] = [];
  lines.forEach((line, index) => {
    if (index === firstRow && column >= 0) return;
    const content = stripComment(line);
    if (content === '') return;
    const cell = column >= 0 ? (splitCsv(content)[column] ?? '') : content;
    if (cell === '') throw new UsageError(`${source}:${index + 1}: no ticker in this row`);
    try {
      tickers.push(validateTicker(cell));
    } catch (error) {
      throw new UsageError(`${source}:${index + 1}: ${errorMessage(error)}`);
    }
  });
  return tickers;
}

/** `#` starts a comment anywhere on a line; a ticker never contains one. */
function stripComment(line: string): string {
  const hash = line.indexOf('#');
  return (hash >= 0 ? line.slice(0, hash) : line).trim();
}

/** Comma-separated cells, each trimmed and unquoted; tickers never contain a comma, so no escaping is needed. */
function splitCsv(line: string): string[] {
  return line.split(',').map((cell) =>
    cell
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .trim(),
  );
}

/** Command-line tickers first, then the file's; each symbol once, first position kept. */
export function mergeTickers(...lists: readonly string[][]): string[] {
  return [...new Set(lists.flat())];
}
