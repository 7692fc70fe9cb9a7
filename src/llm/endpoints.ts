/**
 * What the cassette code needs to know about the chat server's URLs, written once
 * here beside the client (no SDK import: `--help` and `market` load this for free).
 */

/** The path the openai SDK appends to its base URL for a chat completion. */
export const chatCompletionsPath = '/chat/completions';

/**
 * The base URL a recorded chat request went to (api.openai.com/v1, or a local
 * server's), or undefined when `url` is no chat completion: what a replay needs
 * to point the client at the recorded server.
 */
export function chatBaseUrlOf(url: string): string | undefined {
  const parsed = new URL(url);
  if (!parsed.pathname.endsWith(chatCompletionsPath)) return undefined;
  return `${parsed.origin}${parsed.pathname.slice(0, -chatCompletionsPath.length)}`;
}
