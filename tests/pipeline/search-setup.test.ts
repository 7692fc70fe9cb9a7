import { describe, expect, it } from 'vitest';
import { agentDefinitions } from '../../agents/index.js';
import { defaultPriceTable } from '../../src/llm/prices.js';
import { noSearchNote, noSearchWarning, setUpSearch, switchedOffWarnings } from '../../src/pipeline/search-setup.js';
import { blindSearchOff } from '../../src/tools/catalogue.js';
import { disabledToolNotes, specFor, type SpecSource } from '../../src/pipeline/specs.js';
import type { SearchProvider } from '../../src/search/types.js';

const asOf = new Date('2026-11-28T12:00:00Z');
const ignore = () => {};
// A roster where Quant names the search tool too: whoever names it gets it, or the note.
const roster = agentDefinitions.map((definition) =>
  definition.id === 'quant' ? { ...definition, tools: ['exa_search'] as const } : definition,
);

function source(search: SearchProvider | null, blind = false): SpecSource {
  const set = setUpSearch(search, { cap: null, prices: defaultPriceTable, events: ignore }, { blind });
  return { roster, toolsByName: set.toolsByName, disabledTools: set.disabledTools, asOf, env: {} };
}

describe('setUpSearch and the agents that name the search tool', () => {
  it('--search none: no agent is bound the tool, each that names it is told, the run warns', () => {
    const none = setUpSearch(null, { cap: null, prices: defaultPriceTable, events: ignore });
    expect(none).toMatchObject({ provider: null, backing: { provider: 'none', model: null } });
    expect(switchedOffWarnings(none, roster)).toEqual([noSearchWarning]);
    const specs = source(null);
    for (const id of ['sentiment', 'quant']) {
      expect(specFor(id, specs).tools).toEqual([]);
      expect(disabledToolNotes(id, specs)).toBe(noSearchNote);
    }
    expect(disabledToolNotes('risk', specs)).toBe('');
    // The warning is for a run in which some agent names the tool: `--agent risk` is not told.
    expect(
      switchedOffWarnings(
        none,
        roster.filter((definition) => definition.id === 'risk'),
      ),
    ).toEqual([]);
  });

  it('a blind run: the tool is off whatever provider is given, with the blind note and warning, and no search runs', () => {
    const provider: SearchProvider = { id: 'exa', search: async () => [] };
    const blind = setUpSearch(provider, { cap: null, prices: defaultPriceTable, events: ignore }, { blind: true });
    expect(blind).toMatchObject({ provider: null, toolsByName: {}, backing: { provider: 'none', model: null } });
    expect(switchedOffWarnings(blind, roster)).toEqual([blindSearchOff.warning]);
    const specs = source(provider, true);
    expect(specFor('sentiment', specs).tools).toEqual([]);
    expect(disabledToolNotes('sentiment', specs)).toBe(blindSearchOff.note);
  });

  it('a provider: every agent that names exa_search gets it, and nobody is told anything', () => {
    const provider: SearchProvider = { id: 'openai', model: 'gpt-4o-mini-search-preview', search: async () => [] };
    const specs = source(provider);
    expect(specFor('quant', specs).tools.map((tool) => tool.name)).toEqual(['exa_search']);
    expect(specFor('sentiment', specs).tools.map((tool) => tool.name)).toEqual(['exa_search']);
    expect(disabledToolNotes('sentiment', specs)).toBe('');
    expect(setUpSearch(provider, { cap: null, prices: defaultPriceTable, events: ignore }).backing).toEqual({
      provider: 'openai',
      model: 'gpt-4o-mini-search-preview',
    });
  });
});
