import { z } from 'zod';
import { UsageError } from '../errors.js';
import { quoteInput } from '../text.js';

/**
 * Market symbols: letters and digits with the separators the vendors use for share
 * classes (BRK-B, BRK.B), exchanges (SAP.DE), indices (^GSPC), currencies and
 * futures (EURUSD=X, ES=F). Anything else — a comma, a space, a slash — is a typo
 * that a vendor would answer with a 404 after a wasted round trip.
 */
const tickerPattern = /^[A-Za-z0-9^][A-Za-z0-9.\-=^]{0,14}$/;
export const tickerMaxLength = 15;

const expected = `expected 1–${tickerMaxLength} characters: letters, digits and . - = ^ (e.g. AAPL, BRK-B, ^GSPC, EURUSD=X)`;

/**
 * The one ticker rule, for the CLI's arguments and universes and the MCP server's tools
 * alike (whose JSON Schema shows its length and pattern).
 */
export const tickerSchema = z
  .string()
  .trim()
  // One message however the symbol fails, and never the symbol itself (it may be megabytes).
  .min(1, { error: expected, abort: true })
  .max(tickerMaxLength, { error: expected, abort: true })
  .regex(tickerPattern, { error: expected })
  .transform((symbol) => symbol.toUpperCase());

/** The canonical (upper-case) symbol, or a UsageError before any request is made. */
export function validateTicker(input: string): string {
  const parsed = tickerSchema.safeParse(input);
  if (!parsed.success) throw new UsageError(`invalid ticker ${quoteInput(input)}: ${expected}`);
  return parsed.data;
}
