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

/**
 * What is wrong with an OpenAI-compatible base URL, named by where it came from
 * (`--base-url` or `OPENAI_BASE_URL`), or null. Credentials in the URL are refused
 * rather than moved: userinfo never reaches the server as a key (the SDK sends its own
 * Authorization header), and a URL is printed in errors and saved in cassettes.
 */
export function baseUrlProblem(value: string, source: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${source} must be an http(s) URL (got '${value}')`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return `${source} must be an http(s) URL, not ${url.protocol}`;
  if (url.username || url.password) {
    return `${source} must not carry credentials (user:password@host): put the key in OPENAI_API_KEY, which is sent as the Authorization header`;
  }
  return null;
}
