/**
 * The quantities a text can name, as a table: each with its synonyms and the run's values it
 * refers to. A figure bound to one ("RSI(14) at 53.6", "stop 130.43", "18 % revenue growth")
 * is checked against that quantity only (see bind.ts for how words bind a figure).
 */

/** What unit the quantity is in: decides which figures can be compared with it. */
export type QuantityKind = 'price' | 'percent' | 'number' | 'amount' | 'ratio';

export interface QuantityDefinition {
  id: string;
  /** How a finding names it ("SMA200", "20-day volatility"). */
  label: string;
  kind: QuantityKind;
  /** Regular-expression sources of its names; matched as whole words, case-insensitive. */
  synonyms: readonly string[];
  /**
   * Source paths or keys (sources.ts, derived.ts; a formula by its start when it ends in a
   * space) the quantity is; the first present is the one a contradiction quotes.
   */
  sources: readonly string[];
  /**
   * `strong`: a different number is contradicted. `soft` (support, volume…): writers name other
   * levels by the same words, so a different number is contradicted only when nothing else matches.
   */
  strength: 'strong' | 'soft';
  /** The decision's own quantities: contradicted only in the decision's text, which states them. */
  decisionOnly?: boolean;
  /** A general name ("volatility", "return") made specific by a period the words give after the figure. */
  periods?: Partial<Record<PeriodWord, string>>;
  /** A price level a distance can be measured from ("3.2 % below the 52-week high"). */
  level?: boolean;
  /** A figure of a fundamentals period: bound to the period the text names, else the latest. */
  periodic?: boolean;
}

/** The periods words give after a figure ("over 20 days", "(1 year)", "over the past month"). */
export type PeriodWord = 'day' | 'week' | 'month' | 'quarter' | 'half' | 'year';

const sma = (period: number): QuantityDefinition => ({
  id: `sma${period}`,
  label: `SMA${period}`,
  kind: 'price',
  synonyms: [
    String.raw`SMA\s?-?\(?${period}\)?`,
    String.raw`MA\s?${period}`,
    String.raw`${period}[- ]?DMA`,
    String.raw`${period}d\s?(?:S?MA|moving\s+average|average)`,
    String.raw`${period}[- ](?:day|session|period)\s+(?:simple\s+)?(?:moving\s+)?(?:average|SMA|MA|line|mean)`,
    ...(period === 20
      ? []
      : [String.raw`${period}[- ]day(?!\s+(?:\w+\s+)?(?:volatility|returns?|high|low|range|volume|window|change))`]),
  ],
  sources: [`snapshot.indicators.sma${period}`],
  strength: 'strong',
  level: true,
});

const extreme = (side: 'High' | 'Low'): QuantityDefinition => {
  const word = side.toLowerCase();
  const peak = side === 'High' ? 'high|peak|top' : 'low|trough|bottom';
  return {
    id: `${word}52w`,
    label: `52-week ${word}`,
    kind: 'price',
    synonyms: [
      String.raw`(?:52[- ]?week|52w|one[- ]year|1[- ]?year|12[- ]month|twelve[- ]month|year's|year’s|yearly|annual)\s+(?:${peak})`,
      String.raw`(?:${peak}) of the (?:past\s+)?year`,
    ],
    sources: [`snapshot.indicators.${word}52w`, `snapshot.quote.fiftyTwoWeek${side}`],
    strength: 'strong',
    level: true,
  };
};

/** A return over one period. */
const returnOver = (id: string, label: string, period: string, sources: readonly string[]): QuantityDefinition => ({
  id,
  label,
  kind: 'percent',
  synonyms: [
    String.raw`(?:${period})\s+(?:total\s+|price\s+|share[- ]price\s+|stock\s+)?(?:returns?|performance|gain|loss|change|move)`,
  ],
  sources,
  strength: 'strong',
});

