import { escapeRegExp } from '../scrub.js';
import type { Identity } from './types.js';

/**
 * The snapshot's data notes for a blind run. They are free text from the data layer
 * (a reason a request failed, a gap in the history), so what could name the company or
 * place it in time is taken out: its symbol and name become the alias, a bar's day its
 * session offset, any other day, year, month or weekday a placeholder, and every decimal
 * number (a note may quote a raw price) `(number hidden)`.
 */
export interface BlindTextContext {
  identity: Identity;
  symbol: string;
  alias: string;
  /** A bar's day → its session offset (`D-3`). */
  offsets: ReadonlyMap<string, string>;
}

export function blindNotes(notes: readonly string[], context: BlindTextContext): string[] {
  return notes.map((note) => blindText(note, context));
}

const isoDate = /\b(\d{4}-\d{2}-\d{2})(?:[T ][\d:.]+Z?)?\b/g;
const year = /\b(?:19|20)\d{2}\b/g;
const decimal = /\d+\.\d+/g;
const months =
  /\b(?:January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\b\.?/g;
const weekdays = /\b(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|Mon|Tue|Wed|Thu|Fri|Sat|Sun)\b/g;

export function blindText(text: string, context: BlindTextContext): string {
  let blind = text;
  for (const name of identityNames(context)) blind = blind.replace(wholeWord(name), context.alias);
  return blind
    .replace(isoDate, (_match, day: string) => context.offsets.get(day) ?? '(date hidden)')
    .replace(year, '(year hidden)')
    .replace(months, '(month hidden)')
    .replace(weekdays, '(weekday hidden)')
    .replace(decimal, '(number hidden)');
}

/** Legal-form suffixes a company's short name drops ("Acme Robotics Corp" → "Acme Robotics"). */
const legalForm =
  /[\s,]+(?:inc\.?|corp\.?|corporation|co\.?|company|ltd\.?|limited|plc|n\.v\.|s\.a\.|ag|se|group|holdings?)$/i;

/** The strings that name the company, longest first so a full name is replaced before its short form. */
function identityNames(context: BlindTextContext): string[] {
  const { identity, symbol } = context;
  const names = [symbol, identity.symbol, identity.name ?? ''];
  if (identity.name) names.push(identity.name.replace(legalForm, ''));
  return [...new Set(names.map((name) => name.trim()).filter((name) => name.length > 0))].sort(
    (a, b) => b.length - a.length,
  );
}

/** The name as a whole word: `ACME` in "ACME's", not in "ACMEX". */
function wholeWord(name: string): RegExp {
  const escaped = escapeRegExp(name);
  // Case-insensitive: a note may say "symbol: nvda" or "Nvidia's" of NVDA / NVIDIA Corporation.
  return new RegExp(`(?<![A-Za-z0-9])${escaped}(?![A-Za-z0-9])`, 'gi');
}
