import type { Fundamentals } from '../../fundamentals-types.js';
import type { FetchFunction } from '../../http.js';
import type { FundamentalsRequest, MarketSource } from '../../source.js';
import { filingsOf } from './acceptance.js';
import { buildFundamentals, edgarLabel, edgarVendor } from './build.js';
import { createEdgarClient, EdgarUnavailableError, secHosts, type EdgarClient } from './client.js';
import {
  companyFactsSchema,
  companyTickersSchema,
  filingColumnsSchema,
  submissionsSchema,
  type CompanyFacts,
  type Filing,
} from './documents.js';
import { createRequestLimiter, type RequestLimiter } from './rate-limit.js';
import type { Freshness, ResponseCache } from './response-cache.js';

/**
 * SEC EDGAR as a source of fundamentals: ticker → CIK (company_tickers.json), the filing
 * index (submissions, with the older pages `filings.files` names when D reaches back to
 * them) and every XBRL fact (companyfacts); then the as-filed rule at D's close (build.ts).
 * A ticker with a non-US suffix is not an SEC filer: no request at all.
 */

export interface EdgarSourceOptions {
  fetch: FetchFunction;
  userAgent: string;
  cache?: ResponseCache | null;
  limiter?: RequestLimiter;
}

/** Market-data exchange suffixes outside the US (`.L`, `.T` …); a class share (`BRK.B`) is not one. */
const foreignSuffixes = new Set(
  'L DE PA AS SW T HK AX TO V OL CO ST HE MI MC BR LS VI IR WA PR AT IS TA JK KS KQ TW TWO SS SZ NS BO SI BK KL NZ SA MX BA SN JO F BE DU HM MU SG CN NE'.split(
    ' ',
  ),
);

export function isForeignTicker(ticker: string): boolean {
  const dot = ticker.lastIndexOf('.');
  return dot > 0 && foreignSuffixes.has(ticker.slice(dot + 1).toUpperCase());
}

const paddedCik = (cik: number) => String(cik).padStart(10, '0');

/** Pages of older filings reach back this far before D (the figures shown are at most 3 years old, their restatements later). */
const pageReachDays = 5 * 366;

export function createEdgarSource(options: EdgarSourceOptions): MarketSource {
  const client = createEdgarClient({
    fetch: options.fetch,
    userAgent: options.userAgent,
    limiter: options.limiter ?? createRequestLimiter(),
    cache: options.cache ?? null,
  });
  return {
    vendor: edgarVendor,
    label: edgarLabel,
    async fundamentals(request) {
      if (isForeignTicker(request.ticker)) return undefined;
      const freshness: Freshness = { historicalClose: request.historical ? request.asOfClose : null };
      const cik = await cikOf(client, request.ticker, request.signal);
      if (cik === null) return notAFiler(request);
      const [filings, facts] = await Promise.all([
        filingIndex(client, cik, request, freshness),
        companyFacts(client, cik, freshness, request.signal),
      ]);
      return buildFundamentals({
        facts,
        filings: filings.filings,
        close: request.asOfClose,
        splits: request.splits ?? [],
        asTradedClose: request.asTradedClose,
        notes: filings.notes,
      });
    },
  };
}

async function json(client: EdgarClient, url: string, freshness: Freshness, signal?: AbortSignal): Promise<unknown> {
  const text = await client.getText(url, freshness, signal);
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new EdgarUnavailableError(`not JSON from ${new URL(url).pathname}`, { cause: error });
  }
}

async function cikOf(client: EdgarClient, ticker: string, signal?: AbortSignal) {
  // The ticker list is today's: a live answer is good for a day whatever the as-of.
  const parsed = companyTickersSchema.safeParse(
    await json(client, `${secHosts.www}/files/company_tickers.json`, { historicalClose: null }, signal),
  );
  if (!parsed.success) throw new EdgarUnavailableError('unexpected company_tickers.json');
  const wanted = ticker.toUpperCase().replace(/\./g, '-');
  const entry = Object.values(parsed.data).find((row) => row.ticker.toUpperCase() === wanted);
  return entry ? entry.cik_str : null;
}

async function filingIndex(
  client: EdgarClient,
  cik: number,
  request: FundamentalsRequest,
  freshness: Freshness,
): Promise<{ filings: Filing[]; notes: string[] }> {
  const body = submissionsSchema.safeParse(
    await json(client, `${secHosts.data}/submissions/CIK${paddedCik(cik)}.json`, freshness, request.signal),
  );
  if (!body.success) return { filings: [], notes: ['the SEC filing index is not available'] };
  const reach = new Date(Date.parse(request.asOfClose) - pageReachDays * 86_400_000).toISOString().slice(0, 10);
  const day = request.asOfClose.slice(0, 10);
  const wanted = body.data.filings.files.filter((page) => (page.filingFrom ?? '') <= day && pageEnd(page) >= reach);
  const filings = filingsOf(body.data.filings.recent);
  const notes: string[] = [];
  for (const page of wanted) {
    const columns = filingColumnsSchema.safeParse(
      await json(client, `${secHosts.data}/submissions/${page.name}`, freshness, request.signal),
    );
    if (columns.success) filings.push(...filingsOf(columns.data));
    else
      notes.push(
        `an older page of the SEC filing index was not available; filings on it count from their filing day's end`,
      );
  }
  return { filings, notes };
}

function pageEnd(page: { filingTo?: string | undefined }): string {
  return page.filingTo ?? '9999-12-31';
}

async function companyFacts(
  client: EdgarClient,
  cik: number,
  freshness: Freshness,
  signal?: AbortSignal,
): Promise<CompanyFacts | null> {
  const raw = await json(client, `${secHosts.data}/api/xbrl/companyfacts/CIK${paddedCik(cik)}.json`, freshness, signal);
  if (raw === null) return null;
  const parsed = companyFactsSchema.safeParse(raw);
  if (!parsed.success) throw new EdgarUnavailableError('unexpected companyfacts document');
  return parsed.data;
}

/** A US ticker SEC does not list: every part says it is not available. */
function notAFiler(request: FundamentalsRequest): Fundamentals {
  return {
    vendor: edgarVendor,
    vendorLabel: edgarLabel,
    currency: 'USD',
    quarters: [],
    years: [],
    valuation: [],
    filings: [],
    insiderFilings90d: null,
    notes: [`${request.ticker} is not in SEC's list of filers: no statements or filings`],
  };
}
