// The scripted analysts of the demo. Each answer is written from the request the
// agent really sent: the MARKET DATA block in its prompt (numbers quoted verbatim,
// levels derived from them) and, for Sentiment, the search results it was given.
// Every text says it is synthetic; the companies are fictional.
/* global Response */
import { companyFor } from './companies.mjs';
import { numbersNotInBlock, readMarketBlock } from './market-block.mjs';

const disclaimer = 'Synthetic demo report on a fictional company: scripted text, not investment advice.';

const round2 = (value) => Math.round(value * 100) / 100;
/** A price in the block's own unit: USD, or a blind run's blind units. */
const money = (market, value) => `${value.toFixed(2)} ${market.unit}`;

/**
 * What a Sentiment report without a news search says first (`--search none`, a blind run:
 * `autohedge probe`), and what tells the Director that no news was read.
 */
const noNewsMarker = 'no news search in this run';

/** Levels the Execution desk proposes and the Director adopts, from the block's numbers. */
export function tradePlan(market, stance) {
  const close = market.lastClose.value;
  const atr = market.atr.value;
  const stopDistancePct = ((2 * atr) / close) * 100;
  // Risk budget: 0.35 % of the portfolio lost if a 2 × ATR stop is hit.
  const maximumSizePct = Math.min(10, Math.floor((0.35 / stopDistancePct) * 1000) / 10);
  if (stance === 'buy') {
    const entry = round2(close - 0.5 * atr);
    const stop = round2(entry - 2 * atr);
    const target = round2(entry + 3.5 * atr);
    return { stance, entry, stop, target, rewardRisk: (target - entry) / (entry - stop), stopDistancePct, maximumSizePct, sizePct: Math.min(4, maximumSizePct) };
  }
  const support = market.support.value;
  const stop = round2(support - 0.5 * atr);
  const target = market.resistance.value;
  return { stance, entry: support, stop, target, rewardRisk: (target - support) / (support - stop), stopDistancePct, maximumSizePct, sizePct: 0 };
}

function aboveCount(market) {
  return [market.vsSma20, market.vsSma50, market.vsSma200].filter((distance) => distance.value > 0).length;
}

function scores(market) {
  const clamp = (value) => Math.min(0.95, Math.max(0.05, value));
  const trend = [0.2, 0.4, 0.6, 0.8][aboveCount(market)];
  const momentum = clamp((market.rsi.value - 30) / 40);
  const volatility = clamp(1 - market.volatility1y.value / 60);
  const overall = 0.45 * trend + 0.3 * momentum + 0.25 * volatility;
  return { trend, momentum, volatility, overall };
}

function trendSentence(market) {
  const count = aboveCount(market);
  if (count === 3) return 'The close is above all three averages: the primary trend is up.';
  if (count === 0) return 'The close is below all three averages: the trend is down.';
  const above = [['SMA20', market.vsSma20], ['SMA50', market.vsSma50], ['SMA200', market.vsSma200]]
    .filter(([, distance]) => distance.value > 0)
    .map(([name]) => name);
  return `The close is above ${above.join(' and ')} only: the trend is mixed.`;
}

function momentumSentence(market) {
  const rsi = market.rsi.value;
  if (rsi > 70) return 'overbought; a pause would not surprise.';
  if (rsi < 30) return 'oversold; selling may be exhausted.';
  if (rsi >= 55) return 'positive momentum without being stretched.';
  if (rsi >= 45) return 'neutral momentum, no edge either way.';
  return 'soft momentum, sellers still in control.';
}

