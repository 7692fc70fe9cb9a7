import { sanitizeText } from '../sanitize.js';

/**
 * Escaping for the HTML report and the SVG chart. Untrusted text is sanitised first
 * (control characters made visible), then escaped, so it can never become markup.
 */

const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text safe inside an element or a quoted attribute of HTML or SVG. */
export function escapeHtml(text: string): string {
  return sanitizeText(text).replace(/[&<>"']/g, (character) => entities[character]!);
}

/**
 * A URL that may become a link: http(s) only, no credentials, as the URL parser
 * normalises it; null for anything else (javascript:, data:, relative, malformed).
 */
export function safeLinkUrl(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  if (parsed.username || parsed.password) return null;
  return parsed.href;
}

/**
 * The head of every self-contained page autohedge writes (report.html, the portfolio and
 * watch reports): nothing may load — no scripts, no remote fonts, images or styles; links
 * still work.
 */
export function pageHead(title: string, style: string): string[] {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
    '<meta name="referrer" content="no-referrer">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${style}</style>`,
    '</head>',
  ];
}

/** A whole self-contained page: `pageHead`, then `body` (already HTML) inside `<main>`. */
export function htmlPage(title: string, style: string, body: readonly string[]): string {
  return [...pageHead(title, style), '<body>', '<main>', ...body, '</main>', '</body>', '</html>', ''].join('\n');
}
