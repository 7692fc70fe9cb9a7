// Fault matrix, LLM: the real openai SDK over real HTTP to the scripted server, each
// fault aimed at one agent through the x-autohedge-agent header, the CLI run in-process.
import { expect } from 'vitest';
import { closedPortURL } from '../support/local-server.js';
import { fakeMarket } from '../support/market.js';
import {
  agentOf,
  allOk,
  byAgent,
  decision,
  deskText,
  faultMatrix,
  plan,
  requestsOf,
  schemaOf,
  type FaultScenario,
} from '../support/faults.js';
import {
  answerChunks,
  answerCompletion,
  errorReply,
  textAnswer,
  type RecordedRequest,
  type Reply,
} from '../support/openai-server.js';

const emptySearch = { search: async () => [] };
const deps = (model: import('../../src/llm/types.js').ChatModel) => ({
  model,
  market: fakeMarket(),
  search: emptySearch,
});

const delayed = (reply: Reply, delayMs: number): Reply => ({ ...reply, delayMs }) as Reply;

/** OpenAI's own 401 body, which quotes the masked key it was sent. */
const invalidKey = errorReply(401, {
  message:
    'Incorrect API key provided: sk-canar**********************tN3c. You can find your API key at https://platform.openai.com/account/api-keys.',
  type: 'invalid_request_error',
  code: 'invalid_api_key',
});
const rateLimited = errorReply(
  429,
  {
    message:
      'Rate limit reached for gpt-4.1 in organization org-Zx81Kq02Lm on requests per min (RPM): Limit 500, Used 500, Requested 1.',
    type: 'requests',
    code: 'rate_limit_exceeded',
  },
  { 'retry-after-ms': '5' },
);
const overloaded = errorReply(
  503,
  { message: 'The server is overloaded. Please retry.', type: 'server_error' },
  { 'retry-after-ms': '5' },
);
const internal = errorReply(
  500,
  { message: 'The server had an error while processing your request.', type: 'server_error' },
  { 'retry-after-ms': '5' },
);

const planAnswer = textAnswer(JSON.stringify(plan));

/** Good answers by agent, for json_object requests: the Director's schema is named in its system prompt, not in response_format. */
function byAgentJsonObject(body: any, index: number, request: RecordedRequest): Reply {
  if (agentOf(request) !== 'director') return byAgent()(body, index, request);
  return textAnswer(JSON.stringify(/the plan,/.test(body.messages[0].content) ? plan : decision));
}
const decideMessage = (body: any): string => body.messages.at(-1).content;

