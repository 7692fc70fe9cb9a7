// Synthetic Yahoo Finance for the fictional demo companies: a deterministic year of
// daily bars, a v7 quote, a v10 quoteSummary and the cookie + crumb handshake,
// answered in Yahoo's own shapes at Yahoo's own URLs so yahoo-finance2 runs
// unmodified against them (see network.mjs for how requests get here).
/* global Response, Headers */
import { benchmarks, companyFor, companies } from './companies.mjs';

/** NYSE holidays between the first and the last demo session. */
const holidays = new Set([
  '2025-06-19', '2025-07-04', '2025-09-01', '2025-11-27', '2025-12-25', '2026-01-01', '2026-01-19',
  '2026-02-16', '2026-04-03', '2026-05-25', '2026-06-19', '2026-07-03', '2026-09-07', '2026-11-26',
  '2026-12-25', '2027-01-01', '2027-01-18', '2027-02-15',
]);
/** Sessions that close at 13:00 New York time. */
const halfDays = new Set(['2025-11-28', '2025-12-24', '2026-11-27']);

const dayMs = 86_400_000;

/** Seconds east of UTC in New York on a day: EDT between the DST switches, else EST. */
function newYorkOffset(day) {
  const summer = (day >= '2025-03-09' && day < '2025-11-02') || (day >= '2026-03-08' && day < '2026-11-01');
  return summer ? -4 * 3600 : -5 * 3600;
}

function sessionsBetween(first, last) {
  const days = [];
  for (let time = Date.parse(`${first}T00:00:00Z`); time <= Date.parse(`${last}T00:00:00Z`); time += dayMs) {
    const day = new Date(time).toISOString().slice(0, 10);
    const weekday = new Date(time).getUTCDay();
    if (weekday !== 0 && weekday !== 6 && !holidays.has(day)) days.push(day);
  }
  return days;
}

/** mulberry32: a small seeded generator, so every run draws the same numbers. */
function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function normalFrom(random) {
  return () => {
    const u = Math.max(random(), 1e-12);
    const v = random();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  };
}

const cents = (value) => Math.round(value * 100) / 100;

/**
 * Daily bars over `days`: a random walk in log price, bent linearly within each stretch
 * between two anchors so it passes exactly through them (a Brownian bridge per stretch).
 */
function bridgedBars(company, days, anchors, seed) {
  const normal = normalFrom(seededRandom(seed));
  const walk = [0];
  for (let index = 1; index < days.length; index += 1) walk.push(walk[index - 1] + company.dailyVolatility * normal());

  const anchorIndex = anchors.map(([day, price]) => {
    const index = days.indexOf(day);
    if (index === -1) throw new Error(`scripts/demo: anchor ${day} of ${company.symbol} is not a trading session`);
    return { index, logPrice: Math.log(price) };
  });
  const logClose = new Array(days.length);
  for (let stretch = 0; stretch < anchorIndex.length - 1; stretch += 1) {
    const from = anchorIndex[stretch];
    const to = anchorIndex[stretch + 1];
    const miss = walk[to.index] - walk[from.index] - (to.logPrice - from.logPrice);
    for (let index = from.index; index <= to.index; index += 1) {
      const progress = (index - from.index) / (to.index - from.index);
      logClose[index] = from.logPrice + (walk[index] - walk[from.index]) - progress * miss;
    }
  }

  return days.map((day, index) => {
    const close = cents(Math.exp(logClose[index]));
    const previous = index === 0 ? close : cents(Math.exp(logClose[index - 1]));
    const open = cents(previous * Math.exp(0.35 * company.dailyVolatility * normal()));
    const reach = () => Math.abs(normal()) * 0.55 * company.dailyVolatility;
    const high = cents(Math.max(open, close) * (1 + reach()));
    const low = cents(Math.min(open, close) * (1 - reach()));
    const move = Math.abs(Math.log(close / previous)) / company.dailyVolatility;
    const shortSession = halfDays.has(day) ? 0.45 : 1;
    const volume = Math.round((company.baseVolume * Math.exp(0.25 * normal()) * (1 + 0.35 * move) * shortSession) / 100) * 100;
    const offset = newYorkOffset(day);
    const opening = Date.parse(`${day}T09:30:00Z`) / 1000 - offset;
    const closing = Date.parse(`${day}T${halfDays.has(day) ? '13' : '16'}:00:00Z`) / 1000 - offset;
    return { day, opening, closing, open, high, low, close, volume };
  });
}

