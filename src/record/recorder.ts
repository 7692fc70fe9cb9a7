/**
 * Recording: every fetch passes through to the network untouched while a copy of
 * the request and response is kept; stop() scrubs the copies and writes them as one
 * cassette. Nothing reaches disk before scrubbing.
 */
import { agentHeader } from '../constants.js';
import { CassetteError } from '../errors.js';
import { CASSETTE_FORMAT, CASSETTE_VERSION, writeCassette } from './cassette.js';
import type { Cassette, CassetteMeta, Interaction } from './cassette.js';
import { interceptFetch } from './intercept.js';
import { parseBody } from './match.js';
import { MCP_REQUEST_HEADER, type McpSection } from './mcp-section.js';
import { isCrumbUrl, MINIMUM_SECRET_LENGTH, REDACTED, requestCredentials, scrubHeaders, scrubText } from '../scrub.js';

export type RecordingMeta = Omit<CassetteMeta, 'format' | 'version' | 'recordedAt'>;

export type RecordingOptions = {
  /** Exact values to scrub wherever they appear (the caller passes OPENAI_API_KEY, EXA_API_KEY). */
  secrets?: readonly string[];
};

export type Recorder = {
  /** Stops intercepting, waits for bodies still streaming, scrubs, and writes the cassette atomically. */
  stop(path: string): Promise<void>;
  /** Stops intercepting and keeps nothing, for a run that failed before it was worth saving; safe to call after stop(). */
  discard(): void;
  /** Where stop() reads the run's MCP traffic from (recorded at the tool boundary, not as HTTP). */
  attachMcp(source: () => McpSection | undefined): void;
};

/** Enough to follow a recording by eye; the rest (user-agent, sdk telemetry) is noise. */
const KEPT_REQUEST_HEADERS = ['accept', 'authorization', 'content-type', 'cookie', 'x-api-key', agentHeader];

/** fetch has already decoded the body and the length changes with scrubbing; the rest is per-connection. */
const DROPPED_RESPONSE_HEADERS = new Set([
  'connection',
  'content-encoding',
  'content-length',
  'keep-alive',
  'transfer-encoding',
]);

type Captured = {
  sequence: number;
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBodyText: string;
  status: number;
  statusText: string;
  responseHeaders: Record<string, string | string[]>;
  responseBody: Uint8Array;
};

export async function startRecording(meta: RecordingMeta, options: RecordingOptions = {}): Promise<Recorder> {
  const recordedAt = new Date().toISOString();
  const sequenceByRequest = new Map<string, number>();
  const captures: Array<Promise<Captured | undefined>> = [];
  let nextSequence = 0;

  const interception = await interceptFetch({
    request: ({ requestId }) => {
      // Order by when requests started: identical requests replay in this order.
      sequenceByRequest.set(requestId, nextSequence);
      nextSequence += 1;
    },
    response: ({ request, response, requestId }) => {
      if (request.headers.has(MCP_REQUEST_HEADER)) return;
      const sequence = sequenceByRequest.get(requestId) ?? Number.MAX_SAFE_INTEGER;
      // Not awaited: the caller gets the response (and its stream) right away while
      // this copy is read alongside.
      captures.push(capture(sequence, request, response));
    },
  });

  let stopped = false;
  let mcpSource: (() => McpSection | undefined) | undefined;
  const stopIntercepting = () => {
    if (stopped) throw new CassetteError('the recording was already stopped');
    stopped = true;
    interception.dispose();
  };

  return {
    async stop(path) {
      stopIntercepting();
      const captured = (await Promise.all(captures)).filter((item): item is Captured => item !== undefined);
      captured.sort((left, right) => left.sequence - right.sequence);
      const secrets = collectSecrets(captured, options.secrets ?? []);
      const cassette: Cassette = {
        format: CASSETTE_FORMAT,
        version: CASSETTE_VERSION,
        autohedgeVersion: meta.autohedgeVersion,
        asOf: meta.asOf,
        recordedAt,
        argv: meta.argv.map((argument) => scrubText(argument, secrets)),
        ...(meta.demo === undefined ? {} : { demo: meta.demo }),
        ...(meta.note === undefined ? {} : { note: scrubText(meta.note, secrets) }),
        interactions: captured.map((item) => toInteraction(item, secrets)),
      };
      const mcp = mcpSource?.();
      if (mcp) cassette.mcp = JSON.parse(scrubText(JSON.stringify(mcp), secrets)) as McpSection;
      assertNoSecretLeft(JSON.stringify(cassette), secrets, path);
      assertNoSecretInBinary(captured, secrets, path);
      await writeCassette(path, cassette);
    },
    // Idempotent: it is the cleanup after a stop() that failed (disk full, read-only, a
    // secret left), and must not replace that failure's cause with its own.
    discard() {
      if (!stopped) stopIntercepting();
    },
    attachMcp(source) {
      mcpSource = source;
    },
  };
}

