import { sanitizeDeep } from '../sanitize.js';
import type { AgentReport } from '../agent/types.js';
import type { AnalysisResult } from '../result/types.js';
import { formatCost } from './format.js';

/**
 * The web sources behind a desk's report: URLs the desk cites in its text, then
 * URLs its searches returned. A search result's content is whatever the tool sent
 * the model (exa_search: a JSON array inside a delimited block), so titles are taken
 * when the JSON has them and URLs are otherwise found by pattern.
 */

export interface Source {
  url: string;
  title: string | null;
  /** Cited in the report's text, or only returned by a search. */
  cited: boolean;
}

const urlPattern = /https?:\/\/[^\s<>"'`)\]]+/g;

export function collectSources(report: AgentReport): Source[] {
  const byUrl = new Map<string, Source>();
  for (const url of urlsIn(report.text)) {
    if (!byUrl.has(url)) byUrl.set(url, { url, title: null, cited: true });
  }
  for (const call of report.toolCalls ?? []) {
    if (!call.result) continue;
    for (const found of sourcesInResult(call.result)) {
      const known = byUrl.get(found.url);
      if (known) known.title ??= found.title;
      else byUrl.set(found.url, { url: found.url, title: found.title, cited: false });
    }
  }
  return [...byUrl.values()];
}

export function urlsIn(text: string): string[] {
  const urls: string[] = [];
  for (const match of text.matchAll(urlPattern)) {
    const url = trimTrailing(match[0]);
    if (url.length > 'https://'.length && !urls.includes(url)) urls.push(url);
  }
  return urls;
}

/** Sentence punctuation after a URL is the sentence's, not the URL's. */
function trimTrailing(url: string): string {
  return url.replace(/[.,;:!?*_]+$/, '');
}

function sourcesInResult(content: string): Array<{ url: string; title: string | null }> {
  const found: Array<{ url: string; title: string | null }> = [];
  // exa_search sends a JSON array between a header line and an end line.
  for (const candidate of [content, ...content.split('\n')]) {
    const trimmed = candidate.trim();
    if (!trimmed.startsWith('[') && !trimmed.startsWith('{')) continue;
    try {
      // Parsed after the result was sanitised, so its `\u001b` escapes decode to control characters: sanitise again.
      collectFromJson(sanitizeDeep(JSON.parse(trimmed)), found);
    } catch {
      // Not JSON after all: the URL pattern below still finds its links.
    }
  }
  for (const url of urlsIn(content)) {
    if (!found.some((source) => source.url === url)) found.push({ url, title: null });
  }
  return found;
}

function collectFromJson(value: unknown, found: Array<{ url: string; title: string | null }>): void {
  if (Array.isArray(value)) {
    for (const item of value) collectFromJson(item, found);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  const record = value as Record<string, unknown>;
  if (typeof record.url === 'string' && /^https?:\/\//.test(record.url)) {
    const title = typeof record.title === 'string' && record.title.trim() !== '' ? record.title.trim() : null;
    if (!found.some((source) => source.url === record.url)) found.push({ url: record.url, title });
  }
  for (const nested of Object.values(record)) {
    if (typeof nested === 'object' && nested !== null) collectFromJson(nested, found);
  }
}

/**
 * Which search backed Sentiment, for the report: the provider, its model, how many
 * searches and what they cost. Null for a run saved before `--search` existed.
 */
export function searchBackingLine(result: Pick<AnalysisResult, 'search' | 'usage'>): string | null {
  const search = result.search;
  if (!search) return null;
  if (search.provider === 'none') return 'Search: none (--search none): Sentiment had no web search';
  const names = {
    openai: `OpenAI built-in web search (${search.model ?? 'unknown model'})`,
    exa: 'Exa',
    custom: 'a custom search provider',
  };
  const name = names[search.provider];
  const used = result.usage?.search;
  if (!used) return `Search: ${name}, no search made`;
  return `Search: ${name}, ${used.searches} search${used.searches === 1 ? '' : 'es'}, ${used.costUsd === null ? 'cost unknown' : formatCost(used.costUsd)}`;
}