/**
 * The bars up to the demo day, and with `through` after it the invented path that follows
 * (`company.after`, from its own seed, so the bars up to the demo day never change).
 */
export function barsFor(symbol, through) {
  const company = companyFor(symbol);
  const history = bridgedBars(company, sessionsBetween(company.anchors[0][0], company.anchors.at(-1)[0]), company.anchors, company.seed);
  const demoDay = history.at(-1);
  if (!through || through <= demoDay.day || !company.after) return history;
  const anchors = [[demoDay.day, demoDay.close], ...company.after];
  const days = sessionsBetween(demoDay.day, company.after.at(-1)[0]);
  const future = bridgedBars(company, days, anchors, company.seed + 1).slice(1);
  return [...history, ...future.filter((bar) => bar.day <= through)];
}

function yearOf(bars, lastDay) {
  const start = new Date(Date.parse(`${lastDay}T00:00:00Z`) - 365 * dayMs).toISOString().slice(0, 10);
  return bars.filter((bar) => bar.day > start && bar.day <= lastDay);
}

/** Every figure Yahoo would quote on the last day, derived from the bars and the company's fundamentals. */
function quoteFigures(symbol, through) {
  const company = companyFor(symbol);
  const bars = barsFor(symbol, through);
  const last = bars[bars.length - 1];
  const previous = bars[bars.length - 2];
  const year = yearOf(bars, last.day);
  const change = cents(last.close - previous.close);
  const recent = bars.slice(-63);
  return {
    company,
    last,
    previous,
    price: last.close,
    change,
    changePercent: Math.round((change / previous.close) * 1e6) / 1e4,
    fiftyTwoWeekHigh: Math.max(...year.map((bar) => bar.high)),
    fiftyTwoWeekLow: Math.min(...year.map((bar) => bar.low)),
    averageVolume: Math.round(recent.reduce((sum, bar) => sum + bar.volume, 0) / recent.length),
    marketCap: Math.round(last.close * company.sharesOutstanding),
    trailingPE: Math.round((last.close / company.epsTrailing) * 100) / 100,
    forwardPE: Math.round((last.close / company.epsForward) * 100) / 100,
    dividendYield: company.dividendRate === null ? null : Math.round((company.dividendRate / last.close) * 1e4) / 1e4,
  };
}

function chartBody(symbol, period1, period2, through) {
  const figures = quoteFigures(symbol, through);
  const { company, last } = figures;
  const served = barsFor(symbol, through).filter((bar) => bar.opening >= period1 && bar.opening <= period2);
  const offset = newYorkOffset(last.day);
  const zone = offset === -5 * 3600 ? 'EST' : 'EDT';
  const period = (start, end) => ({ timezone: zone, start, end, gmtoffset: offset });
  const meta = {
    currency: 'USD',
    symbol,
    exchangeName: company.exchange,
    fullExchangeName: company.fullExchangeName,
    instrumentType: 'EQUITY',
    firstTradeDate: 1_199_284_200,
    regularMarketTime: last.closing,
    hasPrePostMarketData: true,
    gmtoffset: offset,
    timezone: zone,
    exchangeTimezoneName: 'America/New_York',
    regularMarketPrice: last.close,
    fiftyTwoWeekHigh: figures.fiftyTwoWeekHigh,
    fiftyTwoWeekLow: figures.fiftyTwoWeekLow,
    regularMarketDayHigh: last.high,
    regularMarketDayLow: last.low,
    regularMarketVolume: last.volume,
    longName: company.longName,
    shortName: company.shortName,
    chartPreviousClose: served.length > 1 ? served[0].close : last.close,
    priceHint: 2,
    currentTradingPeriod: {
      pre: period(last.opening - 5.5 * 3600, last.opening),
      regular: period(last.opening, last.closing),
      post: period(last.closing, last.closing + 4 * 3600),
    },
    dataGranularity: '1d',
    range: '',
    validRanges: ['1d', '5d', '1mo', '3mo', '6mo', '1y', '2y', '5y', '10y', 'ytd', 'max'],
  };
  const quote = {
    open: served.map((bar) => bar.open),
    high: served.map((bar) => bar.high),
    low: served.map((bar) => bar.low),
    close: served.map((bar) => bar.close),
    volume: served.map((bar) => bar.volume),
  };
  return {
    chart: {
      result: [{ meta, timestamp: served.map((bar) => bar.opening), indicators: { quote: [quote], adjclose: [{ adjclose: quote.close }] } }],
      error: null,
    },
  };
}

