// `analyze` through a REAL llama.cpp engine (issue 46): node-llama-cpp's prebuilt binary,
// pinned and installed by .ci/run outside the lockfile (scripts/install-test-engine.sh),
// serving a tiny random-weight GGUF that testkit/tiny-gguf.ts writes (no download), behind a
// test-only OpenAI-compatible server on 127.0.0.1 with one thread (testkit/llama-engine.ts).
//
// What it proves: the plumbing through a real engine — the grammar mode's schema is one the
// engine compiles and enforces, the fallback when a server refuses json_schema, and the
// truncation guard against a server that cuts prompts. Not a model's quality: the weights
// are noise, so the decision's values mean nothing; only its validity is asserted.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { decisionSchema } from '../../src/result/schemas.js';
import {
  engineMissing,
  loadEngine,
  startEngineServer,
  type Engine,
  type EngineServer,
  type EngineServerOptions,
} from '../../testkit/llama-engine.js';
import { writeTinyGguf } from '../../testkit/tiny-gguf.js';
import { captureIo } from '../support/cli.js';
import { fakeMarket } from '../support/market.js';

const missing = engineMissing();
if (missing) console.warn(`tests/engine skipped: ${missing}`);

/** Tokens a trained model would favour: closing strings, arrays, objects and sentences, and a few words. */
const favoured = ['"', ',', ']', '}', '.', 'the', 'stock', 'risk', 'trend', 'price', 'hold', 'data', 'desk'];
/** The words of the long desk reports in the truncation case. */
const longWords = ['volatility', 'momentum', 'valuation', 'guardrails', 'fundamentals', 'liquidity'];

describe.skipIf(missing !== null)('analyze through a real llama.cpp engine (node-llama-cpp, tiny random GGUF)', () => {
  let folder: string;
  let engine: Engine;
  let server: EngineServer | undefined;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'autohedge-engine-'));
    const prompts = join(process.cwd(), 'prompts');
    const corpus = readdirSync(prompts)
      .map((file) => readFileSync(join(prompts, file), 'utf8'))
      .join('\n');
    const modelPath = join(folder, 'tiny.gguf');
    writeTinyGguf(modelPath, corpus, {
      extraWords: [...favoured.filter((text) => /^[a-z]+$/.test(text)), ...longWords],
    });
    engine = await loadEngine(modelPath);
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await engine?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  async function analyze(options: Omit<EngineServerOptions, 'favoured'>) {
    await server?.close();
    server = await startEngineServer(engine, { ...options, favoured });
    const io = captureIo();
    const env = { ...io.env, OPENAI_BASE_URL: server.url, AUTOHEDGE_MODEL: 'tiny' };
    const code = await runCli(
      ['analyze', 'ACME', '--json', '--search', 'none', '--no-save'],
      { ...io, env },
      {
        market: fakeMarket(),
        now: () => new Date('2026-11-28T21:00:00Z'),
      },
    );
    const chats = server.requests.filter((request) => request.path === '/v1/chat/completions');
    return {
      code,
      io,
      chats,
      result: code === 2 ? undefined : (JSON.parse(io.out()) as { decision: unknown; error: string | null }),
    };
  }

  it('grammar mode: the engine enforces the full schema and the run ends with a schema-valid decision', async () => {
    const { code, io, chats, result } = await analyze({ sign: 'llama.cpp', contextSize: 16_384 });
    expect(io.err()).toContain('is llama.cpp (tiny, context 16384 tokens): structured output in the grammar mode');
    const decide = chats.find((request) => request.body.response_format?.json_schema?.name === 'decision');
    expect(decide?.body.response_format.json_schema.schema.properties.rationale).toEqual({
      type: 'string',
      minLength: 1,
    });
    expect([0, 3, 4]).toContain(code);
    expect(decisionSchema.safeParse(result?.decision).success).toBe(true);
  }, 60_000);

  it('a server that refuses json_schema: the fallback sends {type: json_object, schema}, still a valid decision', async () => {
    const { code, chats, result } = await analyze({ sign: 'llama.cpp', contextSize: 16_384, refuseJsonSchema: true });
    expect(
      chats.filter((request) => request.status === 400).map((request) => request.body.response_format.type),
    ).toEqual(['json_schema']);
    const fallback = chats.filter((request) => request.body.response_format?.type === 'json_object');
    expect(fallback.length).toBeGreaterThan(0);
    expect(fallback.every((request) => request.body.response_format.schema?.type === 'object')).toBe(true);
    expect([0, 3, 4]).toContain(code);
    expect(decisionSchema.safeParse(result?.decision).success).toBe(true);
  }, 60_000);

  it('a server that cuts prompts to 2,048 tokens: the run fails with the one line that names the fix', async () => {
    // Long desk reports make the Director's decision prompt about twice what the server keeps.
    const { code, io, chats } = await analyze({
      sign: 'ollama',
      contextSize: 16_384,
      keepPromptTokens: 2_048,
      longAnswers: longWords,
    });
    expect(chats.some((request) => request.promptTokens === 2_048)).toBe(true);
    expect(code).not.toBe(0);
    expect(io.out() + io.err()).toMatch(/prompt was cut to its context size; set OLLAMA_CONTEXT_LENGTH=\d+/);
  }, 60_000);
});