export function quantReport(market) {
  const score = scores(market);
  const calmer = market.volatility20d.value < market.volatility1y.value;
  const text = [
    disclaimer,
    '',
    'TREND',
    `Last close ${market.lastClose.text} against SMA20 ${market.sma20.text} (close ${market.vsSma20.text} vs it), SMA50 ${market.sma50.text} (${market.vsSma50.text}) and SMA200 ${market.sma200.text} (${market.vsSma200.text}). ${trendSentence(market)}`,
    `Returns: 1 week ${market.returns.w1.text}, 1 month ${market.returns.m1.text}, 3 months ${market.returns.m3.text}, 6 months ${market.returns.m6.text}, 1 year ${market.returns.y1.text}.`,
    '',
    'MOMENTUM',
    `RSI(14) ${market.rsi.text}: ${momentumSentence(market)}`,
    '',
    'VOLATILITY',
    `ATR(14) ${market.atr.text}, ${market.atrShare.text} of the close. Annualised volatility is ${market.volatility20d.text} over 20 days against ${market.volatility1y.text} over the year (${calmer ? 'calmer lately' : 'livelier lately'}); the deepest drawdown of the year was ${market.drawdown.text}.`,
    '',
    'KEY LEVELS',
    `Support ${market.support.text} and resistance ${market.resistance.text} (20-session swing). The year's high is ${market.high.text} (close ${market.fromHigh.text} from it) and its low ${market.low.text} (close ${market.fromLow.text} from it).`,
    '',
    'SCORES (0 to 1)',
    `Trend ${score.trend.toFixed(2)}: ${aboveCount(market)} of 3 moving averages below the close.`,
    `Momentum ${score.momentum.toFixed(2)}: from RSI(14).`,
    `Volatility ${score.volatility.toFixed(2)}: 1 = calm; from 1-year volatility.`,
    `Overall technical ${score.overall.toFixed(2)}.`,
  ].join('\n');
  const stray = numbersNotInBlock(text.slice(0, text.indexOf('SCORES (0 to 1)')), market.block);
  if (stray.length > 0) throw new Error(`scripts/demo: the Quant would quote numbers not in its MARKET DATA block: ${stray.join(', ')}`);
  return text;
}

function riskScore(market) {
  const value = 0.15 + market.volatility1y.value / 100 + Math.abs(market.drawdown.value) / 200 + Math.max(0, market.beta.value - 1) * 0.2;
  return Math.min(0.95, value);
}

export function riskReport(market, plan) {
  const score = riskScore(market);
  const richer = market.trailingPE.value > 25;
  const sizing =
    plan.stance === 'buy'
      ? `We suggest ${plan.sizePct} % to leave room for gaps around news.`
      : 'For a new position we suggest none until the trend turns; existing holders stay within that maximum.';
  return [
    disclaimer,
    '',
    'VOLATILITY AND DRAWDOWN',
    `ATR(14) ${market.atr.text} = ${market.atrShare.text} of the close; annualised volatility ${market.volatility20d.text} (20-day) and ${market.volatility1y.text} (1 year); maximum drawdown over the year ${market.drawdown.text}; beta ${market.beta.text}.`,
    '',
    'POSITION SIZE',
    `A stop 2 × ATR from entry sits about ${plan.stopDistancePct.toFixed(2)} % away. Risking 0.35 % of the portfolio on that stop allows at most ${plan.maximumSizePct} % of the portfolio${plan.maximumSizePct === 10 ? ' (capped at the 10 % single-name limit)' : ''}. ${sizing}`,
    '',
    'EXPOSURE',
    `${market.industry ? `${market.sector} / ${market.industry}` : market.sector}; with beta ${market.beta.text} the position ${market.beta.value > 1 ? 'amplifies' : 'dampens'} market moves. Liquidity is ample: ${market.averageVolume} a day on average. Valuation: trailing P/E ${market.trailingPE.text}, forward ${market.forwardPE.text}${richer ? ', rich enough that a miss would be punished' : ', undemanding'}; debt/equity ${market.debtToEquity.text}.`,
    '',
    'RISK SCORE',
    `${score.toFixed(2)} (0 low, 1 high), driven by 1-year volatility of ${market.volatility1y.text}, the ${market.drawdown.text} drawdown and ${richer ? 'the valuation' : `leverage (debt/equity ${market.debtToEquity.text})`}.`,
  ].join('\n');
}

