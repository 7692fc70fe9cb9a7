/**
 * The Director's review pass under --replay: a cassette recorded before reviews
 * existed (or by a run whose decision needed none) lacks the review exchange. The
 * replay then keeps the first decision, flagged, with a warning — not a replay miss,
 * not exit 2.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import type { Cassette } from '../../src/record/index.js';
import { analysisResultSchema } from '../smoke/analysis-result.js';
import { runBuilt } from '../smoke/support.js';
import { agentOf, decisionAt, goodAnswer, lastCloseIn, schemaOf } from '../support/faults.js';
import { textAnswer, type ReplyHandler } from '../support/openai-server.js';
import { recordAnalyze, useScratch } from './support.js';

const inScratch = useScratch('autohedge-review-replay-');

const reviewMarker = 'Your decision breaks these rules';
const isReview = (body: any) => JSON.stringify(body?.messages?.at(-1) ?? {}).includes(reviewMarker);

/** The Director's first decision puts the stop above a BUY's entry; its revision is sane. */
const revisingDirector: ReplyHandler = (body, _index, request) => {
  const agent = agentOf(request);
  if (agent !== 'director' || schemaOf(body) !== 'decision') return goodAnswer(agent, body);
  const sane = decisionAt(lastCloseIn(body)) as { entry: number };
  return textAnswer(JSON.stringify(isReview(body) ? sane : { ...sane, stopLoss: sane.entry + 1 }));
};

it('a review the cassette does not hold leaves the first decision standing, flagged, exit 4, with a warning and no miss line', async () => {
  const { run: recording, cassette } = await recordAnalyze({
    cassette: inScratch('reviewed.cassette.json'),
    openai: revisingDirector,
    keys: {
      openai: 'sk-test-review0123456789abcdef',
      exa: 'exa-test-review0123456789',
      yahooCookie: 'A3=d=reviewtest',
      yahooCrumb: 'reviewcrumb1',
    },
    args: ['--no-save'],
  });
  expect(recording.code, recording.stderr).toBe(0);
  const recorded = analysisResultSchema.parse(JSON.parse(recording.stdout));
  expect(recorded.status).toBe('ok');
  expect(recorded.decisionHistory).toHaveLength(2);

  // The whole cassette replays as recorded, review included.
  const full = await runBuilt(['analyze', 'ACME', '--replay', cassette, '--json', '--no-save']);
  expect(full.code, full.stderr).toBe(0);

  const original = JSON.parse(readFileSync(cassette, 'utf8')) as Cassette;
  const withoutReview = {
    ...original,
    interactions: original.interactions.filter((interaction) => !isReview(interaction.requestBody)),
  };
  expect(withoutReview.interactions).toHaveLength(original.interactions.length - 1);
  const trimmed = inScratch('no-review.cassette.json');
  writeFileSync(trimmed, JSON.stringify(withoutReview));

  const replaying = await runBuilt(['analyze', 'ACME', '--replay', trimmed, '--json', '--no-save']);
  expect(replaying.code, replaying.stderr).toBe(4);
  expect(replaying.stderr).not.toContain('no recorded response');
  const replayed = analysisResultSchema.parse(JSON.parse(replaying.stdout));
  expect(replayed.status).toBe('flagged');
  expect(replayed.decision).toEqual(recorded.decisionHistory?.[0]?.decision);
  expect(replayed.decisionHistory).toHaveLength(1);
  expect(replayed.warnings).toContain(
    "the Director's review could not be replayed: the cassette holds no review exchange, so the decision before it stands",
  );
}, 90_000);
