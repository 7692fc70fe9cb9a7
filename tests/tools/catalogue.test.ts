import { describe, expect, it } from 'vitest';
import {
  blindSearchOff,
  builtInToolNames,
  builtInTools,
  defaultDesks,
  namedContexts,
  noSearchOff,
  offLine,
  toolState,
  type BuiltInTool,
  type ToolRunContext,
} from '../../src/tools/catalogue.js';
import { outsideTools } from '../../src/tools/outside-tools.js';

const exaSearch = builtInTools.find((tool) => tool.name === 'exa_search')!;
const context = (over: Partial<ToolRunContext>): ToolRunContext => ({ ...namedContexts.live, ...over });

describe('the built-in catalogue: each tool says when it is off', () => {
  it.each([
    ['live, exa', context({}), true, null],
    ['live, openai', context({ search: 'openai' }), true, null],
    ["live, a caller's own provider", context({ search: 'custom' }), true, null],
    ['historical (point-in-time, still on)', context({ historical: true }), true, null],
    ['--search none', context({ search: 'none' }), false, noSearchOff],
    ['--search none, historical', context({ search: 'none', historical: true }), false, noSearchOff],
    ['blind', context({ blind: true }), false, blindSearchOff],
    ['blind and --search none: the blind reason', context({ blind: true, search: 'none' }), false, blindSearchOff],
  ] as const)('exa_search, %s', (_label, runContext, enabled, off) => {
    const state = toolState(exaSearch, runContext);
    expect(state.enabled).toBe(enabled);
    if (off) expect(state).toEqual({ enabled: false, ...off });
  });

  it('names its reason the way a run reports it', () => {
    const state = toolState(exaSearch, namedContexts.searchNone);
    expect(state.enabled ? null : offLine(exaSearch.name, state)).toBe('exa_search is off: --search none');
  });

  it('the warnings users see keep their wording', () => {
    expect(noSearchOff.warning).toBe(
      'sentiment: no web search in this run (--search none); its report rests on no news search',
    );
    expect(blindSearchOff.warning).toContain('blind run — web search is off (a query would name the company)');
  });

  it('a fixed isEnabled works as in openai-agents-js: true is always on, false always off, with its reason', () => {
    const off = { reason: 'switched off', warning: 'w', note: 'n' };
    const fixed = (isEnabled: boolean): BuiltInTool => ({ ...exaSearch, isEnabled, offReason: () => off });
    for (const runContext of Object.values(namedContexts)) {
      expect(toolState(fixed(true), runContext)).toEqual({ enabled: true });
      expect(toolState(fixed(false), runContext)).toEqual({ enabled: false, ...off });
    }
  });

  it('each entry says what it needs and costs, and which desks bind it by default (from agents/)', () => {
    expect(builtInToolNames).toEqual(builtInTools.map((tool) => tool.name));
    expect(defaultDesks('exa_search')).toEqual(['sentiment']);
    expect(exaSearch.needs).toContain('EXA_API_KEY');
    expect(exaSearch.cost).toContain('$0.007');
  });
});

describe('tools from outside (MCP, a caller own) follow one rule', () => {
  it.each([
    ['live', true],
    ['blind', false],
    ['searchNone', true],
    ['historical', true],
  ] as const)('%s: on = %s', (name, enabled) => {
    expect(outsideTools.isEnabled({ context: namedContexts[name] })).toBe(enabled);
  });
});
