import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { errorMessage, UsageError } from '../errors.js';
import { tickerSchema } from '../market/ticker.js';
import { sanitizeText } from '../sanitize.js';
import { jsonValueLines, lineOf, pathKey } from './json-lines.js';
import type { Holdings, Position } from './types.js';

/**
 * The user's book from a file: CSV (`symbol,quantity[,costBasis][,currency]`, a header
 * row, `#` comments, cash as a `CASH` row) or JSON (`{ cash, positions: [...] }`).
 * Every problem is a UsageError (exit 2) that names the file and line.
 */

/** Header names as brokers' position exports spell them, compared lower-case without spaces, dots or underscores. */
export const columnAliases = {
  symbol: ['symbol', 'ticker', 'tickersymbol', 'instrument'],
  quantity: ['quantity', 'qty', 'shares', 'position', 'units'],
  costBasis: ['costbasis', 'costbasistotal', 'totalcost', 'cost'],
  currency: ['currency', 'ccy'],
} as const;

type Column = keyof typeof columnAliases;

/** A number as brokers print it: `1,234.50`, `$1,234.50`, `-3`; nothing else. */
const numberText = /^-?\$?\d{1,3}(,\d{3})*(\.\d+)?$|^-?\$?\d+(\.\d+)?$/;

const quantitySchema = z
  .number()
  .refine(Number.isFinite, 'must be a finite number')
  .min(0, 'must not be negative (short positions in a holdings file are not supported)')
  .max(1e12, 'is too large');
const moneySchema = z.number().refine(Number.isFinite, 'must be a finite number').min(-1e13).max(1e13);
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
}

export async function readHoldingsFile(path: string): Promise<ParsedHoldings> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read --holdings ${path}: ${errorMessage(error).replace(/,\s*\w+\s+'[^']*'$/, '')}`);
  }
  return parseHoldings(text, path);
}

/** JSON when the first non-blank character opens an object, else CSV. */
export function parseHoldings(text: string, source = 'holdings'): ParsedHoldings {
  const body = text.replace(/^\uFEFF/, '');
  return body.trimStart().startsWith('{') ? parseHoldingsJson(body, source) : parseHoldingsCsv(body, source);
}

/** --cash and the file's cash: exactly one of them. */
export function resolveCash(parsed: ParsedHoldings, cashOption: number | undefined, source: string): Holdings {
  if (parsed.cash !== null && cashOption !== undefined) {
    throw new UsageError(`${source} already gives the cash (${parsed.cash}); drop --cash or the file's cash`);
  }
  const cash = parsed.cash ?? cashOption;
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
  const parsed = holdingsJsonSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const line = lineOf(jsonValueLines(text), issue.path);
    const where = pathKey(issue.path) || 'the file';
    throw new UsageError(`${source}:${line}: ${where} ${issue.message}`);
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
      line: lineOf(jsonValueLines(text), ['positions', index]),
    })),
    source,
  );
  return { cash: parsed.data.cash ?? null, positions };
}

export function parseHoldingsCsv(text: string, source: string): ParsedHoldings {
  const lines = text.split(/\r?\n/);
  const headerIndex = lines.findIndex((line) => stripComment(line) !== '');
  if (headerIndex < 0) throw new UsageError(`${source}: empty file (a header row such as symbol,quantity is required)`);
  const columns = headerColumns(splitCsvLine(stripComment(lines[headerIndex]!)), source, headerIndex + 1);
  let cash: { amount: number; line: number } | null = null;
  const positions: Array<Position & { line: number }> = [];
  lines.forEach((rawLine, index) => {
    if (index <= headerIndex) return;
    const content = stripComment(rawLine);
    if (content === '') return;
    const line = index + 1;
    const cells = splitCsvLine(content);
    const cell = (column: Column) => (columns[column] === undefined ? '' : (cells[columns[column]!] ?? '').trim());
    const symbol = cell('symbol');
    if (symbol === '') throw new UsageError(`${source}:${line}: no symbol in this row`);
    if (/^cash$/i.test(symbol)) {
      if (cash) throw new UsageError(`${source}:${line}: a second CASH row (the first is on line ${cash.line})`);
      cash = { amount: numberCell(cell('quantity'), 'the cash amount (quantity column)', source, line), line };
      return;
    }
    positions.push({ ...positionRow(symbol, cell, source, line), line });
  });
  checkDuplicates(positions, source);
  return {
    cash: (cash as { amount: number } | null)?.amount ?? null,
    positions: positions.map(({ line: _, ...rest }) => rest),
  };
}

