/**
 * Replay: every fetch is answered from the cassette and nothing reaches the
 * network. A request with no recorded match is rejected at once with a
 * ReplayMissError (one line: method, URL, sending agent, cassette), never passed
 * through and never left hanging.
 */
import { CassetteError, errorMessage } from '../errors.js';
import { readCassette } from './cassette.js';
import type { CassetteMeta, Interaction } from './cassette.js';
import { interceptFetch } from './intercept.js';
import { interactionKey, requestKey, sameRequest } from './match.js';
import type { RequestKey } from './match.js';
import { ReplayMissError } from './replay-miss.js';
import type { ReplayMiss } from './replay-miss.js';
import type { McpSection } from './mcp-section.js';
import { requestCredentials, scrubText } from '../scrub.js';
import { agentHeader } from '../constants.js';

export type Replay = {
  /** The recorded run's identity; the caller sets the run clock from `meta.asOf`. */
  readonly meta: CassetteMeta;
  readonly path: string;
  /** The recorded requests' URLs, in recorded order: which servers and symbols the cassette holds. */
  readonly urls: readonly string[];
  /** Requests that found no recorded response, each once, in the order they were first made. */
  readonly unmatched: readonly ReplayMiss[];
  /** How many recorded exchanges were never asked for. */
  readonly unused: number;
  /** The recorded MCP traffic, when the run used MCP servers: replayed at the tool boundary, nothing spawned. */
  readonly mcp: McpSection | undefined;
  /** Stops answering and restores the real fetch. */
  stop(): void;
};

type Slot = { interaction: Interaction; key: RequestKey; used: boolean };

/**
 * Only the body and status decide what the SDKs see: the encoding and length headers
 * would contradict the stored text, and a recorded 429's wait (retry-after) was already
 * waited out when it was recorded, so a replayed retry must not wait for it again.
 */
const DROPPED_REPLAY_HEADERS = new Set([
  'content-encoding',
  'content-length',
  'transfer-encoding',
  'retry-after',
  'retry-after-ms',
]);
const NULL_BODY_STATUSES = new Set([204, 205, 304]);

export type ReplayOptions = {
  /**
   * The same exact secrets given when recording (OPENAI_API_KEY, EXA_API_KEY values,
   * when set): the recording scrubbed them, so live requests are scrubbed alike
   * before matching. Credentials in request headers are added automatically.
   */
  secrets?: readonly string[];
};

export async function startReplay(path: string, options: ReplayOptions = {}): Promise<Replay> {
  const { interactions, mcp, ...meta } = await readCassette(path);
  // Kept in recorded order: of several identical requests, the first unused one answers.
  const slots: Slot[] = interactions.map((interaction) => ({
    interaction,
    key: interactionKey(interaction),
    used: false,
  }));
  const unmatched: ReplayMiss[] = [];
  const seenMisses = new Set<string>();
  // Grows like the recording's did: a key seen in one request's headers is scrubbed from every body.
  const secrets = new Set(options.secrets ?? []);

  const interception = await interceptFetch({
    request: async ({ request, controller }) => {
      for (const credential of requestCredentials((name) => request.headers.get(name))) secrets.add(credential);
      const key = requestKey(request.method, request.url, await request.text(), [...secrets]);
      const slot = slots.find((candidate) => !candidate.used && sameRequest(candidate.key, key));
      if (slot === undefined) {
        const miss: ReplayMiss = {
          method: key.method,
          url: scrubText(request.url, [...secrets]),
          agent: request.headers.get(agentHeader),
        };
        const error = new ReplayMissError(miss, path);
        // An SDK retrying a failed request repeats the same miss; report it once.
        if (!seenMisses.has(error.message)) {
          seenMisses.add(error.message);
          unmatched.push(miss);
        }
        controller.errorWith(error);
        return;
      }
      slot.used = true;
      try {
        controller.respondWith(toResponse(slot.interaction));
      } catch (error) {
        controller.errorWith(
          new CassetteError(
            `cannot replay '${path}': recorded response for ${key.method} ${key.url} is invalid: ${errorMessage(error)}`,
            {
              cause: error,
            },
          ),
        );
      }
    },
  });

  let stopped = false;
  const urls = interactions.map((interaction) => interaction.url);
  return {
    meta,
    path,
    urls,
    mcp,
    get unmatched() {
      return [...unmatched];
    },
    get unused() {
      return slots.filter((slot) => !slot.used).length;
    },
    stop() {
      if (stopped) return;
      stopped = true;
      interception.dispose();
    },
  };
}

function toResponse(interaction: Interaction): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(interaction.responseHeaders)) {
    if (DROPPED_REPLAY_HEADERS.has(name.toLowerCase())) continue;
    for (const one of typeof value === 'string' ? [value] : value) headers.append(name, one);
  }
  const recorded = interaction.responseBody;
  let body: string | Buffer;
  if (interaction.responseBodyEncoding === 'base64' && typeof recorded === 'string') {
    body = Buffer.from(recorded, 'base64');
  } else if (typeof recorded === 'string') {
    body = recorded;
  } else {
    // A hand-written cassette may give the body as a JSON value.
    body = JSON.stringify(recorded);
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  }
  return new Response(NULL_BODY_STATUSES.has(interaction.status) ? null : body, {
    status: interaction.status,
    headers,
    ...(interaction.statusText === undefined ? {} : { statusText: interaction.statusText }),
  });
}
