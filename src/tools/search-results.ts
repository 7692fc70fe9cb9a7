import { isoDay } from '../clock.js';
import { sanitizeText } from '../sanitize.js';
import type { SearchRequest, SearchResult } from '../search/types.js';
import { capText } from '../text.js';
import { toolResultMaxCharacters } from './limits.js';
import { defang, untrustedContentEnd, untrustedContentStart } from './untrusted.js';

/** The block stays this far under the loop's cap on a tool result, which must never cut its closing delimiter. */
export const searchOutputMaxCharacters = toolResultMaxCharacters - 2_000;
const snippetMaxCharacters = 1_000;
const snippetFloorCharacters = 200;

/**
 * Pages control every field, not only the snippet: a 50,000-character title must not
 * push the block past the loop's cap, which would cut off the closing delimiter.
 */
const fieldMaxCharacters = { query: 300, title: 300, url: 500, publishedDate: 64, author: 200 } as const;

/** Untrusted text as it enters: control sequences made inert, delimiters defanged. */
const clean = (text: string) => defang(sanitizeText(text));

/**
 * Page text reaches the model only inside a delimited block announced as data, and
 * no text inside can forge the block's delimiters to end it early. The block always
 * closes within searchOutputMaxCharacters: snippets shrink first, then the last
 * results are left out (and the header says how many). `note` (results dropped for
 * their date) goes into the header, outside the untrusted text.
 */
export function formatSearchResults(request: SearchRequest, results: readonly SearchResult[], note = ''): string {
  const query = JSON.stringify(capText(clean(request.query), fieldMaxCharacters.query));
  const window = `${isoDay(new Date(request.startPublishedDate))} to ${isoDay(new Date(request.endPublishedDate))}`;
  if (results.length === 0) return `No results found for ${query} published ${window}${note}.`;
  const field = (value: string | null, name: keyof typeof fieldMaxCharacters) =>
    value === null ? null : capText(clean(value), fieldMaxCharacters[name]);
  const entries = results.map((result) => ({
    title: field(result.title, 'title'),
    url: field(result.url, 'url') as string,
    publishedDate: field(result.publishedDate, 'publishedDate'),
    author: field(result.author, 'author'),
    snippet: clean(result.snippet),
  }));
  const header = (shown: number) => {
    const left = results.length - shown;
    const count =
      left > 0
        ? `${shown} of ${results.length} search results (${left} left out for length)`
        : `${shown} search results`;
    return untrustedContentStart(`${count} for ${query} published ${window}${note}`);
  };
  const compact = (shown: number, snippetCharacters: number) =>
    JSON.stringify(
      entries.slice(0, shown).map((entry) => ({ ...entry, snippet: capText(entry.snippet, snippetCharacters) })),
    );
  const fits = (shown: number, body: string) =>
    header(shown).length + body.length + untrustedContentEnd.length + 2 <= searchOutputMaxCharacters;

  // Many long results share the budget by shortening every snippet alike.
  let shown = entries.length;
  let snippetCharacters = snippetMaxCharacters;
  let body = compact(shown, snippetCharacters);
  while (!fits(shown, body) && snippetCharacters > snippetFloorCharacters) {
    snippetCharacters = Math.max(snippetFloorCharacters, snippetCharacters - 100);
    body = compact(shown, snippetCharacters);
  }
  while (!fits(shown, body) && shown > 1) {
    shown -= 1;
    body = compact(shown, snippetCharacters);
  }
  return [header(shown), body, untrustedContentEnd].join('\n');
}

/**
 * Nothing from after the run's clock reaches the model: a result dated after the end
 * of the window is dropped (a search engine's own date filter is not enough on its
 * own), and in a historical run so is an undated one, which nothing shows to be older.
 */
export function withinWindow(
  request: SearchRequest,
  results: readonly SearchResult[],
): { kept: SearchResult[]; dropped: { late: number; undated: number } } {
  const end = Date.parse(request.endPublishedDate);
  const dropped = { late: 0, undated: 0 };
  const kept = results.filter((result) => {
    const published = result.publishedDate === null ? Number.NaN : Date.parse(result.publishedDate);
    if (Number.isNaN(published)) {
      if (request.historical !== true) return true;
      dropped.undated += 1;
      return false;
    }
    if (published <= end) return true;
    dropped.late += 1;
    return false;
  });
  return { kept, dropped };
}

/** The header's account of what the date rule left out, or nothing. */
export function droppedNote(dropped: { late: number; undated: number }): string {
  const parts = [
    dropped.late > 0 ? `${dropped.late} dated after the window dropped` : '',
    dropped.undated > 0 ? `${dropped.undated} undated dropped (historical run)` : '',
  ].filter(Boolean);
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}
