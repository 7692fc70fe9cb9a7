import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import OpenAI, { APIConnectionError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CassetteError, ExitCode } from '../../src/errors.js';
import { ReplayMissError, findReplayMiss, isReplayMiss, startRecording, startReplay } from '../../src/record/index.js';
import { startEchoServer, type OpenAIServer } from '../support/openai-server.js';

const meta = { autohedgeVersion: '0.1.0', asOf: '2026-01-05T21:00:00.000Z', argv: ['analyze', 'NVDA'] };

let directory: string;
let chat: OpenAIServer;
let file: string;

function ask(client: OpenAI, content: string, agent: string) {
  return client.chat.completions.create(
    { model: 'gpt-4o-mini', messages: [{ role: 'user', content }] },
    { headers: { 'x-autohedge-agent': agent } },
  );
}

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'autohedge-miss-'));
  file = path.join(directory, 'one-call.json');
  // The server stays up during replay: it counts connections, so a live call would show.
  chat = await startEchoServer();
  const recorder = await startRecording(meta);
  await ask(
    new OpenAI({ apiKey: 'sk-test-miss0123456789', baseURL: chat.url, maxRetries: 0 }),
    'recorded question',
    'quant',
  );
  await recorder.stop(file);
});

afterAll(async () => {
  await chat.close();
  await rm(directory, { recursive: true, force: true });
});

describe('a request with no recorded response', () => {
  it('fails at once with one line naming method, URL, agent and cassette, and never reaches the network', async () => {
    const connectionsBefore = chat.connections;
    const replay = await startReplay(file);
    try {
      const client = new OpenAI({ apiKey: 'sk-test-miss0123456789', baseURL: chat.url, maxRetries: 0 });
      const error = await ask(client, 'a question nobody recorded', 'sentiment').then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      // openai wraps the fetch failure; the miss rides along as its cause.
      expect(error).toBeInstanceOf(APIConnectionError);
      const miss = findReplayMiss(error);
      expect(miss).toBeInstanceOf(ReplayMissError);
      expect(miss).toBeInstanceOf(CassetteError);
      expect(miss?.exitCode).toBe(ExitCode.usage);
      expect(miss?.message).toBe(
        `no recorded response for POST ${chat.url}/chat/completions (agent: sentiment) in cassette '${file}'`,
      );
      expect(miss?.message.includes('\n')).toBe(false);
      expect(isReplayMiss(error)).toBe(true);
      expect(replay.unmatched).toEqual([{ method: 'POST', url: `${chat.url}/chat/completions`, agent: 'sentiment' }]);
      // The recorded question is still answerable.
      const answer = await ask(client, 'recorded question', 'quant');
      expect(answer.choices[0]?.message.content).toBe('echo: recorded question');
      expect(replay.unused).toBe(0);
    } finally {
      replay.stop();
    }
    expect(chat.connections).toBe(connectionsBefore);
  });

  it('rejects a plain fetch with the ReplayMissError itself; no agent header means no agent in the line', async () => {
    const replay = await startReplay(file);
    try {
      const failure = fetch('https://api.exa.ai/search?q=1', { method: 'POST', body: '{"query":"x"}' });
      await expect(failure).rejects.toBeInstanceOf(ReplayMissError);
      await expect(failure).rejects.toThrow(
        `no recorded response for POST https://api.exa.ai/search?q=1 in cassette '${file}'`,
      );
      expect(replay.unmatched).toEqual([{ method: 'POST', url: 'https://api.exa.ai/search?q=1', agent: null }]);
    } finally {
      replay.stop();
    }
  });

  it('reports a miss that the SDK retried only once, and scrubs keys out of the URL it names', async () => {
    const replay = await startReplay(file);
    try {
      const client = new OpenAI({ apiKey: 'sk-test-miss0123456789', baseURL: chat.url, maxRetries: 1 });
      const error = await ask(client, 'retried question', 'risk').catch((thrown: unknown) => thrown);
      expect(findReplayMiss(error)?.agent).toBe('risk');
      await expect(fetch(`${chat.url}/models?api_key=sk-proj-leakyleakyleaky01`)).rejects.toThrow(
        `no recorded response for GET ${chat.url}/models?api_key=REDACTED in cassette '${file}'`,
      );
      expect(replay.unmatched).toEqual([
        { method: 'POST', url: `${chat.url}/chat/completions`, agent: 'risk' },
        { method: 'GET', url: `${chat.url}/models?api_key=REDACTED`, agent: null },
      ]);
    } finally {
      replay.stop();
    }
  });

  it('findReplayMiss finds nothing in unrelated errors', () => {
    expect(findReplayMiss(new Error('fetch failed', { cause: new Error('ECONNREFUSED') }))).toBeUndefined();
    expect(findReplayMiss('a string')).toBeUndefined();
    expect(isReplayMiss(undefined)).toBe(false);
  });
});

describe('one session at a time', () => {
  it('refuses a second replay or recording while one is active, and leaves the first working', async () => {
    const replay = await startReplay(file);
    try {
      await expect(startReplay(file)).rejects.toThrow(
        new CassetteError('cannot start recording or replay: another recording or replay is already active'),
      );
      await expect(startRecording(meta)).rejects.toBeInstanceOf(CassetteError);
      const client = new OpenAI({ apiKey: 'sk-test-miss0123456789', baseURL: chat.url, maxRetries: 0 });
      expect((await ask(client, 'recorded question', 'quant')).choices[0]?.message.content).toBe(
        'echo: recorded question',
      );
    } finally {
      replay.stop();
    }
  });
});