export function executionReport(market, plan) {
  const lines = [disclaimer, ''];
  if (plan.stance === 'buy') {
    lines.push(
      'ORDER',
      `Limit buy at ${money(market, plan.entry)}, half an ATR below the last close of ${market.lastClose.text}, for ${plan.sizePct} % of the portfolio.`,
      '',
      'LEVELS',
      `Stop-loss ${money(market, plan.stop)} (2 × ATR below entry, ${plan.stop < market.support.value ? 'under' : 'above'} support ${market.support.text}); take-profit ${money(market, plan.target)} (3.5 × ATR above entry, ${plan.target > market.resistance.value ? 'beyond' : 'short of'} resistance ${market.resistance.text}). Reward-to-risk ${plan.rewardRisk.toFixed(2)}.`,
      '',
      'TIME IN FORCE',
      `GTC for five sessions. Scale in: half at the limit, half on a daily close above resistance ${market.resistance.text}; take half off at the target and trail the rest by 2 × ATR.`,
      '',
      'INVALIDATION',
      `A daily close below support ${market.support.text}, or no fill within five sessions.`,
    );
  } else {
    lines.push(
      'ORDER',
      `No new order: the setup does not pay for its risk yet. Existing holders: protective stop at ${money(market, plan.stop)}, half an ATR below support ${market.support.text}.`,
      '',
      'IF IT TURNS',
      `A limit buy at support ${market.support.text} only after a daily close back above SMA50 ${market.sma50.text}; stop ${money(market, plan.stop)}, target resistance ${market.resistance.text}, reward-to-risk ${plan.rewardRisk.toFixed(2)}.`,
      '',
      'TIME IN FORCE',
      'Day orders only while the trend is mixed; re-assess weekly.',
      '',
      'INVALIDATION',
      `A daily close below ${money(market, plan.stop)} ends the case for holding.`,
    );
  }
  return lines.join('\n');
}

const sentimentViews = {
  buy: {
    score: 0.68,
    verdict: 'mostly positive: a results beat and a record contract outweigh margin and regulatory worries',
    themes: ['Demand for warehouse automation, shown by the third-quarter beat and the Initech Stores contract.', 'Cost of growth: the new plant may hold margins flat for a quarter.', 'Regulation: an EU safety review of the CB-7 collaborative arm.'],
    implications: 'News flow supports the technical uptrend; the margin and EU items are the likely sources of a gap down, so size for them.',
    contrarian: 'Coverage is almost uniformly upbeat after the beat; crowded optimism into a margin-soft quarter is the risk.',
  },
  hold: {
    score: 0.44,
    verdict: 'slightly negative: soft freight volumes and rates, offset by a steady dividend',
    themes: ['Soft freight demand: volumes down and spot rates slipping.', 'Capital discipline: the dividend is kept and the network expands from cash flow.', 'Management change: a new CFO with an unchanged capital-return policy.'],
    implications: 'Nothing in the news argues for adding before volumes stabilise; the dividend limits the downside case.',
    contrarian: 'Pessimism on freight is widespread; a rate floor during peak season could surprise positively.',
  },
};

/** Whether the request offers Sentiment its search tool (`--search none` and a blind run do not). */
function offersSearch(body) {
  return (body.tools ?? []).some((tool) => tool.function?.name === 'exa_search');
}

/** The JSON array inside the exa_search result block. */
function searchResults(toolMessage) {
  const lines = toolMessage.split('\n');
  const body = lines.find((line) => line.startsWith('['));
  if (!body) throw new Error('scripts/demo: the exa_search result holds no results');
  return JSON.parse(body);
}

export function sentimentReport(company, toolMessage) {
  const results = searchResults(toolMessage);
  const view = sentimentViews[company.stance];
  return [
    'Synthetic demo report on a fictional company: the articles cited are invented, on example domains.',
    '',
    'SENTIMENT SCORE',
    `${view.score.toFixed(2)} (0 very negative, 1 very positive): ${view.verdict}.`,
    '',
    'MAIN THEMES',
    ...view.themes.map((theme) => `- ${theme}`),
    '',
    'CRITICAL EVENTS',
    ...results.map((result) => `- ${(result.publishedDate ?? 'undated').slice(0, 10)}: ${result.title}`),
    '',
    'TRADING IMPLICATIONS',
    view.implications,
    '',
    'CONTRARIAN SIGNALS',
    view.contrarian,
    '',
    'SOURCES',
    ...results.map((result, index) => `${index + 1}. ${result.title} — ${result.url}`),
  ].join('\n');
}

