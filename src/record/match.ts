/**
 * How a live request is compared with a recorded one. Recording and replay both
 * run requests through these functions, so "equal" means the same thing on both
 * sides: method, URL with its query in any order, and the body compared as JSON
 * (key order and whitespace do not matter), all after scrubbing.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Interaction } from './cassette.js';
import { scrubText } from '../scrub.js';

export type RequestBody = Interaction['requestBody'];

/** JSON bodies become values (so key order and spacing do not matter); anything else stays text. */
export function parseBody(text: string): RequestBody {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as RequestBody;
  } catch {
    return text;
  }
}

/** Scrubbed, with the query sorted and the fragment dropped. */
export function normalizeUrl(url: string, secrets: readonly string[] = []): string {
  const parsed = new URL(scrubText(url, secrets));
  parsed.hash = '';
  const entries = [...parsed.searchParams].sort(([leftName, leftValue], [rightName, rightValue]) =>
    leftName === rightName ? compare(leftValue, rightValue) : compare(leftName, rightName),
  );
  parsed.search = new URLSearchParams(entries).toString();
  return parsed.toString();
}

function compare(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

export type RequestKey = { method: string; url: string; body: RequestBody };

/** `secrets` are exact values the recording scrubbed, so a live request is scrubbed alike before comparing. */
export function requestKey(method: string, url: string, bodyText: string, secrets: readonly string[] = []): RequestKey {
  return {
    method: method.toUpperCase(),
    url: normalizeUrl(url, secrets),
    body: parseBody(scrubText(bodyText, secrets)),
  };
}

export function interactionKey(interaction: Interaction): RequestKey {
  const body = interaction.requestBody;
  // Recorded bodies are already scrubbed; scrubbing again keeps hand-written cassettes honest too.
  const scrubbedBody = typeof body === 'string' ? parseBody(scrubText(body)) : body;
  return { method: interaction.method.toUpperCase(), url: normalizeUrl(interaction.url), body: scrubbedBody };
}

export function sameRequest(left: RequestKey, right: RequestKey): boolean {
  return left.method === right.method && left.url === right.url && isDeepStrictEqual(left.body, right.body);
}
