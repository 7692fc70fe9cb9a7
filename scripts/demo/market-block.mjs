// Reads the MARKET DATA block an agent was sent, so the scripted desks quote exactly
// the numbers in front of them (as text, unchanged) and derive the rest from those
// same numbers. A line that no longer matches means src/market changed its block:
// the generator stops rather than write a report about numbers it did not see.

const patterns = {
  header: /^MARKET DATA — (\S+) \((.+)\), as of (\d{4}-\d{2}-\d{2})$/m,
  sector: /^Sector: (.+) \| Industry: (.+)$/m,
  lastPrice: /^Last price: (\S+ USD) \((\d{4}-\d{2}-\d{2})\); day change (\S+ USD) \((\S+ %)\)$/m,
  marketCap: /^Market cap: (.+)$/m,
  pe: /^P\/E: trailing (\S+); forward (\S+)$/m,
  beta: /^Beta \(vs market\): (\S+)$/m,
  yahooRange: /^52-week range \([^)]+\): (\S+ USD) – (\S+ USD)$/m,
  averageVolume: /^Average daily volume \(3 months\): (.+)$/m,
  dividendYield: /^Dividend yield: (.+)$/m,
  target: /^Analyst mean target: (\S+ USD) \| Recommendation: (.+)$/m,
  margins: /^Profit margin: (\S+ %) \| Revenue growth \(year over year\): (\S+ %)$/m,
  debtToEquity: /^Debt\/equity: (\S+ %)/m,
  lastClose: /^Last close: (\S+ USD) \((\d{4}-\d{2}-\d{2})\)$/m,
  returns: /^Returns to \S+: 1 day (\S+ %), 1 week (\S+ %), 1 month (\S+ %), 3 months (\S+ %), 6 months (\S+ %), 1 year (\S+ %)$/m,
  averages: /^Moving averages \(\S+\): SMA20 (\S+ USD) \(close (\S+ %) vs it\); SMA50 (\S+ USD) \(close (\S+ %) vs it\); SMA200 (\S+ USD) \(close (\S+ %) vs it\)$/m,
  rsi: /^RSI\(14\): (\S+) \(/m,
  atr: /^ATR\(14\): (\S+ USD) = (\S+ %) of close/m,
  volatility: /^Volatility \(annualised, daily log returns\): 20-day (\S+ %); 1 year (\S+ %)$/m,
  drawdown: /^Max drawdown \(1 year\): (\S+ %)/m,
  highLow: /^High\/low of daily bars \(1 year\): high (\S+ USD) \(close (\S+ %) from it\); low (\S+ USD) \(close (\S+ %) from it\)$/m,
  swing: /^20-session swing levels \(\S+\): support \(lowest low\) (\S+ USD); resistance \(highest high\) (\S+ USD)$/m,
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
  const [, symbol, name, day] = match('header');
  const [, sector, industry] = match('sector');
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
