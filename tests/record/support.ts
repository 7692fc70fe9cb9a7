/**
 * Setup shared by the record → replay tests that drive the BUILT CLI: a scratch
 * directory per test file, and "record `analyze ACME` against loopback OpenAI and Exa
 * stand-ins (Yahoo answered by the synthetic preload), then stop them", so every
 * replay that follows runs with nothing listening.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import type { CheckedResult } from '../smoke/analysis-result.js';
import { ensureBuilt, repoRoot, runBuilt, type ChildRun } from '../smoke/support.js';
import { startExaStub, type ExaStub, type ExaStubResponder } from '../support/exa-server.js';
import { agentOf, goodAnswer } from '../support/faults.js';
import {
  startOpenAIServer,
  toolCallAnswer,
  type OpenAIServer,
  type Reply,
  type ReplyHandler,
} from '../support/openai-server.js';

/** Yahoo's hosts cannot be given a base URL, so a test-only preload answers them from the synthetic market. */
const preload = pathToFileURL(path.join(repoRoot, 'tests', 'smoke', 'synthetic-yahoo.preload.mjs')).href;

/**
 * Registers this file's hooks: before its tests, build the CLI if stale and make a
 * scratch directory; after them, remove it. Returns a function naming a path inside
 * that directory (call it inside tests, once the hooks have run).
 */
export function useScratch(prefix: string): (name: string) => string {
  let scratch: string | undefined;
  beforeAll(async () => {
    await ensureBuilt();
    scratch = mkdtempSync(path.join(tmpdir(), prefix));
  }, 180_000);
  afterAll(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });
  return (name) => {
    if (!scratch) throw new Error('the scratch directory exists only inside tests');
    return path.join(scratch, name);
  };
}

export interface RecordOptions {
  /** Where the cassette is written. */
  cassette: string;
  openai: Reply[] | ReplyHandler;
  /** How the Exa stub answers (default: no results); false starts none and sets no EXA_API_KEY, so exa_search is unconfigured. */
  exa?: ExaStubResponder | false;
  /** The keys in the recording's environment; `exa` is used only with an Exa stub. */
  keys: { openai: string; exa?: string; yahooCookie: string; yahooCrumb: string };
  /** After `analyze ACME --record <cassette> --json`. */
  args?: string[];
  home?: string;
}

export interface Recording {
  run: ChildRun;
  cassette: string;
  /** The servers are stopped; what they were asked stays readable. */
  openai: Pick<OpenAIServer, 'url' | 'requests'>;
  exa: Pick<ExaStub, 'baseURL' | 'requests'>;
}

/** Records `analyze ACME` through the built CLI against loopback servers, then stops them (also when the run fails). */
export async function recordAnalyze(options: RecordOptions & { exa: false }): Promise<Omit<Recording, 'exa'>>;
export async function recordAnalyze(options: RecordOptions): Promise<Recording>;
export async function recordAnalyze(options: RecordOptions): Promise<Omit<Recording, 'exa'> & Partial<Recording>> {
  const openai = await startOpenAIServer(options.openai);
  const exa = options.exa === false ? undefined : await startExaStub(options.exa);
  const env: Record<string, string> = {
    OPENAI_API_KEY: options.keys.openai,
    OPENAI_BASE_URL: openai.url,
    YAHOO_STUB_COOKIE: options.keys.yahooCookie,
    YAHOO_STUB_CRUMB: options.keys.yahooCrumb,
  };
  if (exa) {
    if (options.keys.exa) env.EXA_API_KEY = options.keys.exa;
    env.EXA_BASE_URL = exa.baseURL;
  }
  try {
    const run = await runBuilt(['analyze', 'ACME', '--record', options.cassette, '--json', ...(options.args ?? [])], {
      home: options.home,
      nodeArguments: ['--import', preload],
      env,
    });
    return { run, cassette: options.cassette, openai, exa };
  } finally {
    await openai.close();
    await exa?.close();
  }
}

/** The sentiment desk searches 'Acme Robotics news' once; every other request gets its good answer. */
export const sentimentSearchesOnce: ReplyHandler = (body, _index, request) => {
  const agent = agentOf(request);
  const searched = body.messages.some((message: { role: string }) => message.role === 'tool');
  if (agent === 'sentiment' && !searched)
    return toolCallAnswer([{ id: 'call_news', name: 'exa_search', arguments: { query: 'Acme Robotics news' } }]);
  return goodAnswer(agent, body);
};

/** The run's identity and timings differ between two runs of the same cassette; nothing else may. */
export function comparable(result: CheckedResult) {
  const { runId: _runId, startedAt: _startedAt, durationMs: _durationMs, ...rest } = result;
  return {
    ...rest,
    reports: rest.reports.map(({ durationMs: _report, ...report }) => ({
      ...report,
      toolCalls: report.toolCalls.map(({ durationMs: _call, ...call }) => call),
    })),
  };
}