function quoteBody(symbol) {
  const figures = quoteFigures(symbol);
  const { company, last, previous } = figures;
  return {
    quoteResponse: {
      result: [
        {
          language: 'en-US',
          region: 'US',
          quoteType: 'EQUITY',
          typeDisp: 'Equity',
          quoteSourceName: company.quoteSourceName,
          triggerable: true,
          customPriceAlertConfidence: 'HIGH',
          currency: 'USD',
          marketState: 'CLOSED',
          tradeable: false,
          cryptoTradeable: false,
          exchange: company.exchange,
          fullExchangeName: company.fullExchangeName,
          exchangeTimezoneName: 'America/New_York',
          exchangeTimezoneShortName: 'EST',
          gmtOffSetMilliseconds: -18_000_000,
          market: 'us_market',
          esgPopulated: false,
          hasPrePostMarketData: true,
          firstTradeDateMilliseconds: 1_199_284_200_000,
          priceHint: 2,
          sourceInterval: 15,
          exchangeDataDelayedBy: 0,
          shortName: company.shortName,
          longName: company.longName,
          symbol,
          regularMarketPrice: figures.price,
          regularMarketTime: last.closing,
          regularMarketChange: figures.change,
          regularMarketChangePercent: figures.changePercent,
          regularMarketPreviousClose: previous.close,
          regularMarketOpen: last.open,
          regularMarketDayHigh: last.high,
          regularMarketDayLow: last.low,
          regularMarketVolume: last.volume,
          marketCap: figures.marketCap,
          sharesOutstanding: company.sharesOutstanding,
          trailingPE: figures.trailingPE,
          forwardPE: figures.forwardPE,
          epsTrailingTwelveMonths: company.epsTrailing,
          epsForward: company.epsForward,
          fiftyTwoWeekHigh: figures.fiftyTwoWeekHigh,
          fiftyTwoWeekLow: figures.fiftyTwoWeekLow,
          averageDailyVolume3Month: figures.averageVolume,
          ...(figures.dividendYield === null
            ? {}
            : { dividendYield: Math.round(figures.dividendYield * 1e4) / 100, trailingAnnualDividendRate: company.dividendRate }),
          averageAnalystRating: `${company.recommendationMean.toFixed(1)} - ${company.recommendationKey === 'buy' ? 'Buy' : 'Hold'}`,
        },
      ],
      error: null,
    },
  };
}

const summaryModules = {
  price: (figures, symbol) => ({
    maxAge: 1,
    priceHint: 2,
    quoteType: 'EQUITY',
    symbol,
    underlyingSymbol: null,
    shortName: figures.company.shortName,
    longName: figures.company.longName,
    lastMarket: null,
    fromCurrency: null,
    currency: 'USD',
    currencySymbol: '$',
    exchange: figures.company.exchange,
    exchangeName: figures.company.fullExchangeName,
    marketState: 'CLOSED',
    regularMarketPrice: figures.price,
    regularMarketTime: figures.last.closing,
    regularMarketChange: figures.change,
    regularMarketChangePercent: Math.round((figures.changePercent / 100) * 1e6) / 1e6,
    marketCap: figures.marketCap,
  }),
  summaryDetail: (figures) => ({
    maxAge: 1,
    priceHint: 2,
    currency: 'USD',
    algorithm: null,
    tradeable: false,
    fromCurrency: null,
    lastMarket: null,
    previousClose: figures.previous.close,
    open: figures.last.open,
    dayLow: figures.last.low,
    dayHigh: figures.last.high,
    beta: figures.company.beta,
    trailingPE: figures.trailingPE,
    forwardPE: figures.forwardPE,
    ...(figures.dividendYield === null ? {} : { dividendRate: figures.company.dividendRate, dividendYield: figures.dividendYield }),
    volume: figures.last.volume,
    averageVolume: figures.averageVolume,
    marketCap: figures.marketCap,
    fiftyTwoWeekHigh: figures.fiftyTwoWeekHigh,
    fiftyTwoWeekLow: figures.fiftyTwoWeekLow,
  }),
  defaultKeyStatistics: (figures) => ({
    maxAge: 1,
    priceHint: 2,
    category: null,
    fundFamily: null,
    legalType: null,
    lastSplitFactor: null,
    beta: figures.company.beta,
    forwardPE: figures.forwardPE,
    profitMargins: figures.company.profitMargins,
    sharesOutstanding: figures.company.sharesOutstanding,
    trailingEps: figures.company.epsTrailing,
    forwardEps: figures.company.epsForward,
  }),
  financialData: (figures) => ({
    maxAge: 86400,
    financialCurrency: 'USD',
    currentPrice: figures.price,
    targetMeanPrice: figures.company.targetMeanPrice,
    recommendationKey: figures.company.recommendationKey,
    recommendationMean: figures.company.recommendationMean,
    numberOfAnalystOpinions: figures.company.analysts,
    profitMargins: figures.company.profitMargins,
    revenueGrowth: figures.company.revenueGrowth,
    debtToEquity: figures.company.debtToEquity,
  }),
  assetProfile: (figures) => ({
    maxAge: 86400,
    companyOfficers: [],
    longBusinessSummary: `${figures.company.longName} is a fictional company invented for autohedge's synthetic demo data.`,
    sector: figures.company.sector,
    sectorDisp: figures.company.sector,
    industry: figures.company.industry,
    industryDisp: figures.company.industry,
  }),
};

