/**
 * The benchmark's model: the scripted OpenAI-compatible test server, answering every
 * call after a fixed latency with answers the size real ones have, reporting
 * `usage.prompt_tokens` as ceil(characters / 4) of what it was sent, and refusing an
 * even share of calls with a fast 429 + `retry-after-ms` when asked to.
 */
import {
  errorReply,
  startOpenAIServer,
  textAnswer,
  toolCallAnswer,
  type OpenAIServer,
  type RecordedRequest,
  type Reply,
} from '../testkit/openai-server.js';
import { decisionFixture } from '../src/testing/fixtures.js';
import { createQuota, requestCharacters, tokensOf, type Quota, type QuotaSettings } from '../testkit/quota.js';
import { createPromptCache, promptText, type PromptCache } from '../testkit/prompt-cache.js';
import type { CallKind, CallRecord } from './critical-path.js';

export interface ModelServerOptions {
  latencyMs: number;
  /** Share of calls refused with a 429, 0–1, spread evenly over the arrivals. */
  rateLimitShare?: number;
  retryAfterMs?: number;
  /** Enforce a provider's quota (P8): OpenAI's headers on every answer, a 429 for a request over it. */
  quota?: Omit<QuotaSettings, 'now'>;
  /** Apply OpenAI's prompt-caching rule (P14: testkit/prompt-cache.ts) and report `cached_tokens`. */
  cacheRule?: boolean;
}

/** One answered call's tokens as the server billed them (P14). */
export interface BilledCall {
  ticker: string;
  model: string;
  promptTokens: number;
  cachedTokens: number;
  completionTokens: number;
}

export interface ModelServer {
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Arrival indexes answered with a 429. */
  readonly rateLimited: ReadonlySet<number>;
  /** The enforced quota's accounting per model (OpenAI's limits are per model), when there is one. */
  readonly quotas: ReadonlyMap<string, Quota>;
  /** Each admission's request index, by model, in the order of that model's quota.admissions. */
  readonly admittedIndexes: ReadonlyMap<string, number[]>;
  /** Every answered call's billed tokens, in arrival order. */
  readonly billed: BilledCall[];
  close(): Promise<void>;
}

// One count of what a model reads, shared with the test doubles' quota.
export { requestCharacters, tokensOf };

export function agentOf(request: RecordedRequest): string {
  const header = request.headers['x-autohedge-agent'];
  return typeof header === 'string' ? header : 'unknown';
}

export function kindOf(request: RecordedRequest): CallKind {
  if (agentOf(request) !== 'director') return 'desk';
  return schemaOf(request.body) === 'plan' ? 'plan' : 'decision';
}

/** The structured answer asked for: a response_format's name, or the forced `submit_<name>` tool of a shared head. */
function schemaOf(body: unknown): string | undefined {
  const request = body as {
    response_format?: { json_schema?: { name?: string } };
    tool_choice?: { function?: { name?: string } };
  } | null;
  const forced = request?.tool_choice?.function?.name;
  if (forced?.startsWith('submit_')) return forced.slice('submit_'.length);
  return request?.response_format?.json_schema?.name;
}

const forcedToolOf = (body: unknown): string | undefined =>
  (body as { tool_choice?: { function?: { name?: string } } } | null)?.tool_choice?.function?.name;

/** The analysed symbol, from the market block every prompt carries. */
export function tickerOf(request: RecordedRequest): string | null {
  const messages = ((request.body as { messages?: Array<{ content?: unknown }> } | null)?.messages ?? []).map(
    (message) => (typeof message.content === 'string' ? message.content : ''),
  );
  for (const text of messages) {
    const match = /MARKET DATA — ([A-Z0-9.\-=^]+)/.exec(text);
    if (match) return match[1]!;
  }
  return null;
}

/** The answered model calls of one server, grouped by ticker. */
export function callsByTicker(server: ModelServer): Map<string, Array<CallRecord & { tokens: number }>> {
  const grouped = new Map<string, Array<CallRecord & { tokens: number }>>();
  for (const request of server.requests) {
    if (server.rateLimited.has(request.index) || request.answeredAt === undefined) continue;
    const ticker = tickerOf(request) ?? 'unknown';
    const call = {
      kind: kindOf(request),
      agent: agentOf(request),
      receivedAt: request.receivedAt,
      answeredAt: request.answeredAt,
      tokens: tokensOf(requestCharacters(request.body)),
    };
    grouped.set(ticker, [...(grouped.get(ticker) ?? []), call]);
  }
  return grouped;
}