/** The company as the prompt names it: its name and ticker, or a blind run's alias alone. */
function who(market) {
  return market.blind ? market.name : `${market.name} (${market.symbol})`;
}

/** Sentiment with no search tool (`--search none`, a blind run): what the market data alone says, as its prompt asks. */
export function sentimentWithoutNews(market, company) {
  const score = company.stance === 'buy' ? 0.6 : 0.45;
  return [
    `Synthetic demo report on a fictional company: ${noNewsMarker}, so this rests on the market data alone.`,
    '',
    'SENTIMENT SCORE',
    `${score.toFixed(2)} (0 very negative, 1 very positive): read from the price action only, ${company.stance === 'buy' ? 'a market that is buying the recovery' : 'a market that is waiting'}.`,
    '',
    'WHAT THE DATA SHOWS',
    `- Returns: 1 month ${market.returns.m1.text}, 3 months ${market.returns.m3.text}, 1 year ${market.returns.y1.text}.`,
    `- Momentum: RSI(14) ${market.rsi.text}.`,
    `- The close is ${market.fromHigh.text} from the year's high.`,
    '',
    'TRADING IMPLICATIONS',
    'With no news read, an event the data does not show can move the price: size for a gap.',
    '',
    'CONTRARIAN SIGNALS',
    'None that the price action alone can show.',
  ].join('\n');
}

export function plan(market, company) {
  const buy = company.stance === 'buy';
  const thesis = buy
    ? `${who(market)} is a fictional company in autohedge's synthetic demo. It closed at ${market.lastClose.text}, above its SMA200 of ${market.sma200.text}, after a ${market.drawdown.text} drawdown earlier in the year, with RSI(14) at ${market.rsi.text}. A recovery toward resistance at ${market.resistance.text} with volatility contained would make it a buy; a close below support at ${market.support.text} would argue for waiting. Sentiment after the third-quarter results is the swing factor.`
    : `${who(market)} is a fictional company in autohedge's synthetic demo. It closed at ${market.lastClose.text}, ${market.vsSma200.value < 0 ? 'below' : 'above'} its SMA200 of ${market.sma200.text}, inside a year-long range between ${market.low.text} and ${market.high.text}. A close above resistance at ${market.resistance.text} on firmer freight news would make it a buy; a break of support at ${market.support.text} a sell. Otherwise the dividend makes it a hold.`;
  return {
    thesis,
    briefs: {
      quant: `Is the trend intact? Judge the close of ${market.lastClose.text} against SMA20, SMA50 and SMA200, RSI(14) at ${market.rsi.text}, and the distance from the year's high of ${market.high.text}; score trend, momentum and volatility from 0 to 1.`,
      risk: `Size a position from ATR(14) of ${market.atr.text} and 1-year volatility of ${market.volatility1y.text}: stop distance, maximum size as a share of the portfolio, and a risk score. Comment on valuation at a trailing P/E of ${market.trailingPE.text}.`,
      execution: `Propose an order: entry relative to the last close of ${market.lastClose.text} and ATR, a stop and a target using support ${market.support.text} and resistance ${market.resistance.text}; give reward-to-risk and time in force.`,
      sentiment: market.blind
        ? 'No news can be searched in a blind run: read the mood from the market data alone (returns, volume, distance from the high) and score the sentiment.'
        : `Search the last 30 days of news on ${market.name}: results, guidance, contracts, management and regulation. Score the sentiment and cite every source.`,
    },
  };
}

