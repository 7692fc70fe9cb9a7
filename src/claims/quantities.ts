/**
 * The quantities a text can name, and the run's values they refer to. A figure right
 * after such a name ("RSI(14) at 53.6", "stop 130.43") is read as that quantity.
 */

/** What unit the quantity is in: decides which figures can be compared with it. */
export type QuantityKind = 'price' | 'percent' | 'number' | 'amount' | 'ratio';

export interface QuantityDefinition {
  id: string;
  pattern: RegExp;
  kind: QuantityKind;
  /** Source paths (see sources.ts; a derived value's formula by its start) the quantity is; the first is the one a contradiction quotes. */
  sources: readonly string[];
  /**
   * `strong`: a different number is contradicted. `soft` (support, volume…): writers name other
   * levels by the same words, so a different number is contradicted only when nothing else matches.
   */
  strength: 'strong' | 'soft';
  /** The decision's own quantities: contradicted only in the decision's text, which states them. */
  decisionOnly?: boolean;
}

const word = (source: string) => new RegExp(source, 'gi');

export const quantities: readonly QuantityDefinition[] = [
  {
    id: 'rsi',
    pattern: word(String.raw`\bRSI(?:\s*\(\s*14\s*\)|14)?(?![\w(])`),
    kind: 'number',
    sources: ['snapshot.indicators.rsi14'],
    strength: 'strong',
  },
  {
    id: 'atr',
    pattern: word(String.raw`\bATR(?:\s*\(\s*14\s*\)|14)?(?![\w(])`),
    kind: 'price',
    sources: ['snapshot.indicators.atr14'],
    strength: 'strong',
  },
  ...[20, 50, 200].map((period): QuantityDefinition => ({
    id: `sma${period}`,
    pattern: word(
      String.raw`\bSMA\s?-?${period}\b|\b${period}[- ](?:day|session)\s+(?:simple\s+)?(?:moving\s+average|SMA|MA)\b|\b${period}-?DMA\b`,
    ),
    kind: 'price',
    sources: [`snapshot.indicators.sma${period}`],
    strength: 'strong',
  })),
  ...(['High', 'Low'] as const).map((extreme): QuantityDefinition => {
    const lower = extreme.toLowerCase();
    return {
      id: `${lower}52w`,
      pattern: word(
        String.raw`\b(?:52[- ]?week|52w|one[- ]year|1[- ]year|12[- ]month|year's|year’s|yearly|annual)\s+${lower}\b|\b${lower} of the year\b`,
      ),
      kind: 'price',
      sources: [`snapshot.indicators.${lower}52w`, `snapshot.quote.fiftyTwoWeek${extreme}`],
      strength: 'strong',
    };
  }),
  {
    id: 'price',
    pattern: word(
      String.raw`\b(?:last|latest|closing|current|share|stock)\s+(?:close|price)\b|\bclosed\s+at\b|\bclose\b|\bprice\b|\btrades\s+at\b|\btrading\s+at\b|\bpriced\s+at\b`,
    ),
    kind: 'price',
    sources: ['snapshot.indicators.lastClose', 'snapshot.quote.price'],
    strength: 'strong',
  },
  {
    id: 'support',
    pattern: word(String.raw`\bsupport\b`),
    kind: 'price',
    sources: ['snapshot.indicators.support'],
    strength: 'soft',
  },
  {
    id: 'resistance',
    pattern: word(String.raw`\bresistance\b`),
    kind: 'price',
    sources: ['snapshot.indicators.resistance'],
    strength: 'soft',
  },
  {
    id: 'beta',
    pattern: word(String.raw`\bbeta\b`),
    kind: 'number',
    sources: ['snapshot.quote.beta'],
    strength: 'strong',
  },
  {
    id: 'forwardPE',
    pattern: word(String.raw`\bforward\s+(?:P\/?E|price[- ]to[- ]earnings)(?:\s+ratio)?(?![\w/])`),
    kind: 'number',
    sources: ['snapshot.quote.forwardPE'],
    strength: 'strong',
  },
  {
    id: 'pe',
    pattern: word(String.raw`\b(?:trailing\s+)?(?:P\/E|PE|price[- ]to[- ]earnings)(?:\s+ratio)?(?![\w/])`),
    kind: 'number',
    sources: ['snapshot.quote.trailingPE', 'snapshot.quote.forwardPE'],
    strength: 'strong',
  },
  {
    id: 'marketCap',
    pattern: word(String.raw`\bmarket\s+cap(?:itali[sz]ation)?\b`),
    kind: 'amount',
    sources: ['snapshot.quote.marketCap'],
    strength: 'strong',
  },
  {
    id: 'volatility',
    pattern: word(
      String.raw`\b(?:(?:20|1|one)[- ](?:day|year|session)\s+)?(?:annuali[sz]ed\s+)?(?:historical\s+|realised\s+|realized\s+)?volatility\b`,
    ),
    kind: 'percent',
    sources: ['snapshot.indicators.volatility1y', 'snapshot.indicators.volatility20d'],
    strength: 'strong',
  },
  {
    id: 'drawdown',
    pattern: word(String.raw`\b(?:max(?:imum)?\s+)?drawdown\b`),
    kind: 'percent',
    sources: ['snapshot.indicators.maxDrawdown1y'],
    strength: 'strong',
  },
  {
    id: 'dividendYield',
    pattern: word(String.raw`\bdividend\s+yield\b`),
    kind: 'percent',
    sources: ['snapshot.quote.dividendYield'],
    strength: 'strong',
  },
  {
    id: 'debtToEquity',
    pattern: word(String.raw`\bdebt[/ -](?:to[- ])?equity\b|\bD\/E\b`),
    kind: 'percent',
    sources: ['snapshot.quote.debtToEquity'],
    strength: 'strong',
  },
  {
    id: 'profitMargin',
    pattern: word(String.raw`\b(?:net|profit)\s+margin\b`),
    kind: 'percent',
    sources: ['snapshot.quote.profitMargin'],
    strength: 'soft',
  },
  {
    id: 'revenueGrowth',
    pattern: word(String.raw`\brevenue\s+growth\b`),
    kind: 'percent',
    sources: ['snapshot.quote.revenueGrowth'],
    strength: 'soft',
  },
  {
    id: 'analystTarget',
    pattern: word(String.raw`\b(?:analysts?'?|consensus|mean|street)\s+(?:mean\s+|price\s+)?target(?:\s+price)?\b`),
    kind: 'price',
    sources: ['snapshot.quote.targetMeanPrice'],
    strength: 'strong',
  },
  {
    id: 'volume',
    pattern: word(String.raw`\b(?:average\s+(?:daily\s+)?)?volume\b`),
    kind: 'amount',
    sources: [
      'snapshot.quote.averageVolume',
      'snapshot.indicators.averageVolume20d',
      'snapshot.indicators.averageVolume1y',
    ],
    strength: 'soft',
  },
  {
    id: 'entry',
    pattern: word(
      String.raw`\bentry(?:\s+price)?\b|\b(?:buy|sell)\s+limit\b|\blimit(?:\s+(?:buy|sell))?(?:\s+order)?\b|\benter\b`,
    ),
    kind: 'price',
    sources: ['decision.entry'],
    strength: 'strong',
    decisionOnly: true,
  },
  {
    id: 'stop',
    pattern: word(String.raw`\b(?:protective\s+|reference\s+)?stop(?:[- ]loss)?\b`),
    kind: 'price',
    sources: ['decision.stopLoss'],
    strength: 'strong',
    decisionOnly: true,
  },
  {
    id: 'target',
    pattern: word(String.raw`\btake[- ]profit\b|\b(?:profit\s+|price\s+)?target\b`),
    kind: 'price',
    sources: ['decision.takeProfit'],
    strength: 'strong',
    decisionOnly: true,
  },
  {
    id: 'rewardRisk',
    pattern: word(
      String.raw`\breward[- ]to[- ]risk(?:\s+ratio)?\b|\breward\s?\/\s?risk\b|\brisk[- \/](?:to[- ])?reward(?:\s+ratio)?\b|\bR:R\b|\bR\/R\b`,
    ),
    kind: 'ratio',
    sources: ['(takeProfit − '],
    strength: 'strong',
    decisionOnly: true,
  },
  {
    id: 'positionSize',
    pattern: word(String.raw`\bposition\s+size\b|\bsize\b|\bsized\s+at\b`),
    kind: 'percent',
    sources: ['decision.positionSizePct'],
    strength: 'strong',
    decisionOnly: true,
  },
  {
    id: 'conviction',
    pattern: word(String.raw`\bconviction\b`),
    kind: 'number',
    sources: ['decision.conviction'],
    strength: 'strong',
    decisionOnly: true,
  },
];

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
    for (const match of text.matchAll(quantity.pattern)) {
      found.push({ quantity, text: match[0], start: match.index, end: match.index + match[0].length });
    }
  }
  found.sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  const kept: QuantityMention[] = [];
  for (const mention of found) {
    if (kept.every((other) => mention.end <= other.start || mention.start >= other.end)) kept.push(mention);
  }
  return kept.sort((a, b) => a.start - b.start);
}

