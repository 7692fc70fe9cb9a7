// `autohedge doctor` through runCli against loopback servers (the real `openai` SDK, the
// real Exa client), each capability switched off in turn: one line per check, --json,
// exit 0 when analyze will work, 2 for configuration problems, 1 otherwise.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import type { DoctorReport } from '../../src/doctor/types.js';
import { DataError } from '../../src/errors.js';
import { captureIo } from '../support/cli.js';
import { startExaStub, type ExaStub } from '../support/exa-server.js';
import { fakeMarket } from '../support/market.js';
import { searchAnswer, threeCitations, withSearchModel } from '../support/search-model.js';
import {
  errorReply,
  startOpenAIServer,
  textAnswer,
  toolCallAnswer,
  type OpenAIServer,
  type OpenAIServerOptions,
  type Reply,
} from '../support/openai-server.js';

const servers: Array<OpenAIServer | ExaStub> = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

const key = 'sk-doctor-test-9Xq2Lm7Pz';
const exaKey = 'exa-doctor-test-4Rt8Yu';

interface Capabilities {
  toolCalls?: boolean;
  callIds?: boolean;
  jsonSchema?: boolean;
  jsonObject?: boolean;
  usage?: boolean;
  reasoning?: string;
  /** Follows a schema given in the prompt. */
  prompt?: boolean;
  /** Sent on every answer (x-ratelimit-*). */
  headers?: Record<string, string>;
}

/** An OpenAI-compatible server with the given capabilities (all on by default). */
function server(capabilities: Capabilities = {}) {
  const {
    toolCalls = true,
    callIds = true,
    jsonSchema = true,
    jsonObject = true,
    usage = true,
    reasoning,
    prompt = true,
    headers,
  } = capabilities;
  const extra = {
    ...(reasoning ? { reasoning } : {}),
    ...(usage ? {} : { usage: { prompt_tokens: 0, completion_tokens: 0 } }),
  };
  const answer = (body: any): Reply => {
    const format = body.response_format?.type;
    if ((format === 'json_schema' && !jsonSchema) || (format === 'json_object' && !jsonObject)) {
      return errorReply(400, { message: `response_format.type '${format}' is not supported` });
    }
    if (format) return textAnswer('{"sum":5}', extra);
    const asked = JSON.stringify(body.messages);
    // The context canary: an honest server counts about a quarter of the characters, and repeats the marker.
    if (asked.includes('CANARY-'))
      return textAnswer('CANARY-7391-HERON', {
        ...extra,
        ...(usage ? { usage: { prompt_tokens: Math.round(asked.length / 4.2), completion_tokens: 6 } } : {}),
      });
    if (body.tools) {
      if (body.messages.at(-1)?.role === 'tool') return textAnswer('2 + 3 = 5.', extra);
      if (!toolCalls) return textAnswer('The sum is 5.', extra);
      return toolCallAnswer(
        [{ ...(callIds ? { id: 'call_add_1' } : { id: '' }), name: 'add', arguments: { a: 2, b: 3 } }],
        extra,
      );
    }
    // Prompt mode: the schema is in the system prompt; a fenced answer.
    return textAnswer(prompt ? 'Here:\n```json\n{"sum": 5}\n```' : 'Five.', extra);
  };
  return (body: any): Reply => {
    const reply = answer(body);
    return headers && 'answer' in reply ? { ...reply, headers: { ...reply.headers, ...headers } } : reply;
  };
}

async function doctor(
  options: {
    capabilities?: Capabilities;
    serverOptions?: OpenAIServerOptions;
    env?: Record<string, string>;
    market?: ReturnType<typeof fakeMarket>;
    exa?: boolean;
    argv?: string[];
  } = {},
) {
  const openai = await startOpenAIServer(
    withSearchModel(() => searchAnswer(threeCitations), server(options.capabilities)),
    options.serverOptions ?? { models: ['gpt-4.1', 'gpt-4.1-mini'] },
  );
  const exa = await startExaStub();
  servers.push(openai, exa);
  const io = captureIo();
  const env = {
    ...io.env,
    OPENAI_API_KEY: key,
    OPENAI_BASE_URL: openai.url,
    AUTOHEDGE_SEC_USER_AGENT: 'Jane Doe jane@example.com',
    ...(options.exa === false ? {} : { EXA_API_KEY: exaKey, EXA_BASE_URL: exa.baseURL }),
    ...options.env,
  };
  const code = await runCli(
    ['doctor', ...(options.argv ?? ['--json'])],
    { ...io, env },
    { market: options.market ?? fakeMarket(), now: () => new Date('2026-11-28T12:00:00Z') },
  );
  const report = (options.argv ?? ['--json']).includes('--json') ? (JSON.parse(io.out()) as DoctorReport) : undefined;
  const statuses = report ? Object.fromEntries(report.checks.map((item) => [item.id, item.status])) : {};
  const detail = (id: string) => report?.checks.find((item) => item.id === id)?.detail ?? '';
  return { code, io, report, statuses, detail, openai, exa };
}