export function decision(market, company, newsRead = true) {
  const trade = tradePlan(market, company.stance);
  const view = sentimentViews[company.stance];
  if (!newsRead) return decisionWithoutNews(market, company, trade);
  if (company.stance === 'buy') {
    return {
      action: 'BUY',
      conviction: 64,
      timeHorizon: '4–8 weeks',
      positionSizePct: trade.sizePct,
      orderType: 'limit',
      entry: trade.entry,
      stopLoss: trade.stop,
      takeProfit: trade.target,
      rationale: `Synthetic demo decision on a fictional company, not advice. The close of ${market.lastClose.text} is above SMA50 and SMA200 with RSI(14) at ${market.rsi.text}, and news sentiment scores ${view.score.toFixed(2)} after the results beat. Execution's limit at ${money(market, trade.entry)} with a stop at ${money(market, trade.stop)} and a target of ${money(market, trade.target)} gives reward-to-risk ${trade.rewardRisk.toFixed(2)}. Risk allows up to ${trade.maximumSizePct} % on a 2 × ATR stop; ${trade.sizePct} % keeps room for a gap on the EU review or margins.`,
      keyRisks: [
        'Start-up costs at the new plant may hold margins flat next quarter',
        'EU safety review could delay the CB-7 launch',
        `1-year volatility of ${market.volatility1y.text} and a ${market.drawdown.text} drawdown this year`,
        `A daily close below support at ${market.support.text} invalidates the setup`,
      ],
      dissent: `Risk would allow up to ${trade.maximumSizePct} %, while Sentiment warns that upbeat coverage is crowded; the position is sized between them.`,
    };
  }
  return {
    action: 'HOLD',
    conviction: 55,
    timeHorizon: '2–6 weeks',
    positionSizePct: 0,
    orderType: 'market',
    entry: null,
    stopLoss: trade.stop,
    takeProfit: null,
    rationale: `Synthetic demo decision on a fictional company, not advice. The close of ${market.lastClose.text} sits ${market.vsSma50.value < 0 ? 'below' : 'above'} SMA50 and ${market.vsSma200.value < 0 ? 'below' : 'above'} SMA200 with RSI(14) at ${market.rsi.text}, and news sentiment scores ${view.score.toFixed(2)} on soft freight volumes. Nothing argues for adding; the dividend argues against selling. Existing holders keep a reference stop at ${money(market, trade.stop)}, half an ATR below support at ${market.support.text}.`,
    keyRisks: ['Freight volumes and spot rates keep falling', `Leverage: debt/equity of ${market.debtToEquity.text}`, `A break of support at ${market.support.text}`],
    dissent: 'Sentiment sees a contrarian case in widespread freight pessimism; Quant and Risk see no edge yet.',
  };
}

/** The decision when Sentiment read no news (`--search none`, a blind run): the same call, argued from the data alone. */
function decisionWithoutNews(market, company, trade) {
  const base = decision(market, company);
  const levels = company.stance === 'buy' ? `Execution's limit at ${money(market, trade.entry)} with a stop at ${money(market, trade.stop)} and a target of ${money(market, trade.target)} gives reward-to-risk ${trade.rewardRisk.toFixed(2)}. ` : `Existing holders keep a reference stop at ${money(market, trade.stop)}. `;
  return {
    ...base,
    rationale: `Synthetic demo decision on a fictional company, not advice. No news was read in this run: the call rests on the market data alone. The close of ${market.lastClose.text} against SMA50 ${market.sma50.text} and SMA200 ${market.sma200.text}, with RSI(14) at ${market.rsi.text}. ${levels}Risk allows up to ${trade.maximumSizePct} % on a 2 × ATR stop.`,
    keyRisks: [`1-year volatility of ${market.volatility1y.text} and a ${market.drawdown.text} drawdown this year`, `A daily close below support at ${market.support.text}`, 'No news was read: an event the data does not show can gap the price'],
    dissent: 'Sentiment read the price action only; the desks agree on the levels, not on how much the missing news matters.',
  };
}

// ---- the wire -------------------------------------------------------------------------

const created = Math.floor(Date.parse('2026-11-27T18:00:00Z') / 1000);

function pieces(text, size = 110) {
  const parts = [];
  let current = '';
  for (const word of text.split(/(?<=\s)/)) {
    if (current.length + word.length > size && current !== '') {
      parts.push(current);
      current = '';
    }
    current += word;
  }
  if (current !== '') parts.push(current);
  return parts;
}