/**
 * What may stand between a quantity's name and its figure: "RSI(14) at 53.6", "the close
 * of 141.85", "stop is 130.43". No digit, comma or comparison ("below", "above") — those
 * mean the figure is something else.
 */
const connector =
  /^(?:[\s:=~≈()]|\b(?:is|was|are|were|of|at|near|around|about|approximately|roughly|stands|stood|sits|sat|reads|reading|currently|now|the|its|a|an|level|value|has|been|came|comes|in|set|placed|put|on|to|just|only|still|remains|remained|holds|held|printed|prints)\b)*$/i;

/**
 * A name after a comparison, with the figure in parentheses after it, is a reference point: in
 * "1.5 × ATR below entry ($132.71)" the figure is the stop, not the entry ("below support 132.02"
 * still names support's value).
 */
const reference = /\b(?:below|above|under|over|from|than|beyond|through|past|to)\s+(?:the\s+|its\s+|a\s+|an\s+)?$/i;

/** The quantity a figure starting at `start` is the value of, if its name stands right before it. */
export function quantityBefore(
  text: string,
  start: number,
  mentions: readonly QuantityMention[],
): QuantityMention | null {
  for (let index = mentions.length - 1; index >= 0; index -= 1) {
    const mention = mentions[index]!;
    if (mention.end > start) continue;
    const gap = text.slice(mention.end, start);
    if (gap.length > 40 || !connector.test(gap)) return null;
    const parenthetical = gap.includes('(');
    return parenthetical && reference.test(text.slice(Math.max(0, mention.start - 16), mention.start)) ? null : mention;
  }
  return null;
}
