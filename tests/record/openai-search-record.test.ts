/**
 * `--search openai` under --record / --replay through the BUILT CLI: the search model's
 * exchange is HTTP through the same interception as every other call, so it is recorded,
 * and the replay (servers stopped, no keys) answers Sentiment's search from the cassette.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { analysisResultSchema } from '../smoke/analysis-result.js';
import { findSecrets } from '../smoke/secrets.js';
import { runBuilt } from '../smoke/support.js';
import { isSearchRequest, searchAnswer, threeCitations, withSearchModel } from '../support/search-model.js';
import { comparable, recordAnalyze, sentimentSearchesOnce, useScratch } from './support.js';

const canaries = {
  openai: `sk-canary-${randomBytes(16).toString('hex')}`,
  yahooCookie: `d=AQABBcanary${randomBytes(8).toString('hex')}&S=AQAAAcanary`,
  yahooCrumb: `cRuMb${randomBytes(4).toString('hex')}`,
};

const inScratch = useScratch('autohedge-openai-search-');

it('a run searching with --search openai records the search model exchange and replays it with nothing listening', async () => {
  const {
    run: recording,
    cassette,
    openai,
  } = await recordAnalyze({
    cassette: inScratch('search.cassette.json'),
    openai: withSearchModel(() => searchAnswer(threeCitations), sentimentSearchesOnce),
    exa: false,
    keys: canaries,
    args: ['--search', 'openai'],
  });
  expect(recording.code, recording.stderr).toBe(0);
  const recorded = analysisResultSchema.parse(JSON.parse(recording.stdout));
  expect(openai.requests.filter((request) => isSearchRequest(request.body))).toHaveLength(1);
  expect(recorded.reports[3]?.toolCalls[0]?.result).toContain(threeCitations[2]!.title);
  expect(recorded.search).toEqual({ provider: 'openai', model: 'gpt-4o-mini-search-preview' });

  const cassetteText = readFileSync(cassette, 'utf8');
  expect(cassetteText).toContain('web_search_options');
  expect(findSecrets(cassetteText, Object.values(canaries))).toEqual([]);

  const replaying = await runBuilt(['analyze', 'ACME', '--replay', cassette, '--json', '--search', 'openai']);
  expect(replaying.stderr.includes('autohedge:'), replaying.stderr).toBe(false);
  expect(replaying.code).toBe(0);
  const replayed = analysisResultSchema.parse(JSON.parse(replaying.stdout));
  expect(comparable(replayed)).toEqual(comparable(recorded));
}, 60_000);
