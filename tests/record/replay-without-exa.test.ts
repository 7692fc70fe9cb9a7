/**
 * A run recorded with no EXA_API_KEY told the sentiment desk "exa_search is not
 * configured" and sent no search; its replay must say the same, not send a search the
 * cassette never saw. Built CLI, each run in its own process, the servers stopped
 * before the replay.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Cassette } from '../../src/record/index.js';
import { notConfiguredMessage } from '../../src/tools/exa-search.js';
import { analysisResultSchema, type CheckedResult } from '../smoke/analysis-result.js';
import { ensureBuilt, repoRoot, runBuilt } from '../smoke/support.js';
import { agentOf, goodAnswer } from '../support/faults.js';
import { startOpenAIServer, toolCallAnswer } from '../support/openai-server.js';

const preload = pathToFileURL(path.join(repoRoot, 'tests', 'smoke', 'synthetic-yahoo.preload.mjs')).href;

let scratch: string;

beforeAll(async () => {
  await ensureBuilt();
  scratch = mkdtempSync(path.join(tmpdir(), 'autohedge-replay-no-exa-'));
}, 180_000);

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** Two runs of the same cassette differ in their identity and timings only. */
function comparable(result: CheckedResult) {
  const { runId: _runId, startedAt: _startedAt, durationMs: _durationMs, ...rest } = result;
  return {
    ...rest,
    reports: rest.reports.map(({ durationMs: _report, ...report }) => ({ ...report, toolCalls: report.toolCalls.map(({ durationMs: _call, ...call }) => call) })),
  };
}

it('a run recorded without EXA_API_KEY replays with exa_search unconfigured, into the same result, exit 0', async () => {
  const openai = await startOpenAIServer((body, _index, request) => {
    const agent = agentOf(request);
    const searched = body.messages.some((message: { role: string }) => message.role === 'tool');
    if (agent === 'sentiment' && !searched) return toolCallAnswer([{ id: 'call_news', name: 'exa_search', arguments: { query: 'Acme Robotics news' } }]);
    return goodAnswer(agent, body);
  });
  const cassette = path.join(scratch, 'no-exa.cassette.json');
  let recording;
  try {
    recording = await runBuilt(['analyze', 'ACME', '--record', cassette, '--json', '--no-save'], {
      nodeArguments: ['--import', preload],
      env: { OPENAI_API_KEY: 'sk-test-noexa0123456789abcdef', OPENAI_BASE_URL: openai.url, YAHOO_STUB_COOKIE: 'A3=d=noexa', YAHOO_STUB_CRUMB: 'noexacrumb1' },
    });
  } finally {
    await openai.close();
  }
  expect(recording.code, recording.stderr).toBe(0);
  const recorded = analysisResultSchema.parse(JSON.parse(recording.stdout));
  const searches = recorded.reports.find((report) => report.agent === 'sentiment')?.toolCalls;
  expect(searches?.map((call) => call.error)).toEqual([notConfiguredMessage]);
  const urls = (JSON.parse(readFileSync(cassette, 'utf8')) as Cassette).interactions.map((interaction) => new URL(interaction.url).pathname);
  expect(urls.filter((pathname) => pathname.endsWith('/search'))).toEqual([]);

  const replaying = await runBuilt(['analyze', 'ACME', '--replay', cassette, '--json', '--no-save']);
  expect(replaying.code, replaying.stderr).toBe(0);
  expect(replaying.stderr).not.toContain('no recorded response');
  expect(comparable(analysisResultSchema.parse(JSON.parse(replaying.stdout)))).toEqual(comparable(recorded));
}, 60_000);
