/**
 * A search the cassette does not hold is reported like a chat request: one line naming
 * the agent that searched. The built CLI records `analyze ACME` against loopback
 * stand-ins, the recorded search is changed to another query, and the replay misses it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Cassette } from '../../src/record/index.js';
import { ensureBuilt, repoRoot, runBuilt } from '../smoke/support.js';
import { startExaStub } from '../support/exa-server.js';
import { agentOf, goodAnswer } from '../support/faults.js';
import { startOpenAIServer, toolCallAnswer } from '../support/openai-server.js';

const preload = pathToFileURL(path.join(repoRoot, 'tests', 'smoke', 'synthetic-yahoo.preload.mjs')).href;

let scratch: string;

beforeAll(async () => {
  await ensureBuilt();
  scratch = mkdtempSync(path.join(tmpdir(), 'autohedge-exa-miss-'));
}, 180_000);

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

it('a replayed search with no recording names the sentiment desk in its miss line', async () => {
  const openai = await startOpenAIServer((body, _index, request) => {
    const agent = agentOf(request);
    const searched = body.messages.some((message: { role: string }) => message.role === 'tool');
    if (agent === 'sentiment' && !searched) return toolCallAnswer([{ id: 'call_news', name: 'exa_search', arguments: { query: 'Acme Robotics news' } }]);
    return goodAnswer(agent, body);
  });
  const exa = await startExaStub();
  const recorded = path.join(scratch, 'searched.cassette.json');
  let recording;
  try {
    recording = await runBuilt(['analyze', 'ACME', '--record', recorded, '--json', '--no-save'], {
      nodeArguments: ['--import', preload],
      env: {
        OPENAI_API_KEY: 'sk-test-examiss0123456789abcdef',
        EXA_API_KEY: 'exa-test-examiss0123456789',
        OPENAI_BASE_URL: openai.url,
        EXA_BASE_URL: exa.baseURL,
        YAHOO_STUB_COOKIE: 'A3=d=examiss',
        YAHOO_STUB_CRUMB: 'examisscrumb1',
      },
    });
  } finally {
    await openai.close();
    await exa.close();
  }
  expect(recording.code, recording.stderr).toBe(0);
  // The search went out with the agent's id, like every chat request.
  expect(exa.requests.map((request) => request.headers['x-autohedge-agent'])).toEqual(['sentiment']);

  // The recorded search now answers another query, so the replayed one finds no match.
  const cassette = JSON.parse(readFileSync(recorded, 'utf8')) as Cassette;
  const searchUrl = `${exa.baseURL}/search`;
  const otherSearch = path.join(scratch, 'other-search.cassette.json');
  const interactions = cassette.interactions.map((interaction) =>
    interaction.url === searchUrl ? { ...interaction, requestBody: { ...(interaction.requestBody as object), query: 'another query' } } : interaction,
  );
  expect(interactions.filter((interaction) => interaction.url === searchUrl)).toHaveLength(1);
  writeFileSync(otherSearch, JSON.stringify({ ...cassette, interactions }));

  const replaying = await runBuilt(['analyze', 'ACME', '--replay', otherSearch, '--json', '--no-save']);
  expect(replaying.code).toBe(2);
  expect(replaying.stderr.split('\n')).toContain(`autohedge: no recorded response for POST ${searchUrl} (agent: sentiment) in cassette '${otherSearch}'`);
}, 60_000);
