import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/report/markdown.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { makeResult } from '../support/results.js';

const openaiRun = () => {
  const result = makeResult({ search: { provider: 'openai', model: 'gpt-4o-mini-search-preview' } });
  result.usage.search = {
    provider: 'openai',
    model: 'gpt-4o-mini-search-preview',
    searches: 2,
    promptTokens: 6_000,
    completionTokens: 400,
    costUsd: 0.0511,
  };
  return result;
};

describe('the report says which search backed Sentiment', () => {
  it('OpenAI built-in search: in report.md and on the terminal, with searches and cost', () => {
    expect(renderMarkdown(openaiRun())).toContain(
      'Search: OpenAI built-in web search (gpt-4o-mini-search-preview), 2 searches, $0.0511.',
    );
    expect(renderTerminal(openaiRun(), { color: false, width: 100, unicode: false })).toContain(
      'Search: OpenAI built-in web search (gpt-4o-mini-search-preview), 2 searches, $0.0511',
    );
  });

  it('--search none and a run saved before --search existed', () => {
    expect(renderMarkdown(makeResult({ search: { provider: 'none', model: null } }))).toContain(
      'Search: none (--search none): Sentiment had no web search.',
    );
    expect(renderMarkdown(makeResult())).not.toContain('Search:');
  });
});