function quoteSummaryBody(symbol, modules) {
  const figures = quoteFigures(symbol);
  const result = {};
  for (const name of modules) if (summaryModules[name]) result[name] = summaryModules[name](figures, symbol);
  return { quoteSummary: { result: [result], error: null } };
}

const json = (body, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json;charset=utf-8' } });

const notFound = (key, description) => json({ [key]: { result: null, error: { code: 'Not Found', description } } }, 404);

/**
 * Answers a request to Yahoo's hosts like Yahoo would, for the fictional symbols.
 * The cookie page sets `cookie`; getcrumb needs it and returns `crumb`; quote and
 * quoteSummary need both (401 otherwise), as on the real service. With `through` (a day
 * after the demo day) the charts run on to it, and the synthetic benchmark is served
 * too: the market of the demo evaluation.
 */
export function createYahooHandler({ cookie, crumb, through }) {
  const sessionCookie = `A3=${cookie}`;
  return async (request) => {
    const url = new URL(request.url);
    const hasCookie = (request.headers.get('cookie') ?? '').includes(sessionCookie);
    if (url.hostname === 'finance.yahoo.com') {
      const headers = new Headers({ 'content-type': 'text/html; charset=utf-8' });
      headers.append('set-cookie', `${sessionCookie}; Max-Age=31557600; Domain=.yahoo.com; Path=/; SameSite=None; Secure; HttpOnly`);
      return new Response('<!doctype html><title>Yahoo Finance (synthetic demo page)</title>', { status: 200, headers });
    }
    if (url.pathname === '/v1/test/getcrumb') {
      if (!hasCookie) return new Response('Unauthorized', { status: 401, headers: { 'content-type': 'text/plain;charset=utf-8' } });
      return new Response(crumb, { status: 200, headers: { 'content-type': 'text/plain;charset=utf-8' } });
    }
    const needsSession = url.pathname === '/v7/finance/quote' || url.pathname.startsWith('/v10/finance/quoteSummary/');
    if (needsSession && (!hasCookie || url.searchParams.get('crumb') !== crumb)) {
      return json({ finance: { result: null, error: { code: 'Unauthorized', description: 'Invalid Crumb' } } }, 401);
    }
    if (url.pathname === '/v7/finance/quote') {
      const symbol = url.searchParams.get('symbols') ?? '';
      if (!(symbol in companies)) return json({ quoteResponse: { result: [], error: null } });
      return json(quoteBody(symbol));
    }
    const summary = url.pathname.match(/^\/v10\/finance\/quoteSummary\/([^/]+)$/);
    if (summary) {
      const symbol = decodeURIComponent(summary[1]);
      if (!(symbol in companies)) return notFound('quoteSummary', 'Quote not found for symbol: ' + symbol);
      return json(quoteSummaryBody(symbol, (url.searchParams.get('modules') ?? '').split(',')));
    }
    const chart = url.pathname.match(/^\/v8\/finance\/chart\/([^/]+)$/);
    if (chart) {
      const symbol = decodeURIComponent(chart[1]);
      const known = symbol in companies || (through !== undefined && symbol in benchmarks);
      if (!known) return notFound('chart', 'No data found, symbol may be delisted');
      return json(chartBody(symbol, Number(url.searchParams.get('period1') ?? 0), Number(url.searchParams.get('period2') ?? Infinity), through));
    }
    return notFound('finance', `no synthetic route for ${url.pathname}`);
  };
}

export const yahooHosts = ['finance.yahoo.com', 'query1.finance.yahoo.com', 'query2.finance.yahoo.com'];
