/**
 * A real llama.cpp engine behind a test-only OpenAI-compatible server on 127.0.0.1.
 *
 * The engine is node-llama-cpp with its prebuilt linux-x64 binary, pinned and installed
 * by `.ci/run` outside the project's lockfile (scripts/install-test-engine.sh), into
 * `testEngineDir()`. It runs the tiny random GGUF that testkit/tiny-gguf.ts writes, on one
 * thread. The server speaks the parts of llama-server's API autohedge uses:
 *
 *   GET  /props                  llama.cpp's sign, with its context size (or Ollama's `/api/version`)
 *   POST /v1/chat/completions    whole or streamed; `response_format` json_schema or
 *                                `{type: json_object, schema}` enforced as a grammar by the engine
 *
 * and two behaviours of real servers: refusing `json_schema` (older llama.cpp builds), and
 * cutting every prompt to N tokens while answering anyway (Ollama's default context).
 *
 * The model's weights are noise, so the server does what a trained model's habits would:
 * it biases the sampler towards closing a string, an array, an object and the answer,
 * and towards a few words, so answers end. It proves the plumbing, not a model's quality.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The pinned engine: the version .ci/run installs and the tests expect. */
export const testEngineVersion = '3.22.1';

/** Where scripts/install-test-engine.sh puts node-llama-cpp (AUTOHEDGE_TEST_ENGINE_DIR overrides). */
export function testEngineDir(env: NodeJS.ProcessEnv = process.env): string {
  return (
    env.AUTOHEDGE_TEST_ENGINE_DIR?.trim() ||
    join(env.XDG_CACHE_HOME?.trim() || join(homedir(), '.cache'), 'autohedge-test-engine')
  );
}

