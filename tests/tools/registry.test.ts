import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError } from '../../src/errors.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { ToolRegistry } from '../../src/tools/registry.js';

const tool = (name: string) =>
  defineTool({
    name,
    description: `${name} tool`,
    outputs: 'text',
    parameters: z.object({ q: z.string() }),
    run: async ({ q }) => q,
  });

describe('ToolRegistry', () => {
  it('lists tools, names and definitions in registration order', () => {
    const search = tool('exa_search');
    const quote = tool('get_quote');
    const registry = new ToolRegistry([search]).register(quote);
    expect(registry.list()).toEqual([search, quote]);
    expect(registry.names()).toEqual(['exa_search', 'get_quote']);
    expect(registry.definitions()).toEqual([search.definition, quote.definition]);
    expect(registry.size).toBe(2);
  });

  it('finds a tool by name and answers undefined for an unknown one', () => {
    const search = tool('exa_search');
    const registry = new ToolRegistry([search]);
    expect(registry.get('exa_search')).toBe(search);
    expect(registry.has('exa_search')).toBe(true);
    expect(registry.get('place_order')).toBeUndefined();
    expect(registry.has('place_order')).toBe(false);
  });

  it('refuses a second tool with the same name', () => {
    const registry = new ToolRegistry([tool('exa_search')]);
    expect(() => registry.register(tool('exa_search'))).toThrow(ConfigError);
    expect(() => registry.register(tool('exa_search'))).toThrow("tool 'exa_search' is already registered");
    expect(() => new ToolRegistry([tool('a'), tool('a')])).toThrow("tool 'a' is already registered");
    expect(registry.size).toBe(1);
  });

  it('gives an empty definitions list when nothing is registered', () => {
    expect(new ToolRegistry().definitions()).toEqual([]);
  });
});
