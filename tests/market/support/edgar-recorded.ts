import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The recorded SEC EDGAR answers in ../shared/fixtures/recorded/edgar (see its MANIFEST.md):
 * FairValue's AAPL companyfacts and submissions as served (JSON), and edgartools' vcrpy
 * cassettes (newer AAPL companyfacts and submissions, TSLA submissions with its second page).
 */

const here = path.dirname(fileURLToPath(import.meta.url));
export const recordedDir = path.resolve(here, '..', '..', '..', '..', 'shared', 'fixtures', 'recorded');
export const recordedEdgarDir = path.join(recordedDir, 'edgar');
export const hasRecordedEdgar = existsSync(path.join(recordedEdgarDir, 'fairvalue'));
export const skipMessage = `recorded EDGAR fixtures not found at ${recordedEdgarDir}; skipping the EDGAR recorded-traffic tests`;

const cache = new Map<string, string>();

function read(file: string): string {
  let text = cache.get(file);
  if (text === undefined) {
    text = readFileSync(path.join(recordedEdgarDir, file), 'utf8');
    cache.set(file, text);
  }
  return text;
}

export const fairValue = {
  facts: () => read('fairvalue/sec-filing-companyfacts-AAPL.json'),
  trimmedFacts: () => read('fairvalue/sec-filing-companyfacts-AAPL.trimmed.json'),
  submissions: () => read('fairvalue/sec-filing-submissions-AAPL.json'),
};

/**
 * The response bodies of a vcrpy cassette, by URL. Each body is a single-quoted YAML scalar
 * (`string: '…'`): a line break with its indentation folds to one space, `''` is a quote.
 */
export function cassetteBodies(file: string): Map<string, string> {
  const text = read(`edgartools/${file}`);
  const bodies = new Map<string, string>();
  const uriPattern = /^ {4}uri: (\S+)$/gm;
  for (let match = uriPattern.exec(text); match; match = uriPattern.exec(text)) {
    const open = text.indexOf("string: '", match.index) + "string: '".length;
    let body = '';
    let index = open;
    for (;;) {
      const quote = text.indexOf("'", index);
      body += text.slice(index, quote);
      if (text[quote + 1] === "'") {
        body += "'";
        index = quote + 2;
      } else break;
    }
    bodies.set(match[1]!, body.replace(/[ \t]*\n[ \t]*/g, ' '));
  }
  return bodies;
}

export const edgartools = {
  aaplFacts: () =>
    cassetteBodies('TestCompanyTTMIntegration.test_facts_income_statement_ttm_periods.yaml').get(
      'https://data.sec.gov/api/xbrl/companyfacts/CIK0000320193.json',
    )!,
  aaplSubmissions: () =>
    cassetteBodies('test_company_to_context_detail_levels.yaml').get(
      'https://data.sec.gov/submissions/CIK0000320193.json',
    )!,
  tsla: () => cassetteBodies('test_company_filing_acceptance_datetime.yaml'),
};

/** The AAPL split chart (4:1 on 2020-08-31) and the 2020-01-02 bar, from the Yahoo recordings. */
export function yahooChart(name: string): {
  events?: { splits?: Record<string, { date: number; numerator: number; denominator: number }> };
  indicators: { quote: Array<{ close: Array<number | null> }> };
  timestamp: number[];
} {
  const file = path.join(recordedDir, 'yahoo', 'v3-fetch-mock-cache', name);
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { response: { bodyJson: { chart: { result: unknown[] } } } };
  return parsed.response.bodyJson.chart.result[0] as ReturnType<typeof yahooChart>;
}
