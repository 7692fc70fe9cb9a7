/**
 * The GET routes by which each local engine is recognised (src/llm/engine.ts), shaped as
 * the engines answer them, for `startOpenAIServer(script, { routes })`.
 */
export type EngineSign = 'llama.cpp' | 'ollama' | 'vllm' | 'lmstudio';

export function engineRoutes(engine: EngineSign, model: string, contextTokens?: number): Record<string, unknown> {
  switch (engine) {
    case 'llama.cpp':
      return {
        '/props': {
          default_generation_settings: { n_ctx: contextTokens ?? 4096, model },
          total_slots: 1,
          build_info: 'b6000-test',
        },
      };
    case 'ollama':
      return {
        '/api/version': { version: '0.12.3' },
        '/api/ps': { models: contextTokens ? [{ name: `${model}:latest`, model, context_length: contextTokens }] : [] },
      };
    case 'vllm':
      return {
        '/version': { version: '0.10.1' },
        '/v1/models': {
          object: 'list',
          data: [{ id: model, object: 'model', owned_by: 'vllm', max_model_len: contextTokens ?? 8192 }],
        },
      };
    case 'lmstudio':
      return {
        '/api/v0/models': {
          object: 'list',
          data: [
            {
              id: model,
              object: 'model',
              type: 'llm',
              publisher: 'test',
              arch: 'llama',
              max_context_length: contextTokens ?? 8192,
            },
          ],
        },
      };
  }
}
