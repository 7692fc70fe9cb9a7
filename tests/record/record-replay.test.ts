import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CassetteError } from '../../src/errors.js';
import { startRecording, startReplay } from '../../src/record/index.js';
import type { Cassette } from '../../src/record/index.js';
import { startServer, type LocalServer } from '../support/local-server.js';
import { answerCompletion, echoText, startEchoServer, type OpenAIServer } from '../support/openai-server.js';
import { startYahooServer } from '../support/yahoo.js';

const meta = {
  autohedgeVersion: '0.1.0',
  asOf: '2026-01-05T21:00:00.000Z',
  argv: ['analyze', 'NVDA', '--record', 'nvda.json'],
};
const apiKey = 'sk-test-recordreplay0123456789';

let directory: string;
let servers: Array<{ close(): Promise<void> }>;

beforeEach(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'autohedge-record-'));
  servers = [];
});

afterEach(async () => {
  await Promise.all(servers.map((server) => server.close().catch(() => undefined)));
  await rm(directory, { recursive: true, force: true });
});

async function serve<T extends { close(): Promise<void> }>(started: Promise<T>): Promise<T> {
  const server = await started;
  servers.push(server);
  return server;
}

async function withDeadline<T>(promise: Promise<T>, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(message)), 3000);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

async function readCassetteFile(file: string): Promise<{ text: string; cassette: Cassette }> {
  const text = await readFile(file, 'utf8');
  return { text, cassette: JSON.parse(text) as Cassette };
}

function chatClient(server: OpenAIServer): OpenAI {
  return new OpenAI({ apiKey, baseURL: server.url, maxRetries: 0 });
}

async function streamedChat(client: OpenAI, content: string) {
  const stream = await client.chat.completions.create(
    {
      model: 'gpt-4o-mini',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content }],
    },
    { headers: { 'x-autohedge-agent': 'sentiment' } },
  );
  let text = '';
  let usage: unknown = null;
  for await (const chunk of stream) {
    text += chunk.choices[0]?.delta.content ?? '';
    if (chunk.usage) usage = chunk.usage;
  }
  return { text, usage };
}

async function plainChat(client: OpenAI, content: string) {
  const completion = await client.chat.completions.create(
    { model: 'gpt-4o-mini', messages: [{ role: 'user', content }] },
    { headers: { 'x-autohedge-agent': 'quant' } },
  );
  return { id: completion.id, text: completion.choices[0]?.message.content, usage: completion.usage };
}