/** A fundamentals line item and its growth: names in regular-expression source. */
const concepts: ReadonlyArray<[id: string, label: string, kind: QuantityKind, names: string]> = [
  ['revenue', 'revenue', 'amount', String.raw`(?:total\s+|net\s+)?revenues?|(?:net\s+)?sales|top[- ]line|turnover`],
  ['grossProfit', 'gross profit', 'amount', String.raw`gross\s+profit`],
  ['operatingIncome', 'operating income', 'amount', String.raw`operating\s+(?:income|profit)|EBIT`],
  ['netIncome', 'net income', 'amount', String.raw`net\s+(?:income|profit|earnings)`],
  ['epsDiluted', 'diluted EPS', 'price', String.raw`(?:diluted\s+)?EPS|(?:diluted\s+)?earnings\s+per\s+share`],
  [
    'operatingCashFlow',
    'operating cash flow',
    'amount',
    String.raw`operating\s+cash\s+flows?|cash\s+from\s+operations|cash\s+flow\s+from\s+operations`,
  ],
  ['capex', 'capital expenditure', 'amount', String.raw`capex|capital\s+(?:expenditures?|spending)`],
  ['freeCashFlow', 'free cash flow', 'amount', String.raw`free\s+cash\s+flows?|FCF`],
  ['cash', 'cash', 'amount', String.raw`cash(?:\s+and\s+(?:cash\s+)?equivalents)?(?:\s+(?:balance|pile|position))?`],
  ['totalDebt', 'total debt', 'amount', String.raw`(?:total\s+)?debt(?![/-])`],
  ['totalAssets', 'total assets', 'amount', String.raw`total\s+assets`],
  ['equity', "shareholders' equity", 'amount', String.raw`(?:share|stock)holders['’]?\s+equity|book\s+value`],
  [
    'sharesDiluted',
    'diluted shares',
    'amount',
    String.raw`diluted\s+shares(?:\s+outstanding)?|share\s+count|shares\s+outstanding`,
  ],
];

const growthVerbs = String.raw`(?:growth|grew|rose|increased|expanded|climbed|jumped|advanced|gained|was\s+up|were\s+up|is\s+up|are\s+up|up|fell|declined|decreased|shrank|dropped|slipped|contracted|was\s+down|were\s+down|down)`;

const fundamentals: QuantityDefinition[] = concepts.flatMap(([id, label, kind, names]): QuantityDefinition[] => [
  {
    id,
    label,
    kind,
    synonyms: [names],
    sources: [`fundamentals.${id}`],
    strength: id === 'cash' || id === 'totalDebt' ? 'soft' : 'strong',
    periodic: true,
  },
  {
    id: `${id}Growth`,
    label: `${label} growth`,
    kind: 'percent',
    synonyms: [String.raw`(?:${names})\s+${growthVerbs}(?:\s+by)?`],
    sources: [`fundamentals.${id}.growth`, ...(id === 'revenue' ? ['snapshot.quote.revenueGrowth'] : [])],
    strength: 'strong',
    periodic: true,
  },
]);

const margin = (id: string, label: string, names: string, extra: readonly string[] = []): QuantityDefinition => ({
  id,
  label,
  kind: 'percent',
  synonyms: [String.raw`(?:${names})\s+margins?`],
  sources: [`fundamentals.${id}`, ...extra],
  strength: 'strong',
  periodic: true,
});

/**
 * The close's distance from a level as the snapshot has it: named so a figure that equals it
 * (a drawdown quoted as the gap to the 52-week high) is named as what it is.
 */
const distanceFrom = (id: string, label: string, level: string, field: string): QuantityDefinition => ({
  id: `distanceFrom${field}`,
  label: `distance from ${label}`,
  kind: 'percent',
  synonyms: [String.raw`(?:distance|gap)\s+(?:from|to)\s+(?:the\s+|its\s+)?(?:${level})`],
  sources: [`snapshot.indicators.distanceFrom${field}`],
  strength: 'strong',
});

