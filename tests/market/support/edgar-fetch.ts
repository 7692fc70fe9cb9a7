import { edgartools, fairValue } from './edgar-recorded.js';

/**
 * A fetch that answers SEC URLs from the recorded documents, and records every request
 * (URL and User-Agent). company_tickers.json was not recorded by any public project: its
 * two rows here are written by hand in SEC's format.
 */

export const tickersBody = JSON.stringify({
  '0': { cik_str: 320193, ticker: 'AAPL', title: 'Apple Inc.' },
  '1': { cik_str: 1318605, ticker: 'TSLA', title: 'Tesla, Inc.' },
  '2': { cik_str: 1067983, ticker: 'BRK-B', title: 'BERKSHIRE HATHAWAY INC' },
});

export interface RecordedFetch {
  fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  requests: Array<{ url: string; userAgent: string | null; at: number }>;
}

export function recordedSecFetch(now: () => number = () => Date.now()): RecordedFetch {
  const tesla = edgartools.tsla();
  const routes: Record<string, () => string> = {
    'https://www.sec.gov/files/company_tickers.json': () => tickersBody,
    'https://data.sec.gov/submissions/CIK0000320193.json': fairValue.submissions,
    'https://data.sec.gov/api/xbrl/companyfacts/CIK0000320193.json': fairValue.facts,
    'https://data.sec.gov/submissions/CIK0001318605.json': () =>
      tesla.get('https://data.sec.gov/submissions/CIK0001318605.json')!,
    'https://data.sec.gov/submissions/CIK0001318605-submissions-001.json': () =>
      tesla.get('https://data.sec.gov/submissions/CIK0001318605-submissions-001.json')!,
  };
  const requests: RecordedFetch['requests'] = [];
  return {
    requests,
    async fetch(input, init) {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      const userAgent = new Headers(init?.headers).get('user-agent');
      requests.push({ url, userAgent, at: now() });
      const body = routes[url]?.();
      if (body === undefined) return new Response('<Error>not recorded</Error>', { status: 404 });
      return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
    },
  };
}