/** Why the engine cannot run here, or null when it can. */
export function engineMissing(dir = testEngineDir()): string | null {
  if (process.platform !== 'linux' || process.arch !== 'x64')
    return `node-llama-cpp's prebuilt binary used here is for linux-x64 (this is ${process.platform}-${process.arch})`;
  const manifest = join(dir, 'node_modules', 'node-llama-cpp', 'package.json');
  if (!existsSync(manifest))
    return `node-llama-cpp is not installed in ${dir}: run \`bash scripts/install-test-engine.sh\``;
  const version = (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
  if (version !== testEngineVersion) return `node-llama-cpp ${version} in ${dir}, not the pinned ${testEngineVersion}`;
  if (!existsSync(join(dir, 'node_modules', '@node-llama-cpp', 'linux-x64', 'package.json')))
    return `@node-llama-cpp/linux-x64 (the prebuilt binary) is not installed in ${dir}`;
  return null;
}

// node-llama-cpp is loaded from outside the project, so it is untyped here (`any`).
export interface Engine {
  /** The node-llama-cpp module itself. */
  sdk: any;
  llama: any;
  model: any;
  tokenize(text: string): number[];
  close(): Promise<void>;
}

export async function loadEngine(modelPath: string, dir = testEngineDir()): Promise<Engine> {
  const entry = join(dir, 'node_modules', 'node-llama-cpp', 'dist', 'index.js');
  const sdk = (await import(pathToFileURL(entry).href)) as any;
  const llama = await sdk.getLlama({ gpu: false, build: 'never', logLevel: 'error' });
  const model = await llama.loadModel({ modelPath, gpuLayers: 0 });
  return {
    sdk,
    llama,
    model,
    tokenize: (text) => model.tokenize(text) as number[],
    async close() {
      await model.dispose();
      await llama.dispose();
    },
  };
}

export interface EngineServerOptions {
  /** Whose sign the server shows: llama.cpp's `/props` (with the context) or Ollama's `/api/version`. */
  sign: 'llama.cpp' | 'ollama';
  contextSize: number;
  /** Answer `response_format: json_schema` with a 400, as llama.cpp builds without it did. */
  refuseJsonSchema?: boolean;
  /** Keep only this many prompt tokens and answer anyway, reporting the kept count (Ollama). */
  keepPromptTokens?: number;
  /**
   * Free text made of these (long) words runs on to 768 tokens instead of ending at its
   * first sentence: long desk reports, so the Director's prompt outgrows a small context.
   */
  longAnswers?: readonly string[];
  /** Token texts the sampler favours, so noise ends its strings, arrays, objects and answers. */
  favoured: readonly string[];
}

export interface EngineRequest {
  path: string;
  body: any;
  status: number;
  promptTokens?: number;
}

export interface EngineServer {
  url: string;
  requests: EngineRequest[];
  close(): Promise<void>;
}

export async function startEngineServer(engine: Engine, options: EngineServerOptions): Promise<EngineServer> {
  const context = await engine.model.createContext({ contextSize: options.contextSize, threads: 1, sequences: 1 });
  const completion = new engine.sdk.LlamaCompletion({ contextSequence: context.getSequence() });
  const bias = favouredTokens(engine, options.favoured);
  const longBias = options.longAnswers ? favouredTokens(engine, options.longAnswers) : undefined;
  const requests: EngineRequest[] = [];
  // One sequence, one answer at a time: concurrent desks queue, as on a one-slot llama-server.
  let queue: Promise<unknown> = Promise.resolve();
  const server = createServer((request, response) => {
    const turn = queue.then(() => handle(request, response));
    queue = turn.catch(() => undefined);
    turn.catch((error: unknown) => send(response, 500, { error: { message: String(error) } }));
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = (request.url ?? '/').split('?')[0]!;
    const raw = await readBody(request);
    const body = raw ? (JSON.parse(raw) as any) : undefined;
    const log: EngineRequest = { path, body, status: 200 };
    requests.push(log);
    if (request.method === 'GET') return signs(path, response, log);
    if (path !== '/v1/chat/completions') return refuse(response, log, 404, `no route ${path}`);
    const format = body.response_format as
      { type: string; schema?: unknown; json_schema?: { schema: unknown } } | undefined;
    if (format?.type === 'json_schema' && options.refuseJsonSchema)
      return refuse(
        response,
        log,
        400,
        "'json_schema' response_format is not supported by this server; use json_object",
      );
    let tokens = engine.tokenize(promptOf(body.messages));
    if (options.keepPromptTokens && tokens.length > options.keepPromptTokens)
      tokens = [...tokens.slice(0, 8), ...tokens.slice(tokens.length - options.keepPromptTokens + 8)];
    const long = longBias !== undefined && !format;
    const cap = long ? 768 : 512;
    const maxTokens = Math.min(body.max_completion_tokens ?? cap, cap);
    if (tokens.length + maxTokens > options.contextSize)
      return refuse(response, log, 400, 'the request exceeds the available context size, try increasing it');
    log.promptTokens = tokens.length;
    const schema = format?.type === 'json_schema' ? format.json_schema?.schema : format?.schema;
    const grammar = schema
      ? await engine.llama.createGrammarForJsonSchema(engineSchema(schema))
      : format?.type === 'json_object'
        ? await engine.llama.getGrammarFor('json')
        : undefined;
    const answer = await completion.generateCompletionWithMeta(tokens, {
      maxTokens,
      temperature: 1,
      seed: typeof body.seed === 'number' ? body.seed : 1,
      tokenBias: long ? longBias : bias,
      // Free text ends at its first sentence: the noise never samples the end token on its own.
      ...(grammar ? { grammar } : long ? {} : { customStopTriggers: ['.'] }),
    });
    const finish = answer.metadata.stopReason === 'maxTokens' ? 'length' : 'stop';
    const content = (answer.response as string) + (answer.metadata.stopReason === 'customStopTrigger' ? '.' : '');
    const usage = {
      prompt_tokens: tokens.length,
      completion_tokens: engine.tokenize(answer.response).length,
      total_tokens: 0,
    };
    usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
    reply(response, body, content, finish, usage);
  }

  function signs(path: string, response: ServerResponse, log: EngineRequest): void {
    if (options.sign === 'llama.cpp' && path === '/props')
      return send(response, 200, { default_generation_settings: { n_ctx: options.contextSize }, total_slots: 1 });
    if (options.sign === 'ollama' && path === '/api/version') return send(response, 200, { version: '0.12.3' });
    if (path === '/v1/models') return send(response, 200, { object: 'list', data: [{ id: 'tiny', object: 'model' }] });
    refuse(response, log, 404, `no route ${path}`);
  }

  function refuse(response: ServerResponse, log: EngineRequest, status: number, message: string): void {
    log.status = status;
    send(response, status, { error: { code: status, message, type: 'invalid_request_error' } });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await context.dispose();
    },
  };
}

/** A plain chat layout: the model is noise, so any template shows the plumbing. */
function promptOf(messages: Array<{ role: string; content: string | null }>): string {
  return `${messages.map((message) => `<${message.role}>\n${message.content ?? ''}\n`).join('')}<assistant>\n`;
}

/**
 * The schema in node-llama-cpp's JSON-schema dialect: `oneOf` for `anyOf`, and only the
 * keywords its grammar enforces (types, properties, items, enums, lengths); like
 * llama.cpp's own converter for numbers, it enforces no numeric bounds.
 */
function engineSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(engineSchema);
  if (schema === null || typeof schema !== 'object') return schema;
  const kept = [
    'type',
    'properties',
    'required',
    'items',
    'enum',
    'const',
    'minLength',
    'maxLength',
    'minItems',
    'maxItems',
    'additionalProperties',
    '$defs',
    '$ref',
  ];
  const node: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'anyOf' || key === 'oneOf') node.oneOf = engineSchema(value);
    else if (key === 'properties' || key === '$defs')
      node[key] = Object.fromEntries(
        Object.entries(value as object).map(([name, child]) => [name, engineSchema(child)]),
      );
    else if (kept.includes(key)) node[key] = engineSchema(value);
  }
  return node;
}

/** A raised logit for each favoured text that is one token (`</s>` is the end of the answer). */
function favouredTokens(engine: Engine, texts: readonly string[]): unknown {
  const bias = engine.sdk.TokenBias.for(engine.model);
  for (const text of texts) {
    const tokens =
      text === '</s>'
        ? [engine.model.tokens.eos as number]
        : (engine.model.tokenize(text, false, 'trimLeadingSpace') as number[]);
    if (tokens.length === 1) bias.set(tokens[0], { logit: 12 });
  }
  return bias;
}

function reply(
  response: ServerResponse,
  body: any,
  content: string,
  finish: 'stop' | 'length',
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number },
): void {
  const base = { id: 'chatcmpl-engine', created: 0, model: body.model };
  if (!body.stream) {
    send(response, 200, {
      ...base,
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: finish }],
      usage,
    });
    return;
  }
  const chunk = (choices: object[], extra: object = {}) =>
    `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices, ...extra })}\n\n`;
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  response.write(chunk([{ index: 0, delta: { role: 'assistant', content }, finish_reason: null }]));
  response.write(chunk([{ index: 0, delta: {}, finish_reason: finish }]));
  response.write(chunk([], { usage }));
  response.end('data: [DONE]\n\n');
}

function send(response: ServerResponse, status: number, body: unknown): void {
  if (response.headersSent) return void response.destroy();
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}