/** An OpenAI chat completion stream, shaped like the real one (role, deltas, finish, usage, [DONE]). */
export function completionStream({ id, model, text, toolCall, promptTokens }) {
  const base = { id, object: 'chat.completion.chunk', created, model, service_tier: 'default', system_fingerprint: 'fp_demo' };
  const chunk = (delta, finishReason = null) => ({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }], usage: null });
  const chunks = [chunk({ role: 'assistant', content: toolCall ? null : '', refusal: null })];
  let completionCharacters = 0;
  if (text) {
    for (const piece of pieces(text)) chunks.push(chunk({ content: piece }));
    completionCharacters += text.length;
  }
  if (toolCall) {
    chunks.push(chunk({ tool_calls: [{ index: 0, id: toolCall.id, type: 'function', function: { name: toolCall.name, arguments: '' } }] }));
    for (const piece of pieces(toolCall.arguments, 24)) chunks.push(chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] }));
    completionCharacters += toolCall.arguments.length;
  }
  chunks.push(chunk({}, toolCall ? 'tool_calls' : 'stop'));
  const completionTokens = Math.ceil(completionCharacters / 4) + 2;
  chunks.push({
    ...base,
    choices: [],
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    },
  });
  return `${chunks.map((item) => `data: ${JSON.stringify(item)}\n\n`).join('')}data: [DONE]\n\n`;
}

/** The prompt's text holding the MARKET DATA block: the task (legacy layout) or the shared start of the system message. */
function userPrompt(body) {
  const texts = body.messages.filter((message) => message.role === 'system' || message.role === 'user').map((message) => (typeof message.content === 'string' ? message.content : ''));
  const withBlock = texts.find((text) => text.includes('MARKET DATA — '));
  if (!withBlock) throw new Error('scripts/demo: a request without the MARKET DATA block');
  return withBlock;
}

/** The structured answer asked for: a response_format's name, or the forced submit tool of the cacheable layout's shared head. */
function schemaOf(body) {
  const forced = body.tool_choice?.function?.name;
  if (typeof forced === 'string' && forced.startsWith('submit_')) return { name: forced.slice('submit_'.length), tool: forced };
  return { name: body.response_format?.json_schema?.name, tool: null };
}

/** A ticker (or a blind run's alias, "Company A") as a piece of an id: `acme`, `company-a`. */
function slug(symbol) {
  return symbol.toLowerCase().replace(/[^a-z0-9]+/g, '-');
}

/** A JSON answer as the request wants it: text, or the forced tool's call. */
function structured(body, value, symbol) {
  const { name, tool } = schemaOf(body);
  const json = JSON.stringify(value);
  return tool ? { toolCall: { id: `call_demo_${slug(symbol)}_${name}`, name: tool, arguments: json } } : { text: json };
}

/**
 * What the scripted model says to one chat request: `{ text }` or `{ toolCall }`.
 * Routed by the sending agent (the x-autohedge-agent header) and, for the Director,
 * by the structured output it asks for.
 */
export function answerFor(agent, body, blindCompany = null) {
  const market = readMarketBlock(userPrompt(body));
  const company = market.blind ? blindCompanyOf(blindCompany) : companyFor(market.symbol);
  const trade = tradePlan(market, company.stance);
  switch (agent) {
    case 'director': {
      const schema = schemaOf(body).name;
      if (schema === 'plan') return structured(body, plan(market, company), market.symbol);
      if (schema === 'decision') {
        // A review pass means the scripted decision broke a guardrail rule: the demo's
        // scenarios are meant to need none, so say which rules rather than record one.
        const last = body.messages.at(-1);
        if (body.messages.length > 2 && (last?.role === 'user' || last?.role === 'tool')) {
          throw new Error(`scripts/demo: the Director was asked to review its ${market.symbol} decision, which breaks a guardrail rule:\n${last.content}`);
        }
        const newsRead = !body.messages.some((message) => typeof message.content === 'string' && message.content.includes(noNewsMarker));
        return structured(body, decision(market, company, newsRead), market.symbol);
      }
      throw new Error(`scripts/demo: the Director asked for an unknown schema '${schema}'`);
    }
    case 'quant':
      return { text: quantReport(market) };
    case 'risk':
      return { text: riskReport(market, trade) };
    case 'execution':
      return { text: executionReport(market, trade) };
    case 'sentiment': {
      const toolMessage = body.messages.find((message) => message.role === 'tool');
      if (toolMessage) return { text: sentimentReport(company, toolMessage.content) };
      if (!offersSearch(body)) return { text: sentimentWithoutNews(market, company) };
      return { toolCall: { id: `call_demo_${market.symbol.toLowerCase()}_search`, name: 'exa_search', arguments: JSON.stringify(company.search) } };
    }
    default:
      throw new Error(`scripts/demo: no scripted answer for agent '${agent}'`);
  }
}

