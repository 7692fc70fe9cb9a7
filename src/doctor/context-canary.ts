/**
 * The context canary: a prompt of about 6,000 tokens with a marker at its start, the
 * size at which Ollama's default context (4,096) silently cuts. The verdict rests on the
 * prompt tokens the server reports against autohedge's estimate, the same rule the run's
 * guard applies (src/llm/truncation.ts). Whether the model repeats the marker is shown for
 * information only: a weak model may simply not repeat it.
 */
import { errorMessage, ModelError } from '../errors.js';
import type { EngineFacts } from '../llm/engine.js';
import { estimatePromptTokens } from '../llm/token-estimate.js';
import { fixFor, keptShareFloor, suggestedContext } from '../llm/truncation.js';
import type { ChatRequest } from '../llm/types.js';
import type { ModelProbe } from './model-checks.js';
import { check, type Check } from './types.js';

const marker = 'CANARY-7391-HERON';
/** About 6,000 tokens by autohedge's estimate (a quarter of the characters); an analysis sends prompts about three times as long. */
const canaryTokens = 6_000;

export function canaryRequest(model: string): ChatRequest {
  const opening = `Remember this marker, it is the first thing you read: ${marker}.`;
  const question = 'What was the marker at the very start of this message? Answer with the marker only.';
  const lines: string[] = [];
  for (let index = 1; JSON.stringify(lines).length < canaryTokens * 4 - 400; index += 1)
    lines.push(
      `Line ${index}: the desk logged ${(index * 37) % 1000} shares at ${(100 + ((index * 13) % 50)).toFixed(2)}.`,
    );
  return {
    model,
    messages: [{ role: 'user', content: [opening, ...lines, question].join('\n') }],
    maxTokens: 64,
    temperature: 0,
    agent: 'doctor',
  };
}

export async function contextCanary(probe: ModelProbe, facts: EngineFacts): Promise<Check> {
  const request = canaryRequest(probe.model);
  const estimate = estimatePromptTokens(request);
  const label = `context (${Math.round(estimate / 1000)}k-token canary)`;
  try {
    const response = await probe.chat({ engine: facts }).complete(request);
    const reported = response.usage.promptTokens;
    if (reported === 0)
      return check('context', label, 'warn', 'the server reports no prompt tokens: a cut prompt cannot be told');
    const echoed = (response.message.content ?? '').includes(marker);
    const echo = echoed
      ? 'the model repeated the marker'
      : 'the model did not repeat the marker (information only: a weak model may not)';
    if (reported < keptShareFloor * estimate)
      return check(
        'context',
        label,
        'fail',
        `the server read ${reported} of about ${estimate} prompt tokens: it cuts prompts; ${fixFor(facts.engine, suggestedContext(estimate * 3))}; ${echo}`,
      );
    return check(
      'context',
      label,
      echoed ? 'ok' : 'warn',
      `the server read ${reported} of about ${estimate} prompt tokens, none cut; ${echo}`,
    );
  } catch (error) {
    // The client's own guard may have seen the cut first: its line names the fix.
    const cut = error instanceof ModelError && error.kind === 'context-truncated';
    return check('context', label, 'fail', cut ? errorMessage(error) : `the canary failed: ${errorMessage(error)}`);
  }
}
