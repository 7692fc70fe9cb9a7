import type { McpSection } from '../record/mcp-section.js';
import { errorMessage } from '../errors.js';
import { failedHandle } from './failed.js';
import type { McpCallResult, McpServerHandle } from './types.js';

type Call = McpSection['calls'][number];

/** Wraps live handles so every tool list and call lands in one cassette section. */
export function recordingHandles(handles: McpServerHandle[]): {
  handles: McpServerHandle[];
  section: () => McpSection;
} {
  const calls: Call[] = [];
  const wrapped = handles.map((handle): McpServerHandle => ({
    ...handle,
    async call(tool, args, signal, timeoutMs) {
      try {
        const result = await handle.call(tool, args, signal, timeoutMs);
        calls.push({
          server: handle.name,
          tool,
          arguments: asJson(args),
          result: asJson(result) as Call['result'],
          error: null,
        });
        return result;
      } catch (error) {
        // A call cut by the run's abort has no outcome worth replaying.
        if (!signal.aborted)
          calls.push({ server: handle.name, tool, arguments: asJson(args), result: null, error: errorMessage(error) });
        throw error;
      }
    },
  }));
  const section = (): McpSection => ({
    servers: handles.map((handle) => ({
      name: handle.name,
      error: handle.error,
      tools: handle.tools ? (asJson(handle.tools) as unknown as McpSection['servers'][number]['tools']) : null,
    })),
    calls,
  });
  return { handles: wrapped, section };
}

/**
 * Handles answered from a cassette: nothing is spawned or connected. Of several
 * identical recorded calls, the first unused one answers; a call the cassette does not
 * hold fails (to the model) and is reported through `onMiss`, like an HTTP replay miss.
 */
export function replayHandles(
  names: string[],
  section: McpSection | undefined,
  cassette: string,
  onMiss: (line: string) => void,
): McpServerHandle[] {
  const used = new Set<number>();
  return names.map((name): McpServerHandle => {
    const server = section?.servers.find((candidate) => candidate.name === name);
    if (!server) {
      const line = `the cassette ${cassette} holds no MCP server '${name}': re-record it with this --mcp-config`;
      onMiss(line);
      return failedHandle(name, line);
    }
    if (server.tools === null) return failedHandle(name, server.error ?? 'unavailable when recorded');
    return {
      name,
      tools: server.tools,
      error: null,
      call: async (tool, args): Promise<McpCallResult> => {
        const key = canonical(args);
        const index = (section?.calls ?? []).findIndex(
          (call, at) =>
            !used.has(at) && call.server === name && call.tool === tool && canonical(call.arguments) === key,
        );
        if (index === -1) {
          const line = `replay miss: MCP ${name}/${tool} with arguments ${key} is not in ${cassette}`;
          onMiss(line);
          throw new Error(line);
        }
        used.add(index);
        const recorded = section?.calls[index] as Call;
        if (recorded.result === null) throw new Error(recorded.error ?? 'the recorded call failed');
        return recorded.result as McpCallResult;
      },
      close: async () => {},
    };
  });
}

function asJson(value: unknown): Call['arguments'] {
  return JSON.parse(JSON.stringify(value ?? null)) as Call['arguments'];
}

/** JSON with sorted keys, so argument order does not decide a match. */
function canonical(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0))
      .map(([key, item]) => [key, sortKeys(item)]),
  );
}
