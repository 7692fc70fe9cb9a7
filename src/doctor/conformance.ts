/**
 * `autohedge doctor --conformance`: whether a server and model will finish a night run,
 * measured rather than assumed. The structured mode that works, the Director's decision
 * schema over N tries (each with its own seed), the tool round trip whole and streamed,
 * the context canary, and the completion speed.
 */
import { fullSchemaFor, parseAnswer, responseFormatFor } from '../agent/output.js';
import { errorMessage } from '../errors.js';
import type { EngineFacts } from '../llm/engine.js';
import type { StructuredMode } from '../llm/structured-mode.js';
import type { ChatRequest } from '../llm/types.js';
import { decisionSchema } from '../result/schemas.js';
import { check, type Check } from './types.js';
import type { ModelProbe } from './model-checks.js';

export const defaultConformanceTries = 3;

const decisionOutput = { name: 'decision', schema: decisionSchema };

/** A decision's worth of context, small enough for a slow local model. */
function decisionRequest(model: string, seed: number): ChatRequest {
  return {
    model,
    messages: [
      {
        role: 'system',
        content:
          'You are the Director of a trading desk. Decide on the stock from the desk reports: an action, a conviction, a horizon, a position size, the order, its price levels, a rationale, the key risks and any dissent.',
      },
      {
        role: 'user',
        content: [
          'Ticker ACME, last close 102.40 USD; 50-day average 98.10, 200-day 91.70; RSI 58.',
          'Quant: momentum positive, volatility 28 % annualised.',
          'Risk: a stop near 94 limits the loss to about 8 %.',
          'Execution: liquid; a limit order near 101 fills within a day.',
          'Decide.',
        ].join('\n'),
      },
    ],
    responseFormat: responseFormatFor(decisionOutput),
    fullSchema: fullSchemaFor(decisionOutput),
    maxTokens: 1_024,
    seed,
    agent: 'doctor',
  };
}

export interface DecisionTries {
  validity: Check;
  speed: Check;
}

/** N decisions, one client so the mode that works is kept; a slip is counted, not re-asked. */
export async function decisionTries(
  probe: ModelProbe,
  facts: EngineFacts,
  start: StructuredMode | undefined,
  tries: number,
): Promise<DecisionTries> {
  const chat = probe.chat({ engine: facts, stream: true, ...(start ? { structuredMode: start } : {}) });
  const slips: string[] = [];
  let valid = 0;
  let completionTokens = 0;
  let seconds = 0;
  let mode = 'json_schema';
  for (let attempt = 1; attempt <= tries; attempt += 1) {
    const started = performance.now();
    try {
      const response = await chat.complete(decisionRequest(probe.model, attempt));
      seconds += (performance.now() - started) / 1000;
      completionTokens += response.usage.completionTokens;
      mode = response.structuredMode ?? 'json_schema';
      const parsed = parseAnswer(decisionOutput, response.message.content);
      if (parsed.ok) valid += 1;
      else slips.push(`try ${attempt}: ${parsed.error}`);
    } catch (error) {
      slips.push(`try ${attempt}: ${errorMessage(error)}`);
    }
  }
  const detail = `${valid} of ${tries} decisions valid (${mode})${slips.length > 0 ? `; ${slips.slice(0, 2).join('; ')}` : ''}`;
  const validity = check(
    'decision-schema',
    'decision schema',
    valid === tries ? 'ok' : valid > 0 ? 'warn' : 'fail',
    detail,
  );
  const speed =
    completionTokens > 0 && seconds > 0
      ? check(
          'speed',
          'tokens per second',
          'ok',
          `${(completionTokens / seconds).toFixed(1)} completion tokens/s over the decisions`,
        )
      : check('speed', 'tokens per second', 'warn', 'not measured: no completion tokens reported');
  return { validity, speed };
}
