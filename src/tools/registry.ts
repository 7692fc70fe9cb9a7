import { ConfigError } from '../errors.js';
import type { ToolDefinition } from '../llm/types.js';
import type { Tool } from './types.js';

/**
 * The tools one agent may call, by name. A duplicate name is refused because the
 * model addresses tools only by name: two with one name would make calls ambiguous.
 */
export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();

  constructor(tools: Iterable<Tool> = []) {
    for (const tool of tools) this.register(tool);
  }

  register(tool: Tool): this {
    if (this.tools.has(tool.name)) {
      throw new ConfigError(`tool '${tool.name}' is already registered`);
    }
    this.tools.set(tool.name, tool);
    return this;
  }

  get(name: string): Tool | undefined {
    return this.tools.get(name);
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  /** In registration order. */
  list(): Tool[] {
    return [...this.tools.values()];
  }

  names(): string[] {
    return [...this.tools.keys()];
  }

  /** The request's `tools` array, in registration order. */
  definitions(): ToolDefinition[] {
    return this.list().map((tool) => tool.definition);
  }

  get size(): number {
    return this.tools.size;
  }
}

/**
 * The tools an agent definition names, looked up in `toolsByName`. A name no source
 * provides is a broken definition, refused before any model call.
 */
export function bindTools(
  agent: string,
  names: readonly string[],
  toolsByName: Readonly<Record<string, Tool>>,
): Tool[] {
  return names.map((name) => {
    const tool = Object.hasOwn(toolsByName, name) ? toolsByName[name] : undefined;
    if (!tool) {
      const known = Object.keys(toolsByName);
      throw new ConfigError(
        `agent ${agent} names tool '${name}', which is not available (known: ${known.length > 0 ? known.join(', ') : 'none'})`,
      );
    }
    return tool;
  });
}