/** The binding table: every quantity the checker knows and the words that name it. */
export const quantities: readonly QuantityDefinition[] = [
  {
    id: 'rsi',
    label: 'RSI(14)',
    kind: 'number',
    synonyms: [
      String.raw`RSI(?:\s*\(\s*14\s*\)|14|\s14(?=\s+(?:reads?|reading|is|was|at|sits|stands|prints|of|=|:)\s*[+\-]?\d)|-14)?(?![\w(])`,
      String.raw`(?:14[- ]day\s+)?relative\s+strength(?:\s+index)?(?:\s+\(RSI\))?`,
      String.raw`14[- ]day\s+RSI`,
    ],
    sources: ['snapshot.indicators.rsi14'],
    strength: 'strong',
  },
  {
    id: 'atr',
    label: 'ATR(14)',
    kind: 'price',
    synonyms: [
      String.raw`ATR(?:\s*\(\s*14\s*\)|14|\s14(?=\s+(?:reads?|reading|is|was|at|sits|stands|prints|of|=|:)\s*[+\-]?\d))?(?![\w(])`,
      String.raw`(?:14[- ]day\s+)?average\s+true\s+range(?:\s+\(ATR\))?`,
      String.raw`14[- ]day\s+ATR`,
    ],
    sources: ['snapshot.indicators.atr14'],
    strength: 'strong',
  },
  sma(20),
  sma(50),
  sma(200),
  extreme('High'),
  extreme('Low'),
  {
    id: 'price',
    label: 'last close',
    kind: 'price',
    synonyms: [
      String.raw`(?:last|latest|closing|current|share|stock|last\s+traded)\s+(?:close|price)`,
      String.raw`closed\s+at`,
      String.raw`close(?!\s+(?:to|in|by|of\s+business)\b)(?!-)`,
      String.raw`price(?![- ]to)`,
      String.raw`(?:trades|trading|traded|priced|changing\s+hands|quoted)\s+at`,
      String.raw`spot`,
    ],
    sources: ['snapshot.indicators.lastClose', 'snapshot.quote.price'],
    strength: 'strong',
    level: true,
  },
  {
    id: 'support',
    label: 'support',
    kind: 'price',
    synonyms: [String.raw`support(?:\s+level)?|swing\s+low|floor`],
    sources: ['snapshot.indicators.support'],
    strength: 'soft',
    level: true,
  },
  {
    id: 'resistance',
    label: 'resistance',
    kind: 'price',
    synonyms: [String.raw`resistance(?:\s+level)?|swing\s+high|ceiling`],
    sources: ['snapshot.indicators.resistance'],
    strength: 'soft',
    level: true,
  },
  {
    id: 'beta',
    label: 'beta',
    kind: 'number',
    synonyms: [String.raw`beta`],
    sources: ['snapshot.quote.beta'],
    strength: 'strong',
  },
  {
    id: 'forwardPE',
    label: 'forward P/E',
    kind: 'number',
    synonyms: [
      String.raw`forward\s+(?:P\/?E|price[- ]to[- ]earnings|price\/earnings|earnings\s+multiple|multiple)(?:\s+ratio)?(?![\w/])`,
      String.raw`(?:x|×|times)\s+forward\s+earnings`,
    ],
    sources: ['snapshot.quote.forwardPE'],
    strength: 'strong',
  },
  {
    id: 'pe',
    label: 'trailing P/E',
    kind: 'number',
    synonyms: [
      String.raw`(?:trailing\s+|TTM\s+)?(?:P\/E|PE|price[- ]to[- ]earnings|price\/earnings|earnings\s+multiple)(?:\s+ratio)?(?![\w/])`,
    ],
    sources: ['snapshot.quote.trailingPE', 'fundamentals.valuation.peTrailing', 'snapshot.quote.forwardPE'],
    strength: 'strong',
  },
  {
    id: 'priceToSales',
    label: 'price/sales',
    kind: 'number',
    synonyms: [String.raw`P\/S|price[- ]to[- ]sales|price\/sales|sales\s+multiple`],
    sources: ['fundamentals.valuation.priceToSales'],
    strength: 'strong',
  },
  {
    id: 'priceToBook',
    label: 'price/book',
    kind: 'number',
    synonyms: [String.raw`P\/B|price[- ]to[- ]book|price\/book`],
    sources: ['fundamentals.valuation.priceToBook'],
    strength: 'strong',
  },
  {
    id: 'fcfYield',
    label: 'free-cash-flow yield',
    kind: 'percent',
    synonyms: [String.raw`(?:FCF|free[- ]cash[- ]flow)\s+yield`],
    sources: ['fundamentals.valuation.fcfYield'],
    strength: 'strong',
  },
  {
    id: 'marketCap',
    label: 'market cap',
    kind: 'amount',
    synonyms: [String.raw`market\s+(?:cap(?:itali[sz]ation)?|value)|valued\s+at`],
    sources: ['snapshot.quote.marketCap', 'fundamentals.valuation.marketCap'],
    strength: 'strong',
  },
  {
    id: 'volatility20d',
    label: '20-day volatility',
    kind: 'percent',
    synonyms: [
      String.raw`(?:20|twenty|21)[- ](?:day|session|trading[- ]day)\s+(?:annuali[sz]ed\s+)?(?:historical\s+|realised\s+|realized\s+)?vol(?:atility)?`,
      String.raw`(?:20|21)d\s?(?:annuali[sz]ed\s+)?(?:realised\s+|realized\s+)?vol(?:atility)?`,
      String.raw`(?:1|one)[- ]month\s+(?:annuali[sz]ed\s+)?(?:historical\s+|realised\s+|realized\s+)?vol(?:atility)?`,
      String.raw`short[- ]term\s+(?:realised\s+|realized\s+)?volatility`,
    ],
    sources: ['snapshot.indicators.volatility20d'],
    strength: 'strong',
  },
  {
    id: 'volatility1y',
    label: '1-year volatility',
    kind: 'percent',
    synonyms: [
      String.raw`(?:1|one)[- ]year\s+(?:annuali[sz]ed\s+)?(?:historical\s+|realised\s+|realized\s+)?vol(?:atility)?`,
      String.raw`(?:12|twelve)[- ]month\s+(?:annuali[sz]ed\s+)?(?:historical\s+|realised\s+|realized\s+)?vol(?:atility)?`,
      String.raw`(?:252|250)[- ]day\s+(?:annuali[sz]ed\s+)?vol(?:atility)?`,
      String.raw`(?:1y|12m|252d)\s?(?:annuali[sz]ed\s+)?(?:realised\s+|realized\s+)?vol(?:atility)?`,
      String.raw`(?:yearly|annual|long[- ]term)\s+(?:realised\s+|realized\s+)?volatility`,
    ],
    sources: ['snapshot.indicators.volatility1y'],
    strength: 'strong',
  },
  {
    id: 'volatility',
    label: 'volatility',
    kind: 'percent',
    synonyms: [String.raw`(?:annuali[sz]ed\s+)?(?:historical\s+|realised\s+|realized\s+)?vol(?:atility)?`],
    sources: ['snapshot.indicators.volatility1y', 'snapshot.indicators.volatility20d'],
    strength: 'strong',
    periods: { month: 'volatility20d', year: 'volatility1y' },
  },
  {
    id: 'drawdown',
    label: 'maximum drawdown',
    kind: 'percent',
    synonyms: [
      String.raw`(?:max(?:imum)?\s+|deepest\s+|largest\s+|worst\s+)?(?:drawdown|peak[- ]to[- ]trough(?:\s+(?:decline|fall|drop))?)`,
    ],
    sources: ['snapshot.indicators.maxDrawdown1y'],
    strength: 'strong',
  },
  distanceFrom('high52w', 'the 52-week high', String.raw`52[- ]week\s+high`, 'High52w'),
  distanceFrom('low52w', 'the 52-week low', String.raw`52[- ]week\s+low`, 'Low52w'),
  distanceFrom('sma20', 'the SMA20', String.raw`SMA\s?20|20[- ]day\s+(?:moving\s+)?average`, 'Sma20'),
  distanceFrom('sma50', 'the SMA50', String.raw`SMA\s?50|50[- ]day\s+(?:moving\s+)?average`, 'Sma50'),
  distanceFrom('sma200', 'the SMA200', String.raw`SMA\s?200|200[- ]day\s+(?:moving\s+)?average`, 'Sma200'),
  returnOver('return1d', '1-day return', String.raw`(?:1|one)[- ]day|daily|day's|day’s|today's|today’s|session's`, [
    'snapshot.indicators.returns.d1',
    'snapshot.quote.changePercent',
  ]),
  returnOver('return1w', '1-week return', String.raw`(?:1|one)[- ]week|weekly|5[- ]day|five[- ]day|week's|week’s`, [
    'snapshot.indicators.returns.w1',
  ]),
  returnOver('return1m', '1-month return', String.raw`(?:1|one)[- ]month|monthly|month's|month’s|(?:21|30)[- ]day`, [
    'snapshot.indicators.returns.m1',
  ]),
  returnOver('return3m', '3-month return', String.raw`(?:3|three)[- ]month|quarterly|(?:63|90)[- ]day`, [
    'snapshot.indicators.returns.m3',
  ]),
  returnOver('return6m', '6-month return', String.raw`(?:6|six)[- ]month|half[- ]year`, [
    'snapshot.indicators.returns.m6',
  ]),
  returnOver(
    'return1y',
    '1-year return',
    String.raw`(?:1|one)[- ]year|12[- ]month|twelve[- ]month|annual|yearly|trailing[- ]year`,
    ['snapshot.indicators.returns.y1'],
  ),
  {
    id: 'return',
    label: 'return',
    kind: 'percent',
    synonyms: [
      String.raw`(?:total\s+|price\s+|share[- ]price\s+)?(?:returns?|performance)`,
      String.raw`(?:the\s+)?(?:stock|shares|it)\s+(?:is|are|was|were|has|have)?\s*(?:up|down|gained|lost|rose|fell|climbed|dropped|rallied|declined|added|shed|returned)`,
      String.raw`(?:has|have)\s+(?:gained|lost|rallied|risen|fallen|climbed|dropped|added|shed|returned)`,
    ],
    sources: [],
    strength: 'strong',
    periods: {
      day: 'return1d',
      week: 'return1w',
      month: 'return1m',
      quarter: 'return3m',
      half: 'return6m',
      year: 'return1y',
    },
  },
  {
    id: 'dayChange',
    label: 'day change',
    kind: 'percent',
    synonyms: [String.raw`(?:day|daily|session)\s+(?:change|move)|on\s+the\s+day`],
    sources: ['snapshot.quote.changePercent', 'snapshot.indicators.returns.d1'],
    strength: 'strong',
  },
  {
    id: 'dividendYield',
    label: 'dividend yield',
    kind: 'percent',
    synonyms: [String.raw`dividend\s+yield`],
    sources: ['snapshot.quote.dividendYield'],
    strength: 'strong',
  },
  {
    id: 'debtToEquity',
    label: 'debt/equity',
    kind: 'percent',
    synonyms: [String.raw`debt[/ -](?:to[- ])?equity(?:\s+ratio)?|D\/E|leverage\s+ratio`],
    sources: ['snapshot.quote.debtToEquity'],
    strength: 'strong',
  },
  margin('grossMargin', 'gross margin', String.raw`gross`),
  margin('operatingMargin', 'operating margin', String.raw`operating|EBIT`),
  margin('netMargin', 'net margin', String.raw`net|profit|net\s+profit`, ['snapshot.quote.profitMargin']),
  margin('fcfMargin', 'free-cash-flow margin', String.raw`FCF|free[- ]cash[- ]flow`),
  ...fundamentals,
  {
    id: 'analystTarget',
    label: 'analyst mean target',
    kind: 'price',
    synonyms: [
      String.raw`(?:analysts?['’]?|consensus|mean|street|sell[- ]side|average)\s+(?:mean\s+|price\s+|analyst\s+)?target(?:\s+price)?`,
    ],
    sources: ['snapshot.quote.targetMeanPrice'],
    strength: 'strong',
    level: true,
  },
  {
    id: 'volumeRatio',
    label: 'volume ratio',
    kind: 'ratio',
    synonyms: [String.raw`(?:volume\s+ratio|relative\s+volume|RVOL)`],
    sources: ['snapshot.indicators.volumeRatio'],
    strength: 'strong',
  },
  {
    id: 'volume',
    label: 'average volume',
    kind: 'amount',
    synonyms: [
      String.raw`(?:(?:20|twenty)[- ]day\s+|(?:3|three)[- ]month\s+|1[- ]year\s+)?(?:average\s+(?:daily\s+)?)?(?:trading\s+)?volume`,
    ],
    sources: [
      'snapshot.quote.averageVolume',
      'snapshot.indicators.averageVolume20d',
      'snapshot.indicators.averageVolume1y',
    ],
    strength: 'soft',
  },
  {
    id: 'entry',
    label: 'entry',
    kind: 'price',
    synonyms: [
      String.raw`entry(?:\s+(?:price|level|point|limit))?|(?:buy|sell)\s+limit|limit(?:\s+(?:buy|sell))?(?:\s+(?:order|price))?|enter|(?:buy|bid|sell)\s+at`,
    ],
    sources: ['decision.entry'],
    strength: 'strong',
    decisionOnly: true,
    level: true,
  },
  {
    id: 'stop',
    label: 'stop-loss',
    kind: 'price',
    synonyms: [
      String.raw`(?:protective\s+|reference\s+|hard\s+|initial\s+)?stop(?:[- ]loss)?(?:\s+(?:level|order|price))?|stopped\s+out`,
    ],
    sources: ['decision.stopLoss'],
    strength: 'strong',
    decisionOnly: true,
    level: true,
  },
  {
    id: 'target',
    label: 'take-profit',
    kind: 'price',
    synonyms: [String.raw`take[- ]profit|(?:profit\s+|upside\s+|exit\s+|first\s+|price\s+)?target|objective`],
    sources: ['decision.takeProfit'],
    strength: 'strong',
    decisionOnly: true,
    level: true,
  },
  {
    id: 'rewardRisk',
    label: 'reward/risk',
    kind: 'ratio',
    synonyms: [
      String.raw`reward[- ]to[- ]risk(?:\s+ratio)?|reward\s?\/\s?risk(?:\s+ratio)?|risk[- \/](?:to[- ])?reward(?:\s+ratio)?|R:R|R\/R|payoff\s+ratio`,
    ],
    sources: ['(takeProfit − '],
    strength: 'strong',
    decisionOnly: true,
  },
  {
    id: 'riskPerTrade',
    label: 'risk per trade',
    kind: 'percent',
    synonyms: [
      String.raw`risk\s+per\s+trade|portfolio\s+risk|risking|(?:loss|lose)\s+at\s+the\s+stop|(?:max(?:imum)?\s+)?loss\s+if\s+stopped(?:\s+out)?|capital\s+at\s+risk|risk\s+budget\s+used`,
    ],
    sources: ['riskPerTrade'],
    strength: 'strong',
    decisionOnly: true,
  },
  {
    id: 'riskPerShare',
    label: 'risk per share',
    kind: 'price',
    synonyms: [String.raw`risk\s+per\s+share|stop\s+distance|distance\s+to\s+(?:the\s+)?stop`],
    sources: ['riskPerShare'],
    strength: 'strong',
    decisionOnly: true,
  },
  {
    id: 'positionSize',
    label: 'position size',
    kind: 'percent',
    synonyms: [String.raw`position(?:\s+size)?|size|sized\s+at|allocation|weight(?:ing)?`],
    sources: ['decision.positionSizePct'],
    strength: 'strong',
    decisionOnly: true,
  },
  {
    id: 'conviction',
    label: 'conviction',
    kind: 'number',
    synonyms: [String.raw`conviction(?:\s+score)?`],
    sources: ['decision.conviction'],
    strength: 'strong',
    decisionOnly: true,
  },
];

