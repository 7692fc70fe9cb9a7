import { open } from 'node:fs/promises';
import { z } from 'zod';
import { errorMessage, UsageError } from '../errors.js';
import { tickerSchema } from '../market/ticker.js';
import { sanitizeText } from '../sanitize.js';
import { nestingBeyond } from '../json-depth.js';
import { formatZodIssues } from '../zod-issues.js';
import {
  columnAliases,
  columnsOf,
  headerLineIndex,
  ibkrStatement,
  mapBrokerSymbol,
  rowKindOf,
  type Column,
} from './broker-csv.js';
import { splitCsvLine, stripComment } from './csv-cells.js';
import { jsonValueLines, lineOf } from './json-lines.js';
import type { Holdings, Position } from './types.js';

/**
 * The user's book from a file: CSV (`symbol,quantity[,costBasis][,currency]`, a header
 * row, `#` comments, cash as a `CASH` row; brokers' position exports as they are, see
 * broker-csv.ts) or JSON (`{ cash, positions: [...] }`). Every problem is a UsageError
 * (exit 2) that names the file and line.
 */

export { columnAliases, splitCsvLine };

/** Far larger than any book; a bigger file (or /dev/zero) is refused before it is read. */
export const maxHoldingsBytes = 5 * 1024 * 1024;

/** A number as brokers print it: `1,234.50`, `$1,234.50`, `-3`; nothing else. */
const numberText = /^-?\$?\d{1,3}(,\d{3})*(\.\d+)?$|^-?\$?\d+(\.\d+)?$/;

const quantitySchema = z
  .number()
  .refine(Number.isFinite, 'must be a finite number')
  .min(0, 'must not be negative (short positions in a holdings file are not supported)')
  .max(1e12, 'is too large');
const outOfRange = 'is out of range (at most 10,000,000,000,000 either way)';
const moneySchema = z
  .number({
    // A 400-digit amount parses to Infinity: out of range, not "not a number".
    error: (issue) => (issue.input === Infinity || issue.input === -Infinity ? outOfRange : undefined),
  })
  .min(-1e13, outOfRange)
  .max(1e13, outOfRange);
const currencySchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{3}$/, 'must be a three-letter currency code such as USD')
  .transform((code) => code.toUpperCase());

const positionSchema = z.strictObject({
  symbol: tickerSchema.refine((symbol) => symbol !== 'CASH', 'CASH is not a position: give it as "cash"'),
  quantity: quantitySchema,
  costBasis: moneySchema.nullable().optional(),
  currency: currencySchema.nullable().optional(),
});

const holdingsJsonSchema = z.strictObject({
  cash: moneySchema.optional(),
  positions: z.array(positionSchema),
});

export interface ParsedHoldings {
  /** Cash from the file; null when the file gives none (then --cash must). */
  cash: number | null;
  positions: Position[];
  /** Lines of a broker's export that are not positions (title, totals, footer), when there are any. */
  skipped?: Array<{ line: number; reason: string }>;
}

export async function readHoldingsFile(path: string): Promise<ParsedHoldings> {
  return parseHoldings(await readBounded(path), path);
}

