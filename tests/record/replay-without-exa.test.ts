/**
 * A run recorded with no EXA_API_KEY told the sentiment desk "exa_search is not
 * configured" and sent no search; its replay must say the same, not send a search the
 * cassette never saw. Built CLI, each run in its own process, the servers stopped
 * before the replay.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import type { Cassette } from '../../src/record/index.js';
import { notConfiguredMessage } from '../../src/search/exa.js';
import { analysisResultSchema } from '../smoke/analysis-result.js';
import { runBuilt } from '../smoke/support.js';
import { comparable, recordAnalyze, sentimentSearchesOnce, useScratch } from './support.js';

const inScratch = useScratch('autohedge-replay-no-exa-');

it('a run recorded without EXA_API_KEY replays with exa_search unconfigured, into the same result, exit 0', async () => {
  const { run: recording, cassette } = await recordAnalyze({
    cassette: inScratch('no-exa.cassette.json'),
    openai: sentimentSearchesOnce,
    exa: false,
    keys: { openai: 'sk-test-noexa0123456789abcdef', yahooCookie: 'A3=d=noexa', yahooCrumb: 'noexacrumb1' },
    args: ['--no-save'],
  });
  expect(recording.code, recording.stderr).toBe(0);
  const recorded = analysisResultSchema.parse(JSON.parse(recording.stdout));
  const searches = recorded.reports.find((report) => report.agent === 'sentiment')?.toolCalls;
  expect(searches?.map((call) => call.error)).toEqual([notConfiguredMessage]);
  const urls = (JSON.parse(readFileSync(cassette, 'utf8')) as Cassette).interactions.map(
    (interaction) => new URL(interaction.url).pathname,
  );
  expect(urls.filter((pathname) => pathname.endsWith('/search'))).toEqual([]);

  const replaying = await runBuilt(['analyze', 'ACME', '--replay', cassette, '--json', '--no-save']);
  expect(replaying.code, replaying.stderr).toBe(0);
  expect(replaying.stderr).not.toContain('no recorded response');
  expect(comparable(analysisResultSchema.parse(JSON.parse(replaying.stdout)))).toEqual(comparable(recorded));
}, 60_000);