describe('autohedge doctor', () => {
  it('a capable server: every check ok, exit 0, a handful of small calls', async () => {
    const { code, statuses, detail, openai, exa, report } = await doctor();

    expect(statuses).toEqual({
      'env-file': 'ok',
      keys: 'ok',
      'base-url': 'ok',
      server: 'ok',
      'model-listed': 'ok',
      engine: 'ok',
      'tool-calls': 'ok',
      structured: 'ok',
      context: 'ok',
      reasoning: 'ok',
      usage: 'ok',
      'rate-limits': 'ok',
      search: 'ok',
      market: 'ok',
      fundamentals: 'ok',
    });
    expect(code).toBe(0);
    expect(report?.exitCode).toBe(0);
    expect(detail('keys')).toBe('OPENAI_API_KEY set, EXA_API_KEY set');
    expect(detail('tool-calls')).toBe(
      'streamed add(2, 3), id call_add_1, finish_reason tool_calls; answered after the result',
    );
    expect(detail('structured')).toBe('json_schema works');
    expect(detail('usage')).toBe('reported: 300 prompt + 60 completion tokens for these checks');
    expect(detail('rate-limits')).toBe(
      'the server announced no rate limits: requests are paced only with --rpm / --tpm',
    );
    expect(detail('engine')).toBe('no local engine sign (llama.cpp, Ollama, vLLM, LM Studio): the strict schema');
    expect(detail('context')).toMatch(
      /^the server read \d+ of about \d+ prompt tokens, none cut; the model repeated the marker$/,
    );
    const chats = openai.requests.filter((request) => request.method === 'POST');
    expect(chats).toHaveLength(4);
    const [canary, ...small] = chats
      .filter((request) => request.body.max_completion_tokens === 64)
      .concat(chats.filter((request) => request.body.max_completion_tokens !== 64));
    expect(canary?.rawBody.length).toBeGreaterThan(23_000);
    expect(small.every((request) => request.body.stream === true && request.body.max_completion_tokens === 1024)).toBe(
      true,
    );
    expect(exa.requests).toHaveLength(1);
    expect((exa.requests[0]?.body as { numResults: number }).numResults).toBe(1);
  });

  it('reports the rate limits the server announces in its headers', async () => {
    const { statuses, detail } = await doctor({
      capabilities: {
        headers: {
          'x-ratelimit-limit-requests': '500',
          'x-ratelimit-remaining-requests': '499',
          'x-ratelimit-reset-requests': '120ms',
          'x-ratelimit-limit-tokens': '30000',
          'x-ratelimit-remaining-tokens': '29000',
          'x-ratelimit-reset-tokens': '2s',
        },
      },
    });
    expect(statuses['rate-limits']).toBe('ok');
    expect(detail('rate-limits')).toBe(
      'the server announces 500 requests and 30,000 tokens per minute; analyze paces to them',
    );
  });

  it('SEC EDGAR fundamentals: declared, not set (a warning), or malformed (a configuration failure, exit 2)', async () => {
    const declared = await doctor();
    expect(declared.detail('fundamentals')).toBe(
      "SEC EDGAR (as filed), User-Agent declared; asked on a run's first US listing",
    );
    const unset = await doctor({ env: { AUTOHEDGE_SEC_USER_AGENT: '' } });
    expect(unset.statuses.fundamentals).toBe('warn');
    expect(unset.detail('fundamentals')).toBe(
      'AUTOHEDGE_SEC_USER_AGENT not set: runs go without SEC EDGAR fundamentals (set it to "Name email")',
    );
    expect(unset.code).toBe(0);
    const malformed = await doctor({ env: { AUTOHEDGE_SEC_USER_AGENT: 'autohedge' } });
    expect(malformed.statuses.fundamentals).toBe('fail');
    expect(malformed.detail('fundamentals')).toContain('AUTOHEDGE_SEC_USER_AGENT');
    expect(malformed.code).toBe(2);
  });

  it('prints one line per check and a verdict; no key appears', async () => {
    const { code, io } = await doctor({ argv: [] });

    const lines = io.out().trimEnd().split('\n');
    expect(code).toBe(0);
    expect(lines[0]).toMatch(/^autohedge doctor — model 'gpt-4\.1' at http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(lines[1]).toBe('  each exchange may take up to 300 s (a loopback server: longer than the 30 s for others)');
    expect(lines).toHaveLength(18);
    expect(lines.slice(2, 17).every((line) => /^ {2}(ok  |warn|FAIL|skip) {2}\S/.test(line))).toBe(true);
    expect(lines.at(-1)).toBe('Everything analyze needs works.');
    expect(io.out() + io.err()).not.toContain(key);
    expect(io.out() + io.err()).not.toContain(exaKey);
  });

  it('reads .env from the working directory and says so', async () => {
    const openai = await startOpenAIServer(server(), { models: ['gpt-4.1'] });
    servers.push(openai);
    const io = captureIo();
    writeFileSync(join(io.cwd, '.env'), `OPENAI_API_KEY=${key}\nOPENAI_BASE_URL=${openai.url}\n`);

    const code = await runCli(['doctor', '--json'], io, { market: fakeMarket() });

    const report = JSON.parse(io.out()) as DoctorReport;
    expect(report.checks.find((item) => item.id === 'env-file')?.detail).toBe(`read ${join(io.cwd, '.env')}`);
    expect(report.checks.find((item) => item.id === 'search')?.status).toBe('warn');
    expect(code).toBe(0);
  });

  it('no key and no base URL: the configuration fails, the model checks are skipped, exit 2', async () => {
    const io = captureIo();

    const code = await runCli(['doctor', '--json'], io, { market: fakeMarket() });

    const report = JSON.parse(io.out()) as DoctorReport;
    expect(code).toBe(2);
    expect(report.checks.find((item) => item.id === 'keys')).toMatchObject({ status: 'fail', configuration: true });
    expect(report.checks.filter((item) => item.status === 'skip').map((item) => item.id)).toEqual([
      'server',
      'model-listed',
      'engine',
      'tool-calls',
      'structured',
      'context',
      'reasoning',
      'usage',
      'rate-limits',
    ]);
  });

  it('a bad AUTOHEDGE_STRUCTURED is a configuration failure, exit 2', async () => {
    const { code, statuses } = await doctor({ env: { AUTOHEDGE_STRUCTURED: 'xml' } });

    expect(statuses['structured-setting']).toBe('fail');
    expect(code).toBe(2);
  });

  it('the server unreachable: exit 1, the rest of the model checks skipped', async () => {
    const { code, statuses, detail } = await doctor({ env: { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' } });

    expect(statuses.server).toBe('fail');
    expect(detail('server')).toMatch(/^could not connect to http:\/\/127\.0\.0\.1:9\/v1/);
    expect(statuses['tool-calls']).toBe('skip');
    expect(statuses.market).toBe('ok');
    expect(code).toBe(1);
  });

  it('a rejected key (401 on /models): a configuration failure, exit 2', async () => {
    const { code, statuses, detail } = await doctor({ serverOptions: { modelsStatus: 401 } });

    expect(statuses.server).toBe('fail');
    expect(detail('server')).toContain('rejected the API key (401)');
    expect(code).toBe(2);
  });

  it('no /models list, or the model not in it: a warning, not a failure', async () => {
    const unlisted = await doctor({ serverOptions: {} });
    expect(unlisted.statuses['model-listed']).toBe('warn');
    expect(unlisted.code).toBe(0);

    const other = await doctor({ serverOptions: { models: ['llama3.2'] } });
    expect(other.detail('model-listed')).toBe("'gpt-4.1' is not among the 1 listed models (llama3.2)");
    expect(other.code).toBe(0);
  });

  it('a model that does not call tools: the tool check fails, exit 1', async () => {
    const { code, statuses, detail } = await doctor({ capabilities: { toolCalls: false } });

    expect(statuses['tool-calls']).toBe('fail');
    expect(detail('tool-calls')).toBe(
      'the model answered without calling the tool (finish_reason stop): agents with tools will not work',
    );
    expect(code).toBe(1);
  });

  it('calls without ids: a warning that autohedge made them', async () => {
    const { code, statuses, detail } = await doctor({ capabilities: { callIds: false } });

    expect(statuses['tool-calls']).toBe('warn');
    expect(detail('tool-calls')).toContain('the server sent no call id (autohedge made one)');
    expect(code).toBe(0);
  });

  it('json_object only (DeepSeek): structured ok in json_object, with the setting to use', async () => {
    const { code, detail } = await doctor({ capabilities: { jsonSchema: false } });

    expect(detail('structured')).toBe(
      'json_object works (json_schema refused (400)); set AUTOHEDGE_STRUCTURED=json_object to skip the detection',
    );
    expect(code).toBe(0);
  });

  it('neither json_schema nor json_object: prompt mode; AUTOHEDGE_STRUCTURED=prompt starts there', async () => {
    const detected = await doctor({ capabilities: { jsonSchema: false, jsonObject: false } });
    expect(detected.detail('structured')).toBe(
      'prompt works (json_schema refused (400), json_object refused (400)); set AUTOHEDGE_STRUCTURED=prompt to skip the detection',
    );

    const configured = await doctor({
      capabilities: { jsonSchema: false, jsonObject: false },
      env: { AUTOHEDGE_STRUCTURED: 'prompt' },
    });
    expect(configured.detail('structured')).toBe('prompt works (as AUTOHEDGE_STRUCTURED says)');
    expect(configured.openai.requests.filter((request) => request.body?.response_format)).toHaveLength(0);
  });

  it('no structured mode works: the structured check fails, exit 1', async () => {
    const { code, statuses, detail } = await doctor({
      capabilities: { jsonSchema: false, jsonObject: false, prompt: false },
    });

    expect(statuses.structured).toBe('fail');
    expect(detail('structured')).toBe(
      'no mode works: json_schema refused (400); json_object refused (400); prompt (answer not the JSON asked for)',
    );
    expect(code).toBe(1);
  });

  it('reasoning and missing usage are reported', async () => {
    const { code, statuses, detail } = await doctor({ capabilities: { reasoning: 'Adding.', usage: false } });

    expect(detail('reasoning')).toBe("the server sends the model's reasoning (7 characters); kept between tool rounds");
    expect(statuses.usage).toBe('warn');
    expect(code).toBe(0);
  });

  it('Exa: no key is a warning; a rejected key is a configuration failure', async () => {
    const without = await doctor({ exa: false });
    expect(without.statuses.search).toBe('warn');
    expect(without.exa.requests).toHaveLength(0);
    expect(without.code).toBe(0);

    const rejected = await doctor();
    rejected.exa.respond({ status: 401, body: { error: 'Invalid API key' } });
    const io = captureIo();
    const code = await runCli(
      ['doctor', '--json'],
      {
        ...io,
        env: {
          ...io.env,
          OPENAI_API_KEY: key,
          OPENAI_BASE_URL: rejected.openai.url,
          EXA_API_KEY: exaKey,
          EXA_BASE_URL: rejected.exa.baseURL,
        },
      },
      { market: fakeMarket() },
    );
    const report = JSON.parse(io.out()) as DoctorReport;
    expect(report.checks.find((item) => item.id === 'search')).toMatchObject({ status: 'fail', configuration: true });
    expect(code).toBe(2);
  });

  it("--search openai checks OpenAI's built-in search on the same server; --search none skips the check", async () => {
    const openaiSearch = await doctor({ argv: ['--json', '--search', 'openai'] });
    expect(openaiSearch.detail('search')).toBe("OpenAI's built-in web search works (1 result for one query)");
    expect(
      openaiSearch.openai.requests.filter((request) => request.body?.web_search_options !== undefined),
    ).toHaveLength(1);
    expect(openaiSearch.exa.requests).toHaveLength(0);
    expect(openaiSearch.code).toBe(0);

    const none = await doctor({ env: { AUTOHEDGE_SEARCH: 'none' } });
    expect(none.statuses.search).toBe('skip');
    expect(none.exa.requests).toHaveLength(0);
    expect(none.code).toBe(0);
  });

  it('Yahoo unreachable: the market check fails, exit 1', async () => {
    const market = fakeMarket(() => {
      throw new DataError('Yahoo Finance is unreachable (ECONNREFUSED)');
    });
    const { code, statuses, detail } = await doctor({ market });

    expect(statuses.market).toBe('fail');
    expect(detail('market')).toBe('Yahoo Finance is unreachable (ECONNREFUSED)');
    expect(code).toBe(1);
  });

  it('every source down: the failure names the sources that were configured, the failover included', async () => {
    const market = {
      ...fakeMarket(() => {
        throw new DataError('Yahoo Finance could not be used (HTTP 429); Tiingo could not be used (HTTP 401)');
      }),
      describeSources: () => ['Yahoo Finance', 'Tiingo (failover for daily bars)'],
    };
    const { statuses, detail } = await doctor({ market });
    expect(statuses.market).toBe('fail');
    expect(detail('market')).toBe(
      'Yahoo Finance could not be used (HTTP 429); Tiingo could not be used (HTTP 401); sources: Yahoo Finance, Tiingo (failover for daily bars)',
    );
  });
});