const scenarios: FaultScenario[] = [
  {
    name: '401 on every call: the Director cannot plan → failed, exit 1, one line',
    async arrange(context) {
      // Sentiment's 401 comes late, so the Director's failure is what stops it.
      const server = await context.openai(byAgent({ director: [invalidKey], sentiment: [delayed(invalidKey, 1_500)] }));
      return { deps: deps(context.model(server)) };
    },
    expect: ({ host }) => ({
      exitCode: 1,
      result: {
        status: 'failed',
        error: `Director plan failed: ${host} rejected the API key (401): check OPENAI_API_KEY`,
        decision: false,
        reports: { sentiment: 'the Director could not plan' },
        warnings: [],
      },
      stderrLines: [
        `[ACME] director: failed — Director plan failed: ${host} rejected the API key (401): check OPENAI_API_KEY`,
      ],
    }),
    verify(outcome, { servers }) {
      // Not retried: a bad key stays bad.
      expect(requestsOf(servers[0]!, 'director')).toHaveLength(1);
    },
  },
  {
    name: '404 unknown model (--model gpt-9): failed, exit 1, naming the model',
    async arrange(context) {
      const notFound = errorReply(404, {
        message: 'The model `gpt-9` does not exist or you do not have access to it.',
        code: 'model_not_found',
      });
      const server = await context.openai(byAgent({ director: [notFound], sentiment: [delayed(notFound, 1_500)] }));
      return { argv: ['analyze', 'ACME', '--json', '--model', 'gpt-9'], deps: deps(context.model(server)) };
    },
    expect: ({ host }) => ({
      exitCode: 1,
      result: {
        status: 'failed',
        error: `Director plan failed: model 'gpt-9' was not found on ${host} (404) — check --model / AUTOHEDGE_MODEL`,
        decision: false,
        reports: { sentiment: 'the Director could not plan' },
        warnings: [],
      },
    }),
  },
  {
    name: '429 then success on a desk: retried, ok, exit 0',
    async arrange(context) {
      const server = await context.openai(byAgent({ quant: [rateLimited] }));
      return { deps: deps(context.model(server)) };
    },
    expect: { exitCode: 0, result: { status: 'ok', error: null, decision: true, reports: allOk, warnings: [] } },
    verify(outcome, { servers }) {
      const quant = requestsOf(servers[0]!, 'quant');
      // The retry is the pacer's (after the server's retry-after), a fresh request: two in all.
      expect(quant).toHaveLength(2);
      expect(outcome.result?.reports[0]?.text).toBe(deskText.quant);
    },
  },
  {
    name: '429 forever on a desk: degraded, exit 3, the desk failed after its retry, the decision names it missing',
    async arrange(context) {
      const server = await context.openai(byAgent({ quant: [rateLimited, rateLimited] }));
      return { deps: deps(context.model(server)) };
    },
    expect: ({ host }) => {
      const error = `${host} rate limit hit (429) for model 'gpt-4.1' after 1 retry: Rate limit reached for gpt-4.1 in organization REDACTED on requests per min (RPM): Limit 500, Used 500, Requested 1.`;
      return {
        exitCode: 3,
        result: {
          status: 'degraded',
          error: null,
          decision: true,
          reports: { ...allOk, quant: error },
          warnings: [`quant failed: ${error}`],
        },
        // One line per event: the warning (kept in the result) does not repeat the failure line.
        stderrLines: [`[ACME] quant: failed — ${error}`],
      };
    },
    verify(outcome, { servers }) {
      const decide = requestsOf(servers[0]!, 'director').find((request) => schemaOf(request.body) === 'decision');
      expect(decideMessage(decide?.body)).toContain(
        '- These desks failed and sent no report: quant. Decide without them',
      );
    },
  },
  {
    name: '503 on a desk: retried once, then degraded, exit 3',
    async arrange(context) {
      const server = await context.openai(byAgent({ risk: [overloaded, overloaded] }));
      return { deps: deps(context.model(server)) };
    },
    expect: ({ host }) => {
      const error = `${host} server error (503) for model 'gpt-4.1' after 1 retry: The server is overloaded. Please retry.`;
      return {
        exitCode: 3,
        result: {
          status: 'degraded',
          error: null,
          decision: true,
          reports: { ...allOk, risk: error },
          warnings: [`risk failed: ${error}`],
        },
      };
    },
  },
  {
    name: 'every desk gets 503: no decision from nothing, failed, exit 1',
    async arrange(context) {
      const down = [overloaded, overloaded];
      const server = await context.openai(
        byAgent({ quant: down, risk: [...down], execution: [...down], sentiment: [...down] }),
      );
      return { deps: deps(context.model(server)) };
    },
    expect: ({ host }) => {
      const error = `${host} server error (503) for model 'gpt-4.1' after 1 retry: The server is overloaded. Please retry.`;
      const sentiment = error.replace("'gpt-4.1'", "'gpt-4o-mini'");
      return {
        exitCode: 1,
        result: {
          status: 'failed',
          error: 'every desk failed; no decision was made',
          decision: false,
          reports: { quant: error, risk: error, execution: error, sentiment },
          warnings: [
            `quant failed: ${error}`,
            `risk failed: ${error}`,
            `execution failed: ${error}`,
            `sentiment failed: ${sentiment}`,
          ],
        },
        stderrLines: ['[ACME] director: failed — every desk failed'],
      };
    },
    verify(outcome, { servers }) {
      // The Director was never asked to decide on nothing.
      expect(requestsOf(servers[0]!, 'director').map((request) => schemaOf(request.body))).toEqual(['plan']);
    },
  },
  {
    name: 'quota exhausted (429 insufficient_quota): not retried, failed, exit 1',
    async arrange(context) {
      const quota = errorReply(
        429,
        {
          message: 'You exceeded your current quota, please check your plan and billing details.',
          type: 'insufficient_quota',
          code: 'insufficient_quota',
        },
        { 'retry-after-ms': '5' },
      );
      const server = await context.openai(byAgent({ director: [quota], sentiment: [delayed(quota, 1_500)] }));
      return { deps: deps(context.model(server, { maxRetries: 2 })) };
    },
    expect: ({ host }) => ({
      exitCode: 1,
      result: {
        status: 'failed',
        error: `Director plan failed: ${host} quota exceeded (429 insufficient_quota): check your plan and billing`,
        decision: false,
        reports: { sentiment: 'the Director could not plan' },
        warnings: [],
      },
    }),
    verify(outcome, { servers }) {
      expect(requestsOf(servers[0]!, 'director')).toHaveLength(1);
    },
  },
  {
    name: "500 on the Director's decision: failed, exit 1, the desks' reports kept, no decision invented",
    async arrange(context) {
      const server = await context.openai(byAgent({ director: [planAnswer, internal, internal] }));
      return { deps: deps(context.model(server)) };
    },
    expect: ({ host }) => {
      const error = `Director decision failed: ${host} server error (500) for model 'gpt-4.1' after 1 retry: The server had an error while processing your request.`;
      return { exitCode: 1, result: { status: 'failed', error, decision: false, reports: allOk, warnings: [error] } };
    },
  },
  {
    name: 'connection refused: every call fails, failed, exit 1',
    async arrange(context) {
      const url = `${await closedPortURL()}/v1`;
      return { deps: deps(context.model(url, { maxRetries: 0 })), vars: { url } };
    },
    expect: ({ url }) => ({
      exitCode: 1,
      result: {
        status: 'failed',
        error: `Director plan failed: could not connect to ${url} (ECONNREFUSED)`,
        decision: false,
        // Sentiment fails on its own refused connection, or is stopped by the Director's failure: whichever comes first.
        reports: {
          sentiment: new RegExp(
            `^(could not connect to ${url!.replace(/[.]/g, '\\.')} \\(ECONNREFUSED\\)|the Director could not plan)$`,
          ),
        },
        warnings: [],
      },
    }),
  },
  {
    name: "timeout before the Director's answer starts: failed, exit 1",
    async arrange(context) {
      const server = await context.openai(byAgent({ director: [{ hang: true }] }));
      return { deps: deps(context.model(server, { timeoutMs: 800, maxRetries: 0 })) };
    },
    expect: ({ host }) => ({
      exitCode: 1,
      result: {
        status: 'failed',
        error: `Director plan failed: model call timed out after 0.8 s (model 'gpt-4.1' at ${host})`,
        decision: false,
        reports: { sentiment: 'ok' },
        warnings: [],
      },
    }),
  },
  {
    name: 'a desk’s stream goes silent mid-answer: that desk times out, degraded, exit 3',
    async arrange(context) {
      const stalled: Reply = { chunks: answerChunks({ text: deskText.risk!, model: 'gpt-4.1' }), stallAfterChunks: 2 };
      const server = await context.openai(byAgent({ risk: [stalled] }));
      return { deps: deps(context.model(server, { timeoutMs: 800 })) };
    },
    expect: ({ host }) => {
      const error = `model call timed out after 0.8 s of silence mid-stream (model 'gpt-4.1' at ${host})`;
      return {
        exitCode: 3,
        result: {
          status: 'degraded',
          error: null,
          decision: true,
          reports: { ...allOk, risk: error },
          warnings: [`risk failed: ${error}`],
        },
      };
    },
  },
  {
    name: 'a stream cut off mid-tool-call: Sentiment fails, the search never runs, degraded, exit 3',
    async arrange(context) {
      const chunks = answerChunks({
        toolCalls: [
          { id: 'call_1', name: 'exa_search', arguments: { query: 'Acme Robotics news', numResults: 5, daysBack: 30 } },
        ],
        model: 'gpt-4o-mini',
        pieces: 3,
      });
      // Role, the call's header, one third of its arguments — then the socket closes.
      const server = await context.openai(byAgent({ sentiment: [{ chunks, cutAfterChunks: 3 }] }));
      const searches: string[] = [];
      context.defer(() => expect(searches).toEqual([]));
      return {
        deps: {
          model: context.model(server),
          market: fakeMarket(),
          search: { search: async (request) => (searches.push(request.query), []) },
        },
      };
    },
    expect: ({ host }) => {
      const error = `the connection to ${host} dropped mid-stream during tool call 'exa_search' (20 argument characters received) (model 'gpt-4o-mini')`;
      return {
        exitCode: 3,
        result: {
          status: 'degraded',
          error: null,
          decision: true,
          reports: { ...allOk, sentiment: error },
          warnings: [`sentiment failed: ${error}`],
        },
      };
    },
  },
  {
    name: 'a stream that ends before its finish_reason and without [DONE]: the desk fails rather than pass a cut answer as whole, exit 3',
    async arrange(context) {
      // Every chunk but the finish and usage chunks: the answer stops mid-text.
      const cut = answerChunks({ text: deskText.quant!, model: 'gpt-4.1' }).slice(0, -2);
      const server = await context.openai(byAgent({ quant: [{ chunks: cut, omitDone: true }] }));
      return { deps: deps(context.model(server)) };
    },
    expect: ({ host }) => {
      const error = `the stream from ${host} ended without [DONE] (model 'gpt-4.1')`;
      return {
        exitCode: 3,
        result: {
          status: 'degraded',
          error: null,
          decision: true,
          reports: { ...allOk, quant: error },
          warnings: [`quant failed: ${error}`],
        },
      };
    },
  },
  {
    name: 'a stream that ends without [DONE] after its finish_reason (Cerebras, routers): a complete answer, ok, exit 0',
    async arrange(context) {
      const server = await context.openai(
        byAgent({ quant: [{ chunks: answerChunks({ text: deskText.quant!, model: 'gpt-4.1' }), omitDone: true }] }),
      );
      return { deps: deps(context.model(server)) };
    },
    expect: { exitCode: 0, result: { status: 'ok', error: null, decision: true, reports: allOk, warnings: [] } },
  },
  {
    name: 'a server that refuses json_schema (DeepSeek): the Director falls back to json_object, decides, ok, exit 0',
    async arrange(context) {
      const refused = errorReply(400, {
        message: 'This response_format type is unavailable now',
        type: 'invalid_request_error',
        code: 'invalid_request_error',
      });
      const server = await context.openai((body: any, index, request) =>
        body.response_format?.type === 'json_schema' ? refused : byAgentJsonObject(body, index, request),
      );
      return { deps: deps(context.model(server)) };
    },
    expect: { exitCode: 0, result: { status: 'ok', error: null, decision: true, reports: allOk, warnings: [] } },
    verify(outcome, { servers }) {
      expect(requestsOf(servers[0]!, 'director').map((request) => request.body.response_format?.type)).toEqual([
        'json_schema',
        'json_object',
        'json_object',
      ]);
    },
  },
  {
    name: 'a server that refuses every response_format: prompt mode, the JSON taken from a fenced answer, ok, exit 0',
    async arrange(context) {
      const refused = errorReply(400, { message: "'response_format.type' must be 'text'" });
      const server = await context.openai((body: any, index, request) => {
        if (body.response_format) return refused;
        if (agentOf(request) !== 'director') return byAgent()(body, index, request);
        return textAnswer(
          `Here you go:\n\`\`\`json\n${JSON.stringify(/the plan,/.test(body.messages[0].content) ? plan : decision)}\n\`\`\``,
        );
      });
      return { deps: deps(context.model(server)) };
    },
    expect: { exitCode: 0, result: { status: 'ok', error: null, decision: true, reports: allOk, warnings: [] } },
  },
  {
    name: 'a proxy that answers a stream request with one application/json completion: used as the answer, ok, exit 0',
    async arrange(context) {
      const server = await context.openai(
        byAgent({ risk: [{ json: answerCompletion({ text: deskText.risk!, model: 'gpt-4.1' }) }] }),
      );
      return { deps: deps(context.model(server)) };
    },
    expect: { exitCode: 0, result: { status: 'ok', error: null, decision: true, reports: allOk, warnings: [] } },
  },
  {
    name: 'an answer with no choices: the desk fails, degraded, exit 3',
    async arrange(context) {
      const usageOnly = {
        id: 'chatcmpl-x',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'gpt-4.1',
        choices: [],
        usage: { prompt_tokens: 5, completion_tokens: 0, total_tokens: 5 },
      };
      const server = await context.openai(byAgent({ execution: [{ chunks: [usageOnly] }] }));
      return { deps: deps(context.model(server)) };
    },
    expect: ({ host }) => {
      const error = `the model returned no choices (model 'gpt-4.1' at ${host})`;
      return {
        exitCode: 3,
        result: {
          status: 'degraded',
          error: null,
          decision: true,
          reports: { ...allOk, execution: error },
          warnings: [`execution failed: ${error}`],
        },
      };
    },
  },
  {
    name: 'a decision that is not JSON, twice: failed, exit 1, no default decision',
    async arrange(context) {
      const server = await context.openai(
        byAgent({ director: [planAnswer, textAnswer('Sure! BUY it.'), textAnswer('BUY, definitely.')] }),
      );
      return { deps: deps(context.model(server)) };
    },
    expect: () => {
      const error = `Director decision failed: director: the model's decision broke the schema twice (not valid JSON (Unexpected token 'B', "BUY, definitely." is not valid JSON))`;
      return { exitCode: 1, result: { status: 'failed', error, decision: false, reports: allOk, warnings: [error] } };
    },
  },
  {
    name: 'a decision that breaks the schema once: sent back with the errors, corrected, ok, exit 0',
    async arrange(context) {
      const broken = textAnswer(JSON.stringify({ ...decision, action: 'YOLO', conviction: 150 }));
      const server = await context.openai(byAgent({ director: [planAnswer, broken] }));
      return { deps: deps(context.model(server)) };
    },
    expect: { exitCode: 0, result: { status: 'ok', error: null, decision: true, reports: allOk, warnings: [] } },
    verify(outcome, { servers }) {
      const decides = requestsOf(servers[0]!, 'director').filter((request) => schemaOf(request.body) === 'decision');
      expect(decides).toHaveLength(2);
      expect(decideMessage(decides[1]?.body)).toBe(
        'Your reply did not match the required JSON schema: action must be one of "BUY", "SELL", "HOLD"; you sent "YOLO". conviction must be <= 100; you sent 150. Reply again with only the corrected JSON object.',
      );
    },
  },
  {
    name: 'a decision that breaks the schema twice: failed, exit 1',
    async arrange(context) {
      const broken = textAnswer(JSON.stringify({ ...decision, positionSizePct: -4 }));
      const server = await context.openai(byAgent({ director: [planAnswer, broken, broken] }));
      return { deps: deps(context.model(server)) };
    },
    expect: () => {
      const error = `Director decision failed: director: the model's decision broke the schema twice (positionSizePct must be >= 0; you sent -4)`;
      return { exitCode: 1, result: { status: 'failed', error, decision: false, reports: allOk, warnings: [error] } };
    },
  },
  {
    name: 'the Director refuses to decide: failed, exit 1, the refusal quoted',
    async arrange(context) {
      const server = await context.openai(
        byAgent({ director: [planAnswer, { answer: { refusal: "I can't help with investment decisions." } }] }),
      );
      return { deps: deps(context.model(server)) };
    },
    expect: () => {
      const error = `Director decision failed: model refused: I can't help with investment decisions.`;
      return { exitCode: 1, result: { status: 'failed', error, decision: false, reports: allOk, warnings: [error] } };
    },
  },
  {
    name: 'a desk refuses: that desk failed, degraded, exit 3',
    async arrange(context) {
      const server = await context.openai(byAgent({ quant: [{ answer: { refusal: "I can't help with that." } }] }));
      return { deps: deps(context.model(server)) };
    },
    expect: () => {
      const error = "model refused: I can't help with that.";
      return {
        exitCode: 3,
        result: {
          status: 'degraded',
          error: null,
          decision: true,
          reports: { ...allOk, quant: error },
          warnings: [`quant failed: ${error}`],
        },
      };
    },
  },
  {
    name: 'a desk answers and also refuses: the text kept, the refusal quoted in a warning, ok, exit 0',
    async arrange(context) {
      const server = await context.openai(
        byAgent({ execution: [{ answer: { text: deskText.execution!, refusal: 'I cannot place orders.' } }] }),
      );
      return { deps: deps(context.model(server)) };
    },
    expect: {
      exitCode: 0,
      result: {
        status: 'ok',
        error: null,
        decision: true,
        reports: allOk,
        warnings: ['agent execution: the model also refused: I cannot place orders.'],
      },
      stderrLines: ['[ACME] warning: agent execution: the model also refused: I cannot place orders.'],
    },
  },
  {
    name: 'a desk cut off at the token limit: its text kept, a warning says so, exit 0',
    async arrange(context) {
      const server = await context.openai(
        byAgent({ risk: [textAnswer('Risk: score 0.4, size', { finishReason: 'length' })] }),
      );
      return { deps: deps(context.model(server)) };
    },
    expect: {
      exitCode: 0,
      result: {
        status: 'ok',
        error: null,
        decision: true,
        reports: allOk,
        warnings: ['agent risk: answer cut off at the token limit (finish_reason "length")'],
      },
      stderrLines: ['[ACME] warning: agent risk: answer cut off at the token limit (finish_reason "length")'],
    },
  },
];

faultMatrix('fault matrix: LLM', scenarios);
