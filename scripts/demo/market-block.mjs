// Reads the MARKET DATA block an agent was sent, so the scripted desks quote exactly
// the numbers in front of them (as text, unchanged) and derive the rest from those
// same numbers. A line that no longer matches means src/market changed its block:
// the generator stops rather than write a report about numbers it did not see.
// A blind run's block (autohedge probe) reads the same, with an alias for the name,
// prices in "blind units" (the last close is 100.00) and session offsets (D-0) for dates.

/** A price as the block writes it: in USD, or in a blind run's blind units. */
const price = String.raw`\S+ (?:USD|blind units)`;
/** A named run's date, or a blind run's session offset. */
const day = String.raw`(?:\d{4}-\d{2}-\d{2}|D-\d+)`;
const line = (source) => new RegExp(source.replaceAll('PRICE', price).replaceAll('DAY', day), 'm');

const patterns = {
  header: /^MARKET DATA — (\S+) \((.+)\), as of (\d{4}-\d{2}-\d{2})$/m,
  blindHeader: /^MARKET DATA — (.+?) \(blind: [^)]*\), as of session (D-\d+)$/m,
  sector: /^Sector: ([^|\n]+?)(?: \| Industry: (.+))?$/m,
  lastPrice: line(String.raw`^Last price: (PRICE)(?: \((DAY)\))?; day change (PRICE) \((\S+ %)\)$`),
  marketCap: /^Market cap: (.+)$/m,
  pe: /^P\/E: trailing (\S+); forward (\S+)$/m,
  beta: /^Beta \(vs market\): (\S+)$/m,
  yahooRange: line(String.raw`^52-week range \([^)]+\): (PRICE) – (PRICE)$`),
  averageVolume: /^Average daily volume \(3 months\): (.+)$/m,
  dividendYield: /^Dividend yield: (.+)$/m,
  target: line(String.raw`^Analyst mean target: (PRICE) \| Recommendation: (.+)$`),
  margins: /^Profit margin: (\S+ %) \| Revenue growth \(year over year\): (\S+ %)$/m,
  debtToEquity: /^Debt\/equity: (\S+ %)/m,
  lastClose: line(String.raw`^Last close: (PRICE) \((DAY)\)$`),
  returns: /^Returns to \S+: 1 day (\S+ %), 1 week (\S+ %), 1 month (\S+ %), 3 months (\S+ %), 6 months (\S+ %), 1 year (\S+ %)$/m,
  averages: line(String.raw`^Moving averages \(\S+\): SMA20 (PRICE) \(close (\S+ %) vs it\); SMA50 (PRICE) \(close (\S+ %) vs it\); SMA200 (PRICE) \(close (\S+ %) vs it\)$`),
  rsi: /^RSI\(14\): (\S+) \(/m,
  atr: line(String.raw`^ATR\(14\): (PRICE) = (\S+ %) of close`),
  volatility: /^Volatility \(annualised, daily log returns\): 20-day (\S+ %); 1 year (\S+ %)$/m,
  drawdown: /^Max drawdown \(1 year\): (\S+ %)/m,
  highLow: line(String.raw`^High\/low of daily bars \(1 year\): high (PRICE) \(close (\S+ %) from it\); low (PRICE) \(close (\S+ %) from it\)$`),
  swing: line(String.raw`^20-session swing levels \(\S+\): support \(lowest low\) (PRICE); resistance \(highest high\) (PRICE)$`),
  volume: /^Volume: 20-day average (.+) vs 1 year average (.+) \(ratio (\S+)\)$/m,
  notes: /^DATA NOTES\n- none$/m,
};

/** "141.85 USD" or "+2.27 %" with the number it shows. */
function quoted(text) {
  return { text, value: Number.parseFloat(text.replace(/[^\d.+-]/g, '')) };
}

