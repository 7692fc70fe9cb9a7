import type { FilingEntry } from '../../fundamentals-types.js';
import type { Filing } from './documents.js';

/** The FILINGS part: the periodic and current reports of the last 90 days, and the insider forms. */

export const filingWindowDays = 90;

/** 8-K item codes in words (SEC Form 8-K General Instructions B). */
const itemWords: Readonly<Record<string, string>> = {
  '1.01': 'material agreement',
  '1.02': 'agreement terminated',
  '1.03': 'bankruptcy',
  '1.05': 'cybersecurity incident',
  '2.01': 'acquisition or disposal completed',
  '2.02': 'results of operations',
  '2.03': 'new financial obligation',
  '2.04': 'obligation accelerated',
  '2.05': 'exit or restructuring costs',
  '2.06': 'impairment',
  '3.01': 'delisting notice',
  '3.02': 'unregistered equity sale',
  '3.03': "holders' rights modified",
  '4.01': 'auditor change',
  '4.02': 'prior statements no longer reliable',
  '5.01': 'change in control',
  '5.02': 'officer or director change',
  '5.03': 'articles or bylaws amended',
  '5.05': 'code of ethics',
  '5.07': 'shareholder vote',
  '5.08': 'director nominations',
  '7.01': 'Regulation FD disclosure',
  '8.01': 'other events',
  '9.01': 'financial statements and exhibits',
};

export function itemInWords(code: string): string {
  const words = itemWords[code];
  return words ? `${code} ${words}` : code;
}

const reportForms = /^(10-K|10-Q|8-K)(\/A)?$/;
const insiderForms = /^4(\/A)?$/;

function within(filing: Filing, from: number, close: number): boolean {
  const accepted = Date.parse(filing.acceptedAt);
  return accepted > from && accepted <= close;
}

export function recentFilings(
  filings: readonly Filing[],
  close: string,
): { filings: FilingEntry[]; insiderFilings90d: number } {
  const end = Date.parse(close);
  const start = end - filingWindowDays * 86_400_000;
  const recent = filings.filter((filing) => within(filing, start, end));
  const reports = recent
    .filter((filing) => reportForms.test(filing.form))
    .sort((left, right) => right.acceptedAt.localeCompare(left.acceptedAt))
    .map((filing): FilingEntry => ({
      form: filing.form,
      acceptedAt: filing.acceptedAt,
      ...(filing.form.startsWith('8-K') ? { items: filing.items.map(itemInWords) } : {}),
      accession: filing.accession,
    }));
  return { filings: reports, insiderFilings90d: recent.filter((filing) => insiderForms.test(filing.form)).length };
}
