/**
 * Test support for transcript.jsonl: rebuilds an agent's message list from the file's
 * lines, to show the transcript holds the exact message sequence of a run.
 */
import type { ChatMessage } from '../../src/llm/types.js';

interface ModelCallLine {
  type: 'model-call';
  agent: string;
  request: { messages: ChatMessage[] };
  response: { message: Extract<ChatMessage, { role: 'assistant' }> };
}

interface ToolResultLine {
  type: 'tool-result';
  agent: string;
  id: string;
  content: string;
}

/**
 * One agent's final message list, rebuilt from transcript lines: the last request's
 * messages, the answer to it, and — when that answer asked for tools and the run
 * stopped there — the tool messages that followed, in call order.
 */
export function replayMessages(lines: readonly string[], agent: string): ChatMessage[] {
  const parsed = lines
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { type: string; agent: string | null });
  let lastCall = -1;
  parsed.forEach((line, index) => {
    if (line.type === 'model-call' && line.agent === agent) lastCall = index;
  });
  if (lastCall === -1) return [];
  const call = parsed[lastCall] as unknown as ModelCallLine;
  const messages: ChatMessage[] = [...call.request.messages, call.response.message];

  const requested = call.response.message.tool_calls ?? [];
  if (requested.length > 0) {
    const results = new Map<string, string>();
    for (const line of parsed.slice(lastCall + 1)) {
      if (line.agent !== agent) continue;
      if (line.type === 'agent-start') break;
      if (line.type === 'tool-result') {
        const result = line as unknown as ToolResultLine;
        results.set(result.id, result.content);
      }
    }
    for (const toolCall of requested) {
      const content = results.get(toolCall.id);
      if (content !== undefined) messages.push({ role: 'tool', tool_call_id: toolCall.id, content });
    }
  }
  return messages;
}
