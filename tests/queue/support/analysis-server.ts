import {
  startOpenAIServer,
  textAnswer,
  type OpenAIServer,
  type RecordedRequest,
  type Reply,
} from '../../support/openai-server.js';
import { decisionFor, plan, tickerOf } from '../../universe/support.js';

export interface AnalysisServer extends OpenAIServer {
  /** The Director's plan requests per ticker: one per analysis started. */
  plansFor(ticker: string): number;
}

/**
 * The loopback OpenAI-compatible server a worker analyses against: every agent of every
 * ticker answered by who asks (the x-autohedge-agent header) and, for the Director, by
 * the schema asked for. `intercept` may answer a request otherwise (a 429, a 503, a
 * reply held back). The decision is a HOLD without levels, so the guardrails pass it
 * whatever the (synthetic) market's price.
 */
export async function startAnalysisServer(
  intercept: (call: {
    ticker: string;
    agent: string;
    request: RecordedRequest;
  }) => Reply | Promise<Reply> | undefined = () => undefined,
): Promise<AnalysisServer> {
  const server = await startOpenAIServer(async (body, _index, request) => {
    const ticker = tickerOf(body);
    const agent = String(request.headers['x-autohedge-agent'] ?? 'unknown');
    const special = await intercept({ ticker, agent, request });
    if (special) return special;
    if (agent === 'director') {
      const schema = body.response_format?.json_schema?.name;
      return textAnswer(JSON.stringify(schema === 'plan' ? plan : decisionFor({ action: 'HOLD', conviction: 55 })));
    }
    return textAnswer(`${agent} report on ${ticker}.`);
  });
  const plansFor = (ticker: string) =>
    server.requests.filter(
      (request) =>
        request.headers['x-autohedge-agent'] === 'director' &&
        request.body?.response_format?.json_schema?.name === 'plan' &&
        tickerOf(request.body) === ticker,
    ).length;
  return Object.assign(server, { plansFor });
}