export const quantityById: ReadonlyMap<string, QuantityDefinition> = new Map(
  quantities.map((quantity) => [quantity.id, quantity]),
);

export interface QuantityMention {
  quantity: QuantityDefinition;
  text: string;
  start: number;
  end: number;
}

/** Every named quantity in a text; where two overlap, the longer (the more specific) wins. */
export function findQuantities(text: string): QuantityMention[] {
  const found: QuantityMention[] = [];
  for (const quantity of quantities) {
    for (const match of text.matchAll(patternOf(quantity))) {
      // Not inside a word or a ratio's name ("EV/EBITDA", "P/E" of "EV/P/E"): checked here, cheaper than a lookbehind.
      if (match[0].length > 0 && !/[\w/]/.test(text[match.index - 1] ?? ''))
        found.push({ quantity, text: match[0], start: match.index, end: match.index + match[0].length });
    }
  }
  found.sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  const kept: QuantityMention[] = [];
  const taken = new Uint8Array(text.length);
  for (const mention of found) {
    let free = true;
    for (let at = mention.start; at < mention.end && free; at += 1) free = taken[at] === 0;
    if (!free) continue;
    taken.fill(1, mention.start, mention.end);
    kept.push(mention);
  }
  return kept.sort((a, b) => a.start - b.start);
}

const patterns = new Map<string, RegExp>();

/** A quantity's names as one case-insensitive, whole-word pattern. */
export function patternOf(quantity: QuantityDefinition): RegExp {
  let pattern = patterns.get(quantity.id);
  if (!pattern) {
    pattern = new RegExp(String.raw`\b(?:${quantity.synonyms.join('|')})(?![\w])`, 'gi');
    patterns.set(quantity.id, pattern);
  }
  return pattern;
}
