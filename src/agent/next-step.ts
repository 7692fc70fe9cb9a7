import type { ChatResponse, ToolCall } from '../llm/types.js';

/** What one model response asks the loop to do next. */
export type NextStep =
  | { kind: 'run-again'; toolCalls: ToolCall[] }
  | { kind: 'final'; text: string; warning: string | null }
  | { kind: 'error'; error: string };

export interface StepContext {
  agent: string;
  /** This call was the forced final answer (tool_choice "none"). */
  forced: boolean;
  /** The agent binds at least one tool. */
  hasTools: boolean;
  maxToolRounds: number;
}

/**
 * Reads a response as the next step. Tool calls count when the message carries them,
 * whatever finish_reason says: a "tool_calls" finish with no calls has nothing to run.
 */
export function nextStep(response: ChatResponse, context: StepContext): NextStep {
  const { message, finishReason } = response;
  const toolCalls = message.tool_calls ?? [];
  if (toolCalls.length > 0) {
    if (!context.hasTools) {
      const names = [...new Set(toolCalls.map((call) => call.function.name))].join(', ');
      return { kind: 'error', error: `model requested tools (${names}) but agent ${context.agent} has none` };
    }
    if (context.forced) {
      return {
        kind: 'error',
        error: `model still requested tools after ${context.maxToolRounds} tool rounds and a forced final answer (tool_choice "none")`,
      };
    }
    return { kind: 'run-again', toolCalls };
  }
  if (finishReason === 'content_filter') {
    return { kind: 'error', error: 'model output was stopped by the content filter' };
  }
  const text = message.content ?? '';
  if (text.trim() === '') {
    if (message.refusal) return { kind: 'error', error: `model refused: ${message.refusal}` };
    if (finishReason === 'length')
      return { kind: 'error', error: 'model returned an empty answer (it hit the token limit)' };
    return { kind: 'error', error: 'model returned an empty answer' };
  }
  if (finishReason === 'length') {
    return {
      kind: 'final',
      text,
      warning: `agent ${context.agent}: answer cut off at the token limit (finish_reason "length")`,
    };
  }
  // Some servers send a refusal next to a partial answer: the answer stands, the refusal is reported.
  if (message.refusal)
    return { kind: 'final', text, warning: `agent ${context.agent}: the model also refused: ${message.refusal}` };
  return { kind: 'final', text, warning: null };
}
