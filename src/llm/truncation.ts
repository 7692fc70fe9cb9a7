/**
 * No answer from a silently truncated prompt. Ollama's OpenAI-compatible endpoint cuts
 * every prompt to the server's context size (4,096 tokens by default) and answers anyway;
 * the only trace is the `prompt_tokens` it reports. So:
 *
 *   before a call  a prompt larger than the context the server has shown it keeps (its own
 *                  signs, or a cut seen earlier in the run) is not sent;
 *   after a call   the reported prompt tokens are compared with autohedge's estimate: fewer
 *                  than 75 % of it, or the same count as an earlier prompt that differed by
 *                  more than a quarter, is a cut.
 *
 * Either fails the call with one line that names the likely fix for that engine.
 */
import { ModelError } from '../errors.js';
import type { EngineFacts, EngineName } from './engine.js';

/** Below this share of the estimate, the server did not read the whole prompt. */
export const keptShareFloor = 0.75;
/** No server keeps a context smaller than this: a same count below it is a fixed usage figure, not a cut. */
const smallestContextTokens = 1_024;
/** Two prompts whose estimates differ by more than this share cannot honestly count the same. */
const differentShare = 0.25;
/**
 * Prompts below this estimate are not judged by ratio: a chat template's own tokens and a
 * tokenizer's spread make small prompts noisy, and no server cuts a prompt this short.
 */
export const smallestJudgedPrompt = 1_000;

interface Observation {
  estimate: number;
  reported: number;
}

export class TruncationGuard {
  private readonly seen = new Map<string, Observation[]>();
  /** Cuts seen in this run: the context a server has shown it keeps, per model. */
  private readonly learnt = new Map<string, number>();

  constructor(private readonly host: string) {}

  /** Refuses to send a prompt the server has shown it cannot keep. */
  before(model: string, estimate: number, facts: EngineFacts): void {
    const context = this.learnt.get(model) ?? facts.contextTokens;
    // The estimate errs high (a quarter of the characters): only a prompt that overflows even at 75 % of it is refused.
    if (context === undefined || estimate * keptShareFloor <= context) return;
    throw truncationError(
      `the prompt (about ${format(estimate)} tokens) is larger than the ${format(context)}-token context ${this.host} keeps for '${model}'`,
      facts.engine,
      estimate,
    );
  }

  /**
   * Judges one answered call. `byRatio` is false for a server that is no local engine:
   * there only the same-count sign is used, which no honest tokenizer produces.
   */
  after(model: string, estimate: number, reported: number, facts: EngineFacts, byRatio: boolean): void {
    if (reported <= 0) return;
    const history = this.seen.get(model) ?? [];
    const same = history.find(
      (earlier) =>
        earlier.reported === reported &&
        // A context is never this small: a stand-in's fixed usage (100 tokens a call) is no cut.
        reported >= smallestContextTokens &&
        Math.min(earlier.estimate, estimate) >= smallestJudgedPrompt &&
        Math.abs(earlier.estimate - estimate) > differentShare * Math.max(earlier.estimate, estimate),
    );
    history.push({ estimate, reported });
    this.seen.set(model, history.slice(-32));
    const short = byRatio && estimate >= smallestJudgedPrompt && reported < keptShareFloor * estimate;
    if (!same && !short) return;
    this.learnt.set(model, Math.min(reported, this.learnt.get(model) ?? reported));
    const why = same
      ? `${this.host} reported ${format(reported)} prompt tokens for two prompts of about ${format(same.estimate)} and ${format(estimate)} tokens`
      : `${this.host} read ${format(reported)} of the about ${format(estimate)} prompt tokens sent`;
    throw truncationError(`${why}: the prompt was cut to its context size`, facts.engine, estimate);
  }
}

function truncationError(what: string, engine: EngineName | null, estimate: number): ModelError {
  return new ModelError(`${what}; ${fixFor(engine, suggestedContext(estimate))}`, 'context-truncated');
}

/** Room for the prompt, an answer and the tool rounds after it, rounded up to a power of two. */
export function suggestedContext(estimate: number): number {
  let size = 8_192;
  while (size < estimate * 1.5 + 4_096) size *= 2;
  return size;
}

export function fixFor(engine: EngineName | null, size: number): string {
  const tokens = String(size);
  switch (engine) {
    case 'ollama':
      return `set OLLAMA_CONTEXT_LENGTH=${tokens} where the Ollama server starts (or a Modelfile with PARAMETER num_ctx ${tokens}) and restart it`;
    case 'llama.cpp':
      return `start llama-server with --ctx-size ${tokens} (per slot: multiply by --parallel)`;
    case 'vllm':
      return `start vLLM with --max-model-len ${tokens} (the model must support it)`;
    case 'lmstudio':
      return `load the model in LM Studio with a context length of ${tokens} or more`;
    default:
      return `raise the server's context size to ${tokens} tokens or more (Ollama: OLLAMA_CONTEXT_LENGTH or a Modelfile num_ctx)`;
  }
}

function format(tokens: number): string {
  return Math.round(tokens).toLocaleString('en-US');
}
