import type { ChatModel } from './types.js';

/**
 * The same model, with every error its calls end in shown to `observe` before it is
 * rethrown: how a caller learns what happened inside a run (a cap reached, a model
 * error) without wrapping the run itself.
 */
export function observeErrors(model: ChatModel, observe: (error: unknown) => void): ChatModel {
  return {
    prepare: () => model.prepare?.(),
    async complete(request) {
      try {
        return await model.complete(request);
      } catch (error) {
        observe(error);
        throw error;
      }
    },
  };
}
