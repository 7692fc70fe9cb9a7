import { filingsOf } from '../../../src/market/sources/edgar/acceptance.js';
import { buildFundamentals } from '../../../src/market/sources/edgar/build.js';
import {
  companyFactsSchema,
  submissionsSchema,
  type CompanyFacts,
  type Filing,
} from '../../../src/market/sources/edgar/documents.js';
import type { Fundamentals, SplitEvent } from '../../../src/market/fundamentals-types.js';
import { exchangeCalendar } from '../../../src/market/calendar/index.js';

const sessionClose = (day: string) => exchangeCalendar('XNYS').closeAt(day);
import { fairValue } from './edgar-recorded.js';

/** FairValue's AAPL documents, parsed once, and Fundamentals built from them as of a day's close. */

let parsed: { facts: CompanyFacts; filings: Filing[] } | null = null;

export function aapl(): { facts: CompanyFacts; filings: Filing[] } {
  parsed ??= {
    facts: companyFactsSchema.parse(JSON.parse(fairValue.facts())),
    filings: filingsOf(submissionsSchema.parse(JSON.parse(fairValue.submissions())).filings.recent),
  };
  return parsed;
}

export const closeOf = (day: string) => sessionClose(day).toISOString();

export function aaplAsOf(
  day: string,
  options: { splits?: SplitEvent[]; close?: number | null; facts?: CompanyFacts } = {},
): Fundamentals {
  const { facts, filings } = aapl();
  return buildFundamentals({
    facts: options.facts ?? facts,
    filings,
    close: closeOf(day),
    splits: options.splits ?? [],
    asTradedClose: options.close ?? null,
  });
}

export function figure(fundamentals: Fundamentals, kind: 'quarters' | 'years', end: string, concept: string) {
  return fundamentals[kind]
    .find((period) => period.periodEnd === end)
    ?.figures.find((entry) => entry.concept === concept);
}
