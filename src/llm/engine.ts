/**
 * Which local inference engine serves an OpenAI-compatible base URL, told by the
 * engine's own signs rather than by the address (a loopback proxy may front a hosted
 * API, and Ollama on a LAN host is still Ollama):
 *
 *   llama.cpp  GET /props        {"default_generation_settings": {"n_ctx": ...}, ...}
 *   Ollama     GET /api/version  {"version": "0.12.3"}
 *   vLLM       GET /version      {"version": "0.10.1"}; its /v1/models lists max_model_len
 *   LM Studio  GET /api/v0/models  {"data": [{"arch": ..., "max_context_length": ...}]}
 *
 * A server with none of them is hosted-style and keeps today's strict json_schema. The
 * probes go through the client's fetch, so a recording keeps them and a replay answers them.
 */
import { z } from 'zod';

export const engineNames = ['llama.cpp', 'ollama', 'vllm', 'lmstudio'] as const;
export type EngineName = (typeof engineNames)[number];

export interface EngineFacts {
  /** Null for a server that showed no engine's sign. */
  engine: EngineName | null;
  /** The prompt the server has shown it keeps (its context size for this model), when it showed one. */
  contextTokens?: number;
}

export const noEngine: EngineFacts = { engine: null };

/** Each probe is one small GET to a server that is usually on the same machine. */
const probeTimeoutMs = 3_000;

const llamaProps = z.object({
  default_generation_settings: z.object({ n_ctx: z.number().int().positive().optional() }).passthrough(),
  n_ctx: z.number().int().positive().optional(),
});
const versionAnswer = z.object({ version: z.string().min(1) });
const lmStudioModels = z.object({
  data: z.array(
    z
      .object({
        id: z.string(),
        arch: z.string().optional(),
        publisher: z.string().optional(),
        max_context_length: z.number().int().positive().optional(),
        loaded_context_length: z.number().int().positive().optional(),
      })
      .refine((entry) => entry.arch !== undefined || entry.publisher !== undefined),
  ),
});
const vllmModels = z.object({
  data: z.array(z.object({ id: z.string(), max_model_len: z.number().int().positive().optional() })),
});
const ollamaRunning = z.object({
  models: z.array(z.object({ name: z.string(), model: z.string().optional(), context_length: z.number().optional() })),
});

type Fetch = typeof fetch;

/** The server's root: the base URL without its trailing `/v1` (where the engines' own routes live). */
export function engineRoot(baseURL: string): string {
  const url = new URL(baseURL);
  const path = url.pathname.replace(/\/+$/, '').replace(/\/v1$/, '');
  return `${url.origin}${path}`;
}

/** The URLs the detection asks: a replay holds them when the recording detected an engine. */
export function engineProbeUrls(baseURL: string): string[] {
  const root = engineRoot(baseURL);
  return [`${root}/props`, `${root}/api/version`, `${root}/version`, `${root}/api/v0/models`];
}

/**
 * The engine behind `baseURL` and, where it shows one, the context size it keeps for `model`.
 * The key goes along as the chat calls send it (a llama-server started with --api-key guards its routes).
 */
export async function detectEngine(
  baseURL: string,
  model: string,
  fetcher: Fetch = globalFetch,
  apiKey?: string,
): Promise<EngineFacts> {
  const root = engineRoot(baseURL);
  const headers: Record<string, string> = apiKey ? { authorization: `Bearer ${apiKey}` } : {};
  const get = (url: string) => getJson(fetcher, url.startsWith('http') ? url : `${root}${url}`, headers);
  // Every sign is asked at once; the first engine in this order that answered wins.
  const [props, ollama, vllm, lmStudio] = await Promise.all([
    get('/props'),
    get('/api/version'),
    get('/version'),
    get('/api/v0/models'),
  ]);
  const llama = llamaProps.safeParse(props);
  if (llama.success) {
    const context = llama.data.default_generation_settings.n_ctx ?? llama.data.n_ctx;
    return withContext('llama.cpp', context);
  }
  if (versionAnswer.safeParse(ollama).success) {
    const running = ollamaRunning.safeParse(await get('/api/ps'));
    const entry = running.success ? running.data.models.find((item) => sameModel(item.name, model)) : undefined;
    return withContext('ollama', entry?.context_length);
  }
  const studio = lmStudioModels.safeParse(lmStudio);
  if (studio.success) {
    const entry = studio.data.data.find((item) => item.id === model);
    return withContext('lmstudio', entry?.loaded_context_length ?? entry?.max_context_length);
  }
  if (versionAnswer.safeParse(vllm).success) {
    const listed = vllmModels.safeParse(await get(`${baseURL.replace(/\/+$/, '')}/models`));
    return withContext(
      'vllm',
      listed.success ? listed.data.data.find((item) => item.id === model)?.max_model_len : undefined,
    );
  }
  return noEngine;
}

function withContext(engine: EngineName, contextTokens: number | undefined): EngineFacts {
  return contextTokens !== undefined && contextTokens > 0 ? { engine, contextTokens } : { engine };
}

/** Ollama names carry a tag: `qwen3` is `qwen3:latest`. */
function sameModel(listed: string, asked: string): boolean {
  return listed === asked || listed === `${asked}:latest`;
}

/** The parsed JSON of a 200 answer, or undefined for anything else (a 404, HTML, a timeout). */
async function getJson(fetcher: Fetch, url: string, headers: Record<string, string>): Promise<unknown> {
  try {
    const response = await fetcher(url, { method: 'GET', headers, signal: AbortSignal.timeout(probeTimeoutMs) });
    if (!response.ok) {
      await response.body?.cancel();
      return undefined;
    }
    return (await response.json()) as unknown;
  } catch {
    return undefined;
  }
}

// Late-bound: a recorder or a replay installed after the client was built still sees the probe.
const globalFetch: Fetch = (input, init) => globalThis.fetch(input, init);

/**
 * The detection's answer per base URL and model, asked once: concurrent agents share the
 * one promise. A client owns its cache (no process-wide state).
 */
export class EngineCache {
  private readonly known = new Map<string, Promise<EngineFacts>>();

  facts(baseURL: string, model: string, detect: () => Promise<EngineFacts>): Promise<EngineFacts> {
    const key = `${baseURL}\n${model}`;
    let answer = this.known.get(key);
    if (!answer) {
      answer = detect();
      this.known.set(key, answer);
    }
    return answer;
  }
}