/** floor((i + 1) · share) steps up on exactly `share` of the arrivals, evenly spaced: with 0.1, the 10th, 20th, … */
export function isRefused(index: number, share: number): boolean {
  return share > 0 && Math.floor((index + 1) * share) > Math.floor(index * share);
}

export async function startModelServer(options: ModelServerOptions): Promise<ModelServer> {
  const share = Math.min(1, Math.max(0, options.rateLimitShare ?? 0));
  const rateLimited = new Set<number>();
  const quotas = new Map<string, Quota>();
  const admittedIndexes = new Map<string, number[]>();
  const quotaFor = (body: unknown): Quota | null => {
    if (!options.quota) return null;
    const model = String((body as { model?: unknown } | null)?.model ?? 'unknown');
    let quota = quotas.get(model);
    if (!quota) quotas.set(model, (quota = createQuota(options.quota)));
    return quota;
  };
  const cache = options.cacheRule ? createPromptCache() : null;
  const billed: BilledCall[] = [];
  const server: OpenAIServer = await startOpenAIServer(
    (body: unknown, index: number, request: RecordedRequest): Reply => {
      if (cache) return cachedAnswer(request, body, options.latencyMs, cache, billed);
      const quota = quotaFor(body);
      if (quota) {
        const refusal = quota.admit(body);
        if (refusal) {
          rateLimited.add(index);
          return refusal;
        }
        const model = String((body as { model?: unknown } | null)?.model ?? 'unknown');
        admittedIndexes.set(model, [...(admittedIndexes.get(model) ?? []), index]);
        const reply = answerFor(request, body, options.latencyMs);
        return { ...reply, headers: { ...('headers' in reply ? reply.headers : {}), ...quota.headers() } } as Reply;
      }
      if (isRefused(index, share)) {
        rateLimited.add(index);
        return errorReply(
          429,
          {
            message: 'Rate limit reached for requests per min. Please try again shortly.',
            type: 'requests',
            code: 'rate_limit_exceeded',
          },
          { 'retry-after-ms': String(options.retryAfterMs ?? 20) },
        );
      }
      return answerFor(request, body, options.latencyMs);
    },
  );
  return {
    url: server.url,
    requests: server.requests,
    rateLimited,
    quotas,
    admittedIndexes,
    billed,
    close: () => server.close(),
  };
}

/**
 * An answer under OpenAI's caching rule: the cached tokens are read when the call arrives,
 * and its prompt is written once the answer has been sent (its latency later).
 */
function cachedAnswer(
  request: RecordedRequest,
  body: unknown,
  latencyMs: number,
  cache: PromptCache,
  billed: BilledCall[],
): Reply {
  const prompt = promptText(body);
  const cachedTokens = cache.read(prompt);
  setTimeout(() => cache.write(prompt), latencyMs).unref();
  const reply = answerFor(request, body, latencyMs, cachedTokens);
  const usage = ('answer' in reply ? reply.answer.usage : undefined) ?? { prompt_tokens: 0, completion_tokens: 0 };
  billed.push({
    ticker: tickerOf(request) ?? 'unknown',
    model: String((body as { model?: unknown } | null)?.model ?? 'unknown'),
    promptTokens: usage.prompt_tokens,
    cachedTokens,
    completionTokens: usage.completion_tokens,
  });
  return reply;
}

function answerFor(request: RecordedRequest, body: unknown, latencyMs: number, cachedTokens = 0): Reply {
  const ticker = tickerOf(request) ?? 'ACME';
  const usage = (completion: string) => ({
    prompt_tokens: tokensOf(requestCharacters(body)),
    completion_tokens: tokensOf(completion.length),
    ...(cachedTokens > 0 ? { cached_tokens: cachedTokens } : {}),
  });
  const text = (content: string) => textAnswer(content, { usage: usage(content), ...paced(latencyMs, content.length) });

  const agent = agentOf(request);
  if (agent === 'director') {
    const json = JSON.stringify(schemaOf(body) === 'plan' ? planFor(ticker) : decisionFor(ticker));
    const forced = forcedToolOf(body);
    if (!forced) return text(json);
    return toolCallAnswer([{ id: `call_${forced}`, name: forced, arguments: json }], {
      usage: usage(json),
      ...paced(latencyMs, json.length, 1),
    });
  }
  if (agent === 'sentiment') {
    const messages = (body as { messages?: Array<{ role?: string }> }).messages ?? [];
    if (!messages.some((message) => message.role === 'tool')) {
      const calls = [
        {
          id: 'call_news',
          name: 'exa_search',
          arguments: { query: `${ticker} stock news analyst reaction`, numResults: 5, daysBack: 30 },
        },
        {
          id: 'call_earnings',
          name: 'exa_search',
          arguments: { query: `${ticker} earnings guidance`, numResults: 5, daysBack: 30 },
        },
      ];
      return toolCallAnswer(calls, {
        usage: usage(JSON.stringify(calls)),
        ...paced(latencyMs, JSON.stringify(calls).length, calls.length),
      });
    }
  }
  return text(deskReport(agent, ticker));
}