async function capture(sequence: number, request: Request, response: Response): Promise<Captured | undefined> {
  try {
    const [requestBodyText, responseBody] = await Promise.all([request.text(), response.arrayBuffer()]);
    const requestHeaders: Record<string, string> = {};
    for (const name of KEPT_REQUEST_HEADERS) {
      const value = request.headers.get(name);
      if (value !== null) requestHeaders[name] = value;
    }
    const responseHeaders: Record<string, string | string[]> = {};
    for (const [name, value] of response.headers) {
      if (DROPPED_RESPONSE_HEADERS.has(name) || name === 'set-cookie') continue;
      responseHeaders[name] = value;
    }
    const setCookies = response.headers.getSetCookie();
    if (setCookies.length > 0) responseHeaders['set-cookie'] = setCookies;
    return {
      sequence,
      method: request.method,
      url: request.url,
      requestHeaders,
      requestBodyText,
      status: response.status,
      statusText: response.statusText,
      responseHeaders,
      responseBody: new Uint8Array(responseBody),
    };
  } catch {
    // The caller aborted mid-stream: there is no complete exchange to replay.
    return undefined;
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function decodeBody(bytes: Uint8Array): { text: string } | { base64: string } {
  try {
    return { text: utf8.decode(bytes) };
  } catch {
    return { base64: Buffer.from(bytes).toString('base64') };
  }
}

function collectSecrets(captured: readonly Captured[], given: readonly string[]): string[] {
  const secrets = new Set(given);
  for (const item of captured) {
    for (const credential of requestCredentials((name) => item.requestHeaders[name])) secrets.add(credential);
    if (isCrumbUrl(item.url)) {
      const body = decodeBody(item.responseBody);
      if ('text' in body && body.text.trim() !== '') secrets.add(body.text.trim());
    }
  }
  // A cookie or crumb of a few characters would match ordinary text; scrubSecrets skips those.
  return [...secrets];
}

function toInteraction(item: Captured, secrets: readonly string[]): Interaction {
  const body = decodeBody(item.responseBody);
  // The crumb is replaced by the same word in the getcrumb body and in every crumb= URL,
  // so a replayed yahoo-finance2 asks for exactly the URLs that were recorded.
  const responseBody =
    isCrumbUrl(item.url) && item.status === 200
      ? REDACTED
      : 'text' in body
        ? scrubText(body.text, secrets)
        : body.base64;
  const requestBody = parseBody(scrubText(item.requestBodyText, secrets));
  return {
    method: item.method,
    url: scrubText(item.url, secrets),
    requestHeaders: scrubHeaders(item.requestHeaders, secrets) as Record<string, string>,
    ...(requestBody === undefined ? {} : { requestBody }),
    status: item.status,
    ...(item.statusText === '' ? {} : { statusText: item.statusText }),
    responseHeaders: scrubHeaders(item.responseHeaders, secrets),
    responseBody,
    ...('base64' in body ? { responseBodyEncoding: 'base64' as const } : {}),
  };
}

/**
 * A body that is not UTF-8 is stored as base64, which no text scrubbing can reach and in
 * which no key shows literally: a binary answer echoing a key is refused instead.
 */
function assertNoSecretInBinary(captured: readonly Captured[], secrets: readonly string[], path: string): void {
  const binary = captured
    .filter((item) => 'base64' in decodeBody(item.responseBody))
    .map((item) => Buffer.from(item.responseBody));
  const leaked = secrets.some(
    (secret) => secret.length >= MINIMUM_SECRET_LENGTH && binary.some((body) => body.includes(secret)),
  );
  if (leaked)
    throw new CassetteError(
      `refusing to write cassette '${path}': a secret survived scrubbing (in a binary response body)`,
    );
}

/** Last line of defence: refuse to write rather than leak a key the patterns missed. */
function assertNoSecretLeft(text: string, secrets: readonly string[], path: string): void {
  const leaked = secrets.some((secret) => secret.length >= MINIMUM_SECRET_LENGTH && text.includes(secret));
  if (leaked) throw new CassetteError(`refusing to write cassette '${path}': a secret survived scrubbing`);
}