function positionRow(symbol: string, cell: (column: Column) => string, source: string, line: number): Position {
  const ticker = tickerSchema.safeParse(symbol);
  if (!ticker.success) throw new UsageError(`${source}:${line}: '${sanitizeText(symbol)}' is not a ticker symbol`);
  const quantity = quantitySchema.safeParse(numberCell(cell('quantity'), 'quantity', source, line));
  if (!quantity.success) throw new UsageError(`${source}:${line}: quantity ${quantity.error.issues[0]!.message}`);
  const costText = cell('costBasis');
  const currencyText = cell('currency');
  const currency = currencyText === '' ? null : currencySchema.safeParse(currencyText);
  if (currency && !currency.success) {
    throw new UsageError(
      `${source}:${line}: currency '${sanitizeText(currencyText)}' ${currency.error.issues[0]!.message}`,
    );
  }
  return {
    symbol: ticker.data,
    quantity: quantity.data,
    costBasis: costText === '' ? null : numberCell(costText, 'cost basis', source, line),
    currency: currency ? currency.data : null,
  };
}

function numberCell(text: string, what: string, source: string, line: number): number {
  if (text === '') throw new UsageError(`${source}:${line}: no ${what} in this row`);
  if (!numberText.test(text)) {
    throw new UsageError(`${source}:${line}: ${what} '${sanitizeText(text)}' is not a number`);
  }
  return Number(text.replace(/[$,]/g, ''));
}

function headerColumns(header: string[], source: string, line: number): Partial<Record<Column, number>> {
  const columns: Partial<Record<Column, number>> = {};
  header.forEach((name, index) => {
    const normalized = name.toLowerCase().replace(/[\s._-]/g, '');
    for (const [column, aliases] of Object.entries(columnAliases) as Array<[Column, readonly string[]]>) {
      if (aliases.includes(normalized) && columns[column] === undefined) columns[column] = index;
    }
  });
  for (const required of ['symbol', 'quantity'] as const) {
    if (columns[required] === undefined) {
      throw new UsageError(
        `${source}:${line}: the header row needs a ${required} column (one of ${columnAliases[required].join(', ')}; got ${header.map((cell) => `'${sanitizeText(cell)}'`).join(', ')})`,
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

/** `#` starts a comment, outside quotes. */
function stripComment(line: string): string {
  let quoted = false;
  for (let index = 0; index < line.length; index += 1) {
    if (line[index] === '"') quoted = !quoted;
    else if (line[index] === '#' && !quoted) return line.slice(0, index).trim();
  }
  return line.trim();
}

/** RFC 4180 cells of one line: quotes around a cell, `""` for a quote inside one. */
export function splitCsvLine(line: string): string[] {
  const cells: string[] = [];
  let current = '';
  let quoted = false;
  for (let index = 0; index < line.length; index += 1) {
    const character = line[index]!;
    if (quoted) {
      if (character === '"' && line[index + 1] === '"') {
        current += '"';
        index += 1;
      } else if (character === '"') quoted = false;
      else current += character;
    } else if (character === '"') quoted = true;
    else if (character === ',') {
      cells.push(current.trim());
      current = '';
    } else current += character;
  }
  cells.push(current.trim());
  return cells;
}
