/**
 * A search the cassette does not hold is reported like a chat request: one line naming
 * the agent that searched. The built CLI records `analyze ACME` against loopback
 * stand-ins, the recorded search is changed to another query, and the replay misses it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import type { Cassette } from '../../src/record/index.js';
import { runBuilt } from '../smoke/support.js';
import { recordAnalyze, sentimentSearchesOnce, useScratch } from './support.js';

const inScratch = useScratch('autohedge-exa-miss-');

it('a replayed search with no recording names the sentiment desk in its miss line', async () => {
  const {
    run: recording,
    cassette: recorded,
    exa,
  } = await recordAnalyze({
    cassette: inScratch('searched.cassette.json'),
    openai: sentimentSearchesOnce,
    keys: {
      openai: 'sk-test-examiss0123456789abcdef',
      exa: 'exa-test-examiss0123456789',
      yahooCookie: 'A3=d=examiss',
      yahooCrumb: 'examisscrumb1',
    },
    args: ['--no-save'],
  });
  expect(recording.code, recording.stderr).toBe(0);
  // The search went out with the agent's id, like every chat request.
  expect(exa.requests.map((request) => request.headers['x-autohedge-agent'])).toEqual(['sentiment']);

  // The recorded search now answers another query, so the replayed one finds no match.
  const cassette = JSON.parse(readFileSync(recorded, 'utf8')) as Cassette;
  const searchUrl = `${exa.baseURL}/search`;
  const otherSearch = inScratch('other-search.cassette.json');
  const interactions = cassette.interactions.map((interaction) =>
    interaction.url === searchUrl
      ? { ...interaction, requestBody: { ...(interaction.requestBody as object), query: 'another query' } }
      : interaction,
  );
  expect(interactions.filter((interaction) => interaction.url === searchUrl)).toHaveLength(1);
  writeFileSync(otherSearch, JSON.stringify({ ...cassette, interactions }));

  const replaying = await runBuilt(['analyze', 'ACME', '--replay', otherSearch, '--json', '--no-save']);
  expect(replaying.code).toBe(2);
  expect(replaying.stderr.split('\n')).toContain(
    `autohedge: no recorded response for POST ${searchUrl} (agent: sentiment) in cassette '${otherSearch}'`,
  );
}, 60_000);