/**
 * Streamed the way a model answers: the first token after about half the latency, the
 * rest in pieces of a few tokens 5 ms apart (finer pacing than timers keep would stretch
 * the answer past its latency), the last byte at the latency. The server splits a text,
 * or each tool call's arguments, into `pieces`.
 */
export function paced(
  latencyMs: number,
  characters: number,
  toolCalls = 0,
): { delayMs: number; chunkDelayMs: number; pieces: number } {
  const chunkDelayMs = 5;
  const streams = Math.max(1, toolCalls);
  // Gaps besides the pieces': before the finish and the usage chunks, and each tool call's header chunk.
  const extra = 2 + toolCalls;
  const budget = Math.floor(latencyMs / 2 / chunkDelayMs);
  const pieces = Math.max(1, Math.min(Math.ceil(characters / 4 / streams), Math.floor((budget - extra) / streams)));
  const streamMs = (pieces * streams + extra) * chunkDelayMs;
  return { delayMs: Math.max(0, latencyMs - streamMs), chunkDelayMs, pieces };
}

function planFor(ticker: string) {
  return {
    thesis:
      `${ticker} trades above its 50- and 200-day averages after a strong quarter, with momentum intact but valuation stretched against peers. ` +
      'A continued beat on data-centre demand and stable margins would justify adding; a failed retest of support near the 50-day average would argue for trimming. ' +
      'The open question is whether the recent volume surge marks accumulation or distribution ahead of the next earnings date.',
    briefs: {
      quant:
        'Score the trend and momentum from the averages, RSI and returns. Is the move extended relative to ATR and the 52-week range? Name support and resistance and the level that would invalidate the trend.',
      risk: 'Size a position for a 1 % portfolio risk budget using the ATR and 1-year volatility. What is the maximum drawdown we should expect, and what concentration or event risk would change the size?',
      execution:
        'Propose the order: market or limit, entry level, stop below support, take-profit near resistance, time in force. Account for average volume and the spread at this price.',
      sentiment:
        'What has the news flow said over the last 30 days: earnings reaction, guidance, analyst revisions, any regulatory or legal events? Score the sentiment and cite sources.',
    },
  };
}

function decisionFor(ticker: string) {
  return decisionFixture({
    entry: 105.5,
    stopLoss: 99.8,
    takeProfit: 117.2,
    rationale:
      `The desks agree the trend in ${ticker} is intact and the news flow constructive; the risk desk's ATR-based size keeps the loss at the stop within budget. ` +
      'Entry on a pullback towards the 20-day average improves the reward-to-risk ratio to about 2:1.',
    keyRisks: ['valuation stretched against peers', 'earnings in four weeks', 'volume surge could mark distribution'],
    dissent: 'Quant sees the move as extended in the short term and would wait for a deeper pullback.',
  });
}

/** About 300 words, the length a desk's prompt asks for at most. */
function deskReport(agent: string, ticker: string): string {
  const paragraph =
    `${ticker}: the last close sits 3.1 % above the 20-day average and 11 % above the 200-day, with RSI(14) at 61 — firm but not overbought. ` +
    'ATR(14) of 2.5 USD puts a one-ATR stop about 2.4 % below the close; the 52-week range leaves 13 % to the high. ' +
    'Volume ran 10 % above its 20-day average on up days, which reads as accumulation rather than distribution. ';
  const sentimentLines =
    'Sources: "Acme beats estimates as robotics orders climb" (https://news.example.com/acme-earnings); "Analysts lift targets after guidance" (https://markets.example.com/acme-targets). ';
  const body = [
    paragraph,
    paragraph.replace('firm but not overbought', 'constructive'),
    paragraph.replace('accumulation', 'steady demand'),
  ];
  const closing = `Overall score for ${ticker}: 0.64 (${agent} desk). Invalidation: a daily close below 99.8 USD.`;
  return `${body.join('\n\n')}\n\n${agent === 'sentiment' ? sentimentLines : ''}${closing}`;
}