/** A blind run's prompt hides the company: the recording says which one it is. */
function blindCompanyOf(company) {
  if (!company) throw new Error('scripts/demo: a blind run, but the recording named no company for it (createChatHandler({ blindCompany }))');
  return company;
}

/**
 * api.openai.com/v1/chat/completions for the demo: streamed answers, or an OpenAI-shaped
 * error. `blindCompany`: the company a blind run's alias stands for (the probe's ticker).
 */
export function createChatHandler({ blindCompany = null } = {}) {
  const served = new Map();
  return async (request) => {
    const url = new URL(request.url);
    const agent = request.headers.get('x-autohedge-agent') ?? 'unknown';
    const raw = await request.text();
    try {
      if (request.method !== 'POST' || url.pathname !== '/v1/chat/completions') throw new Error(`no route ${request.method} ${url.pathname}`);
      const body = JSON.parse(raw);
      if (body.stream !== true) throw new Error('the demo answers streamed requests only');
      const answer = answerFor(agent, body, blindCompany);
      const symbol = slug(readMarketBlock(userPrompt(body)).symbol);
      const key = `${symbol}-${agent}`;
      const count = (served.get(key) ?? 0) + 1;
      served.set(key, count);
      const id = `chatcmpl-demo-${symbol}-${agent}-${count}`;
      const stream = completionStream({ id, model: body.model, ...answer, promptTokens: Math.ceil(raw.length / 4) });
      return new Response(stream, {
        status: 200,
        headers: { 'content-type': 'text/event-stream; charset=utf-8', 'x-request-id': `req_demo_${symbol}_${agent}_${count}` },
      });
    } catch (error) {
      // Fail the generation loudly rather than record a broken analysis.
      console.error(`scripts/demo: chat request from ${agent} failed: ${error instanceof Error ? error.message : String(error)}`);
      return new Response(JSON.stringify({ error: { message: `demo script error: ${String(error)}`, type: 'invalid_request_error', param: null, code: null } }), {
        status: 400,
        headers: { 'content-type': 'application/json', 'x-should-retry': 'false' },
      });
    }
  };
}

/** api.exa.ai/search for the demo: the fictional articles of the company the query names. */
export function createSearchHandler(allCompanies) {
  return async (request) => {
    const body = JSON.parse(await request.text());
    const company = Object.values(allCompanies).find((candidate) => body.query.includes(candidate.symbol) || body.query.includes(candidate.shortName));
    const start = body.startPublishedDate ?? '0000';
    const end = body.endPublishedDate ?? '9999';
    const articles = (company?.news ?? []).filter((article) => article.publishedDate >= start && article.publishedDate <= end).slice(0, body.numResults ?? 10);
    const response = {
      requestId: `demo-${company ? company.symbol.toLowerCase() : 'none'}-search`,
      resolvedSearchType: 'neural',
      results: articles.map((article, index) => ({
        id: article.url,
        title: article.title,
        url: article.url,
        publishedDate: article.publishedDate,
        author: article.author,
        highlights: [article.highlight],
        highlightScores: [Math.round((0.62 - index * 0.04) * 100) / 100],
      })),
      costDollars: { total: 0.005 },
    };
    return new Response(JSON.stringify(response), { status: 200, headers: { 'content-type': 'application/json' } });
  };
}