/** The file's text: a regular file of at most maxHoldingsBytes, else one clear line. */
async function readBounded(path: string): Promise<string> {
  const refuse = (why: string) => new UsageError(`cannot read --holdings ${path}: ${why}`);
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw refuse(errorMessage(error).replace(/,\s*\w+\s+'[^']*'$/, ''));
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw refuse('not a regular file (give a CSV or JSON file)');
    if (stat.size > maxHoldingsBytes) throw refuse(`${stat.size} bytes is over the ${maxHoldingsBytes}-byte limit`);
    const buffer = Buffer.alloc(Math.min(stat.size, maxHoldingsBytes) + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    if (bytesRead > maxHoldingsBytes) throw refuse(`over the ${maxHoldingsBytes}-byte limit`);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } catch (error) {
    throw error instanceof UsageError ? error : refuse(errorMessage(error));
  } finally {
    await handle.close();
  }
}

/** JSON when the first non-blank character opens an object, else CSV. */
export function parseHoldings(text: string, source = 'holdings'): ParsedHoldings {
  const body = text.replace(/^\uFEFF/, '');
  if (body.startsWith('PK\u0003\u0004'))
    throw new UsageError(
      `${source}: this is an Excel (or other zip) file; export the positions as CSV and give that file`,
    );
  if (body.includes('\u0000')) throw new UsageError(`${source}: a binary file, not CSV or JSON text`);
  // A JSON array is JSON too (refused as not a book), never a CSV header of brackets.
  return /^[{[]/.test(body.trimStart()) ? parseHoldingsJson(body, source) : parseHoldingsCsv(body, source);
}

/** --cash and the file's cash: exactly one of them. */
export function resolveCash(parsed: ParsedHoldings, cashOption: number | undefined, source: string): Holdings {
  if (parsed.cash !== null && cashOption !== undefined) {
    throw new UsageError(`${source} already gives the cash (${parsed.cash}); drop --cash or the file's cash`);
  }
  const cash = parsed.cash ?? cashOption;
  if (cash !== undefined && !moneySchema.safeParse(cash).success) {
    throw new UsageError(
      `${source}: the cash ${String(cash).slice(0, 40)} is not an amount autohedge can value a book with`,
    );
  }
  if (cash === undefined) {
    throw new UsageError(
      `${source} gives no cash: add a CASH row (CASH,<usd>) or "cash" to the file, or pass --cash <usd> (--cash 0 for none)`,
    );
  }
  return { cash, positions: parsed.positions };
}

export function parseHoldingsJson(text: string, source: string): ParsedHoldings {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${source}: not valid JSON (${errorMessage(error)})`);
  }
  const deep = nestingBeyond(raw, 16);
  if (deep !== null)
    throw new UsageError(`${source}: nests too deeply at ${deep} (a book is a flat list of positions)`);
  const parsed = holdingsJsonSchema.safeParse(raw);
  // Computed once: each position's line is a look-up, not a scan of the file.
  const valueLines = jsonValueLines(text);
  if (!parsed.success) {
    const line = lineOf(valueLines, parsed.error.issues[0]!.path);
    throw new UsageError(`${source}:${line}: ${sentence(parsed.error, 'the file')}`);
  }
  const positions = parsed.data.positions.map((position) => ({
    symbol: position.symbol,
    quantity: position.quantity,
    costBasis: position.costBasis ?? null,
    currency: position.currency ?? null,
  }));
  checkDuplicates(
    positions.map((position, index) => ({
      symbol: position.symbol,
      line: lineOf(valueLines, ['positions', index]),
    })),
    source,
  );
  return { cash: parsed.data.cash ?? null, positions };
}

export function parseHoldingsCsv(text: string, source: string): ParsedHoldings {
  const table = csvTable(text.split(/\r?\n/), source);
  const columns = headerColumns(splitCsvLine(table.header.text), source, table.header.line);
  const width = splitCsvLine(table.header.text).filter((cell) => cell !== '').length;
  let cash: { amount: number; line: number } | null = table.cash;
  const positions: Array<Position & { line: number }> = [];
  const skipped = [...table.skipped];
  let pastBlank = false;
  for (const { text: content, line } of table.rows) {
    if (content === '' || splitCsvLine(content).every((cell) => cell === '')) {
      pastBlank ||= positions.length > 0;
      continue;
    }
    const cells = splitCsvLine(content);
    const cell = (column: Column) => (columns[column] === undefined ? '' : (cells[columns[column]!] ?? '').trim());
    const kind = rowKindOf(cell('symbol'), cell('description'));
    if (kind === 'summary') {
      skipped.push({ line, reason: `${cell('symbol')} (a summary row)` });
      continue;
    }
    // A footer below the table (a disclaimer, a download date) is not a position; a row of the table must be one.
    if (pastBlank && !looksLikePosition(cells, cell)) {
      skipped.push({ line, reason: 'footer below the table' });
      continue;
    }
    checkWidth(cells, width, source, line);
    if (kind === 'cash') {
      if (cash) throw new UsageError(`${source}:${line}: a second CASH row (the first is on line ${cash.line})`);
      cash = { amount: cashAmount(cell, source, line), line };
      continue;
    }
    positions.push({ ...positionRow(mapBrokerSymbol(cell('symbol')), cell, source, line), line });
  }
  checkDuplicates(positions, source);
  return {
    cash: cash?.amount ?? null,
    positions: positions.map(({ line: _, ...rest }) => rest),
    ...(skipped.length > 0 ? { skipped } : {}),
  };
}

interface NumberedLine {
  text: string;
  line: number;
}

/** The header row and the rows below it; lines above the header (a broker's title) are skipped and listed. */
function csvTable(
  lines: readonly string[],
  source: string,
): {
  header: NumberedLine;
  rows: NumberedLine[];
  skipped: Array<{ line: number; reason: string }>;
  cash: { amount: number; line: number } | null;
} {
  const ibkr = ibkrStatement(lines);
  if (ibkr) {
    const cash = ibkr.cash
      ? { amount: numberCell(ibkr.cash.amount, 'the ending cash', source, ibkr.cash.line), line: ibkr.cash.line }
      : null;
    return { header: ibkr.lines[0]!, rows: ibkr.lines.slice(1), skipped: [], cash };
  }
  const content = lines.map((text, index) => ({ text: stripComment(text), line: index + 1 }));
  const first = content.findIndex((entry) => entry.text !== '');
  if (first < 0) throw new UsageError(`${source}: empty file (a header row such as symbol,quantity is required)`);
  const found = headerLineIndex(content.map((entry) => entry.text));
  // No recognisable header: the first line is named as the header it should have been.
  const at = found < 0 ? first : found;
  const skipped = content
    .slice(first, at)
    .filter((entry) => splitCsvLine(entry.text).some((cell) => cell !== ''))
    .map((entry) => ({ line: entry.line, reason: 'above the header row' }));
  return { header: content[at]!, rows: content.slice(at + 1), skipped, cash: null };
}

function looksLikePosition(cells: readonly string[], cell: (column: Column) => string): boolean {
  return (
    cells.length > 1 &&
    tickerSchema.safeParse(mapBrokerSymbol(cell('symbol'))).success &&
    numberText.test(cell('quantity'))
  );
}

/** A row with more filled cells than the header has names is refused: its values would land in the wrong columns. */
function checkWidth(cells: readonly string[], width: number, source: string, line: number): void {
  const filled = cells.length - [...cells].reverse().findIndex((cell) => cell !== '');
  if (filled > width && cells.some((cell) => cell !== '')) {
    throw new UsageError(`${source}:${line}: this row has ${filled} cells, the header row names ${width}`);
  }
}

/** A broker's cash line: its quantity when it has one, else its market value. */
function cashAmount(cell: (column: Column) => string, source: string, line: number): number {
  const quantity = cell('quantity');
  const text = numberText.test(quantity) || cell('value') === '' ? quantity : cell('value');
  const amount = moneySchema.safeParse(numberCell(text, 'the cash amount (quantity column)', source, line));
  if (!amount.success) throw new UsageError(`${source}:${line}: ${sentence(amount.error, 'the cash amount')}`);
  return amount.data;
}

function positionRow(symbol: string, cell: (column: Column) => string, source: string, line: number): Position {
  const ticker = tickerSchema.safeParse(symbol);
  if (!ticker.success) throw new UsageError(`${source}:${line}: '${sanitizeText(symbol)}' is not a ticker symbol`);
  const quantity = quantitySchema.safeParse(numberCell(cell('quantity'), 'quantity', source, line));
  if (!quantity.success) throw new UsageError(`${source}:${line}: ${sentence(quantity.error, 'quantity')}`);
  const costText = cell('costBasis');
  const currencyText = cell('currency');
  const currency = currencyText === '' ? null : currencySchema.safeParse(currencyText);
  if (currency && !currency.success) {
    throw new UsageError(`${source}:${line}: ${sentence(currency.error, `currency '${sanitizeText(currencyText)}'`)}`);
  }
  return {
    symbol: ticker.data,
    quantity: quantity.data,
    costBasis: costText === '' ? null : numberCell(costText, 'cost basis', source, line),
    currency: currency ? currency.data : null,
  };
}

/** The first problem as a sentence: the messages here are written to follow their field ("quantity must not be negative"). */
function sentence(error: z.ZodError, root: string): string {
  return formatZodIssues(error, { limit: 1, root, separator: ' ' });
}

function numberCell(text: string, what: string, source: string, line: number): number {
  if (text === '') throw new UsageError(`${source}:${line}: no ${what} in this row`);
  if (!numberText.test(text)) {
    throw new UsageError(`${source}:${line}: ${what} ${shownCells([text])} is not a number`);
  }
  return Number(text.replace(/[$,]/g, ''));
}

/** Cells quoted in an error: a few, each cut short, so a hostile file cannot flood the terminal. */
function shownCells(cells: readonly string[]): string {
  const cut = (cell: string) => {
    const clean = sanitizeText(cell);
    return clean.length > 40 ? `${clean.slice(0, 40)}…` : clean;
  };
  const shown = cells.slice(0, 8).map((cell) => `'${cut(cell)}'`);
  return cells.length > 8 ? `${shown.join(', ')} and ${cells.length - 8} more` : shown.join(', ');
}

function headerColumns(header: string[], source: string, line: number): Partial<Record<Column, number>> {
  const columns = columnsOf(header);
  for (const required of ['symbol', 'quantity'] as const) {
    if (columns[required] === undefined) {
      throw new UsageError(
        `${source}:${line}: the header row needs a ${required} column (one of ${columnAliases[required].join(', ')}; got ${shownCells(header)})`,
      );
    }
  }
  return columns;
}

function checkDuplicates(rows: ReadonlyArray<{ symbol: string; line: number }>, source: string): void {
  const seen = new Map<string, number>();
  for (const row of rows) {
    const first = seen.get(row.symbol);
    if (first !== undefined) {
      throw new UsageError(
        `${source}:${row.line}: ${row.symbol} is listed again (first on line ${first}); combine its lots into one row`,
      );
    }
    seen.set(row.symbol, row.line);
  }
}

/** One line for stderr naming what a broker's export had besides positions; null when nothing was skipped. */
export function describeSkipped(parsed: ParsedHoldings, source: string): string | null {
  if (!parsed.skipped || parsed.skipped.length === 0) return null;
  const listed = parsed.skipped.map((entry) => `${entry.line} (${sanitizeText(entry.reason).slice(0, 60)})`);
  return `${source}: read as a broker's export; skipped line(s) that are not positions: ${listed.join(', ')}`;
}