/** Raw bytes of a streamed completion, read through native fetch. */
async function rawStream(server: OpenAIServer, content: string): Promise<string> {
  const response = await fetch(`${server.url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
    body: JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content }] }),
  });
  return response.text();
}

/** yahoo-finance2's handshake, by hand: page -> cookies -> getcrumb -> data URL with crumb=. */
async function yahooHandshake(server: LocalServer) {
  const page = await fetch(`${server.url}/quote/AAPL`, { redirect: 'manual', headers: { accept: 'text/html' } });
  const setCookies = page.headers.getSetCookie();
  await page.text();
  const cookie = setCookies.map((line) => line.split(';')[0]).join('; ');
  const crumbResponse = await fetch(`${server.url}/v1/test/getcrumb`, { headers: { cookie } });
  const crumb = await crumbResponse.text();
  const quote = await fetch(
    `${server.url}/v7/finance/quote?symbols=AAPL&crumb=${encodeURIComponent(crumb)}&formatted=false`,
    {
      headers: { cookie },
    },
  );
  return { setCookies, crumb, quoteStatus: quote.status, quoteText: await quote.text() };
}

describe('record then replay with the services stopped', () => {
  it('replays a streamed completion, a JSON completion and the cookie/crumb handshake', async () => {
    const chat = await serve(startEchoServer());
    const yahoo = await serve(startYahooServer({ cookie: 'cookieSecretValue42', crumb: 'Xy7crumbQ.2' }));
    const file = path.join(directory, 'nested', 'run.json');

    const recorder = await startRecording(meta);
    const client = chatClient(chat);
    const recorded = {
      streamed: await streamedChat(client, 'streamed hello'),
      plain: await plainChat(client, 'plain hello'),
      rawStream: await rawStream(chat, 'raw bytes please'),
      yahoo: await yahooHandshake(yahoo),
    };
    await recorder.stop(file);
    await Promise.all(servers.map((server) => server.close()));

    // Sanity: the live services really answered what the replay must reproduce.
    expect(recorded.streamed).toMatchObject({
      text: 'echo: streamed hello',
      usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 },
    });
    expect(recorded.plain.text).toBe('echo: plain hello');
    expect(recorded.yahoo.quoteStatus).toBe(200);
    expect(recorded.yahoo.crumb).toBe('Xy7crumbQ.2');

    const { text, cassette } = await readCassetteFile(file);
    expect(cassette).toMatchObject({ format: 'autohedge-cassette', version: 2, ...meta });
    expect(
      cassette.interactions.map((interaction) => `${interaction.method} ${new URL(interaction.url).pathname}`),
    ).toEqual([
      'POST /v1/chat/completions',
      'POST /v1/chat/completions',
      'POST /v1/chat/completions',
      'GET /quote/AAPL',
      'GET /v1/test/getcrumb',
      'GET /v7/finance/quote',
    ]);
    const [streamedInteraction, plainInteraction, , page, crumb, quote] = cassette.interactions;
    // SSE is kept as the raw text; JSON as the exact (pretty-printed) string the server sent.
    expect(streamedInteraction?.responseBody).toMatch(/^data: \{.*\}\n\ndata: .*data: \[DONE\]\n\n$/s);
    expect(plainInteraction?.responseBody).toBe(
      JSON.stringify(
        answerCompletion({
          id: 'chatcmpl-2',
          model: 'gpt-4o-mini',
          text: 'echo: plain hello',
          usage: { prompt_tokens: 7, completion_tokens: 3 },
        }),
        null,
        2,
      ),
    );
    expect(plainInteraction?.responseBody).toContain('\n  "id": "chatcmpl-2",\n');
    expect(streamedInteraction?.requestHeaders).toEqual({
      accept: 'application/json',
      authorization: 'REDACTED',
      'content-type': 'application/json',
      'x-autohedge-agent': 'sentiment',
    });
    expect(streamedInteraction?.requestBody).toEqual({
      model: 'gpt-4o-mini',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'streamed hello' }],
    });
    expect(page?.responseHeaders['set-cookie']).toEqual([
      'A3=REDACTED; Max-Age=31557600; Domain=.yahoo.com; Path=/; SameSite=None; Secure; HttpOnly',
      'A1S=REDACTED; Max-Age=31557600; Domain=.yahoo.com; Path=/',
    ]);
    expect(crumb?.responseBody).toBe('REDACTED');
    expect(crumb?.requestHeaders.cookie).toBe('A3=REDACTED; A1S=REDACTED');
    expect(quote?.url).toBe(`${yahoo.url}/v7/finance/quote?symbols=AAPL&crumb=REDACTED&formatted=false`);
    for (const secret of ['cookieSecretValue42', 'Xy7crumbQ.2', apiKey, 'org-canaryorganisation']) {
      expect(text).not.toContain(secret);
    }

    const replay = await startReplay(file);
    try {
      expect(replay.meta).toEqual({
        format: 'autohedge-cassette',
        version: 2,
        ...meta,
        recordedAt: cassette.recordedAt,
      });
      const replayClient = chatClient(chat);
      expect(await streamedChat(replayClient, 'streamed hello')).toEqual(recorded.streamed);
      expect(await plainChat(replayClient, 'plain hello')).toEqual(recorded.plain);
      expect(await rawStream(chat, 'raw bytes please')).toBe(recorded.rawStream);
      // The scrubbed cookie and crumb are consistent, so the handshake still completes.
      expect(await yahooHandshake(yahoo)).toEqual({
        setCookies: [
          'A3=REDACTED; Max-Age=31557600; Domain=.yahoo.com; Path=/; SameSite=None; Secure; HttpOnly',
          'A1S=REDACTED; Max-Age=31557600; Domain=.yahoo.com; Path=/',
        ],
        crumb: 'REDACTED',
        quoteStatus: 200,
        quoteText: recorded.yahoo.quoteText,
      });
      expect(replay.unmatched).toEqual([]);
      expect(replay.unused).toBe(0);
    } finally {
      replay.stop();
    }
  });

  it('keeps a recorded stream flowing to the caller while it is being recorded', async () => {
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const server = await serve(
      startServer(async (_request, _body, response) => {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write('data: one\n\n');
        // The second event is only sent once the client has seen the first one.
        await released;
        response.end('data: two\n\n');
      }),
    );
    const recorder = await startRecording(meta);
    // Were the recorder to buffer the stream, the response would wait for the end of a stream that waits for us.
    const { reader, first } = await withDeadline(
      fetch(`${server.url}/events`).then(async (response) => {
        const bodyReader = response.body!.getReader();
        return { reader: bodyReader, first: await bodyReader.read() };
      }),
      'the first event never reached the caller while the stream was open',
    );
    expect(new TextDecoder().decode(first.value)).toBe('data: one\n\n');
    release();
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      rest += new TextDecoder().decode(chunk.value);
    expect(rest).toBe('data: two\n\n');
    const file = path.join(directory, 'stream.json');
    await recorder.stop(file);
    const { cassette } = await readCassetteFile(file);
    expect(cassette.interactions[0]?.responseBody).toBe('data: one\n\ndata: two\n\n');
  });

  it('matches concurrent requests by body, whatever order they arrive in', async () => {
    const contents = ['first', 'second', 'third'];
    // The first request is answered last, so recording order and completion order differ.
    const chat = await serve(
      startEchoServer({ delayFor: (body) => (body.messages[0]?.content === 'first' ? 120 : 10) }),
    );
    const file = path.join(directory, 'concurrent.json');
    const recorder = await startRecording(meta);
    const client = chatClient(chat);
    const recorded = await Promise.all(contents.map((content) => plainChat(client, content)));
    await recorder.stop(file);
    await chat.close();

    const replay = await startReplay(file);
    try {
      const replayClient = chatClient(chat);
      const reversed = [...contents].reverse();
      const replayed = await Promise.all(reversed.map((content) => plainChat(replayClient, content)));
      expect(replayed.map((result) => result.text)).toEqual(
        reversed.map((content) => echoText({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }] })),
      );
      expect(replayed.reverse()).toEqual(recorded);
    } finally {
      replay.stop();
    }
  });

  it('serves identical requests in recorded order', async () => {
    const chat = await serve(startEchoServer());
    const file = path.join(directory, 'identical.json');
    const recorder = await startRecording(meta);
    const client = chatClient(chat);
    const firstId = (await plainChat(client, 'same')).id;
    const secondId = (await plainChat(client, 'same')).id;
    await recorder.stop(file);
    await chat.close();
    expect([firstId, secondId]).toEqual(['chatcmpl-1', 'chatcmpl-2']);

    const replay = await startReplay(file);
    try {
      const replayClient = chatClient(chat);
      expect((await plainChat(replayClient, 'same')).id).toBe('chatcmpl-1');
      expect((await plainChat(replayClient, 'same')).id).toBe('chatcmpl-2');
      // Both recordings are used up: a third identical request is a miss.
      await expect(plainChat(replayClient, 'same')).rejects.toThrow('Connection error.');
      expect(replay.unmatched).toEqual([{ method: 'POST', url: `${chat.url}/chat/completions`, agent: 'quant' }]);
    } finally {
      replay.stop();
    }
  });

  it('matches a query string in any order and a JSON body with any key order or spacing', async () => {
    const echo = await serve(
      startServer((request, body, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ url: request.url, body }));
      }),
    );
    const file = path.join(directory, 'order.json');
    const recorder = await startRecording(meta);
    const live = await fetch(`${echo.url}/search?b=2&a=1&a=0`, { method: 'POST', body: '{"x":1,"y":[1,2]}' }).then(
      (response) => response.text(),
    );
    await recorder.stop(file);
    await echo.close();

    const replay = await startReplay(file);
    try {
      const replayed = await fetch(`${echo.url}/search?a=0&a=1&b=2`, {
        method: 'POST',
        body: '{ "y": [1, 2], "x": 1 }',
      }).then((response) => response.text());
      expect(replayed).toBe(live);
    } finally {
      replay.stop();
    }
  });
});

describe('after stop()', () => {
  it('lets requests reach the network again (the one patch stays, passing them through)', async () => {
    const server = await serve(
      startServer((_request, _body, response) => {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.end('live');
      }),
    );
    const file = path.join(directory, 'restore.json');

    const recorder = await startRecording(meta);
    await fetch(`${server.url}/one`).then((response) => response.text());
    await recorder.stop(file);
    expect(await fetch(`${server.url}/between`).then((response) => response.text())).toBe('live');

    const replay = await startReplay(file);
    await expect(fetch(`${server.url}/two`)).rejects.toThrow(
      `no recorded response for GET ${server.url}/two in cassette '${file}'`,
    );
    replay.stop();

    expect(server.requests).toEqual(['GET /one', 'GET /between']);
    expect(await fetch(`${server.url}/two`).then((response) => response.text())).toBe('live');
    expect(server.requests).toEqual(['GET /one', 'GET /between', 'GET /two']);
    await rm(file);
  });

  it('a binary response echoing the key: refused, saying a secret survived scrubbing; the cleanup after it keeps that cause', async () => {
    const key = 'sk-binary-echo-0123456789abcdef';
    const binary = await startServer((_request, _body, response) => {
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      // 0xff is never valid UTF-8, so the body is stored as base64, out of the text scrubber's reach.
      response.end(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`key=${key}`)]));
    });
    try {
      const file = path.join(directory, 'leak.json');
      const recorder = await startRecording(meta, { secrets: [key] });
      await fetch(`${binary.url}/blob`).then((response) => response.arrayBuffer());
      await expect(recorder.stop(file)).rejects.toThrow(
        new CassetteError(
          `refusing to write cassette '${file}': a secret survived scrubbing (in a binary response body)`,
        ),
      );
      // What services.close() does after a failed stop: no second error replaces the first.
      expect(() => recorder.discard()).not.toThrow();
      await expect(readFile(file)).rejects.toThrow(/ENOENT/);
    } finally {
      await binary.close();
    }
  });

  it('a recorder that is discarded writes nothing and lets the next session start', async () => {
    const recorder = await startRecording(meta);
    recorder.discard();
    await expect(recorder.stop(path.join(directory, 'never.json'))).rejects.toThrow(
      'the recording was already stopped',
    );
    await expect(readFile(path.join(directory, 'never.json'))).rejects.toThrow(/ENOENT/);
    (await startRecording(meta)).discard();
  });

  it('writes through a temporary file: nothing but the cassette is left, and a failed write leaves nothing', async () => {
    const good = path.join(directory, 'good.json');
    await (await startRecording(meta)).stop(good);
    expect(await readdir(directory)).toEqual(['good.json']);

    // A directory where the cassette should go makes the final rename fail.
    const blocked = path.join(directory, 'blocked.json');
    await mkdir(blocked);
    const failure = (await startRecording(meta)).stop(blocked);
    await expect(failure).rejects.toBeInstanceOf(CassetteError);
    await expect(failure).rejects.toThrow(`cannot write cassette '${blocked}': `);
    expect((await readdir(directory)).sort()).toEqual(['blocked.json', 'good.json']);
  });
});