/** The block inside a prompt: from its title to the end of its DATA NOTES. */
export function extractBlock(prompt) {
  const start = prompt.indexOf('MARKET DATA — ');
  if (start === -1) throw new Error('scripts/demo: the prompt has no MARKET DATA block');
  const notes = prompt.indexOf('\nDATA NOTES\n', start);
  if (notes === -1) throw new Error('scripts/demo: the MARKET DATA block has no DATA NOTES');
  const end = prompt.indexOf('\n\n', notes + 1);
  return prompt.slice(start, end === -1 ? undefined : end);
}

export function readMarketBlock(prompt) {
  const block = extractBlock(prompt);
  const match = (name) => {
    const found = block.match(patterns[name]);
    if (!found) throw new Error(`scripts/demo: the MARKET DATA block has no line matching ${name} (${patterns[name]}); update scripts/demo/market-block.mjs`);
    return found;
  };
  // A blind run names an alias for both (the company and its ticker are hidden).
  const blindHeader = block.match(patterns.blindHeader);
  const [symbol, name, day] = blindHeader
    ? [blindHeader[1], blindHeader[1], blindHeader[2]]
    : match('header').slice(1, 4);
  const [, sector, industry = null] = match('sector');
  const lastPrice = match('lastPrice');
  const pe = match('pe');
  const range = match('yahooRange');
  const target = match('target');
  const margins = match('margins');
  const close = match('lastClose');
  const returns = match('returns');
  const averages = match('averages');
  const atr = match('atr');
  const volatility = match('volatility');
  const highLow = match('highLow');
  const swing = match('swing');
  const volume = match('volume');
  match('notes');
  return {
    block,
    blind: blindHeader !== null,
    /** What the block's prices are in: USD, or a blind run's blind units. */
    unit: blindHeader ? 'blind units' : 'USD',
    symbol,
    name,
    day,
    sector,
    industry,
    lastPrice: quoted(lastPrice[1]),
    dayChange: quoted(lastPrice[3]),
    dayChangePercent: quoted(lastPrice[4]),
    marketCap: match('marketCap')[1],
    trailingPE: quoted(pe[1]),
    forwardPE: quoted(pe[2]),
    beta: quoted(match('beta')[1]),
    yahooLow: quoted(range[1]),
    yahooHigh: quoted(range[2]),
    averageVolume: match('averageVolume')[1],
    dividendYield: match('dividendYield')[1],
    target: quoted(target[1]),
    recommendation: target[2],
    profitMargin: quoted(margins[1]),
    revenueGrowth: quoted(margins[2]),
    debtToEquity: quoted(match('debtToEquity')[1]),
    lastClose: quoted(close[1]),
    returns: { d1: quoted(returns[1]), w1: quoted(returns[2]), m1: quoted(returns[3]), m3: quoted(returns[4]), m6: quoted(returns[5]), y1: quoted(returns[6]) },
    sma20: quoted(averages[1]),
    vsSma20: quoted(averages[2]),
    sma50: quoted(averages[3]),
    vsSma50: quoted(averages[4]),
    sma200: quoted(averages[5]),
    vsSma200: quoted(averages[6]),
    rsi: quoted(match('rsi')[1]),
    atr: quoted(atr[1]),
    atrShare: quoted(atr[2]),
    volatility20d: quoted(volatility[1]),
    volatility1y: quoted(volatility[2]),
    drawdown: quoted(match('drawdown')[1]),
    high: quoted(highLow[1]),
    fromHigh: quoted(highLow[2]),
    low: quoted(highLow[3]),
    fromLow: quoted(highLow[4]),
    support: quoted(swing[1]),
    resistance: quoted(swing[2]),
    volume20d: volume[1],
    volume1y: volume[2],
    volumeRatio: quoted(volume[3]),
  };
}

/**
 * Every decimal number in `text` (prices, percentages, RSI, ratios) must appear
 * verbatim in the block: the check the Quant's report is held to. Whole numbers are
 * labels (SMA20, ATR(14), 1 month) and are not checked.
 */
export function numbersNotInBlock(text, block) {
  return [...text.matchAll(/[+-]?\d+\.\d+/g)].map((found) => found[0]).filter((number) => !block.includes(number));
}
