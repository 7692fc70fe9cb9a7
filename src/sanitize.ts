/**
 * The one sanitiser for text autohedge did not write: model answers, tool and
 * search results, MCP output, server error bodies, names. Applied where such text
 * enters, so nothing downstream (terminal, report.md, --trace, runs show, progress)
 * can receive a terminal control sequence from it.
 *
 * It keeps `\n` and `\t` and makes every other control character visible instead
 * of letting a terminal act on it: ESC becomes `␛` (so `ESC[2J`, OSC 0 titles,
 * OSC 52 clipboard writes and OSC 8 links arrive as inert text), other C0 characters
 * and DEL become their Unicode control pictures, 8-bit C1 characters (`\x9b` is a
 * one-byte CSI) become `�`, and bidirectional overrides (which reorder what a
 * reader sees) become `�` too. CRLF is folded to LF first, so Windows line endings
 * stay line endings; a lone CR (which rewrites the current line) is shown as `␍`.
 *
 * Pure and idempotent: sanitising sanitised text changes nothing. autohedge's own
 * colours are added after this, by the renderers, so they still work.
 */

const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

function visible(character: string): string {
  const code = character.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return '\u2421';
  return '\ufffd';
}

/** Untrusted text made safe for a terminal or a file: see the module comment. */
export function sanitizeText(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(UNSAFE, visible);
}

/** True when `text` holds anything sanitizeText would change (for tests and guards). */
export function hasUnsafeCharacters(text: string): boolean {
  return /\r\n/.test(text) || new RegExp(UNSAFE.source).test(text);
}

/**
 * Every string inside a JSON-shaped value sanitised (keys too), for structured model
 * output and tool results. Returns a new value; the input is not mutated.
 */
export function sanitizeDeep<Value>(value: Value): Value {
  if (typeof value === 'string') return sanitizeText(value) as Value;
  if (Array.isArray(value)) return value.map((item: unknown) => sanitizeDeep(item)) as Value;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).map(([key, item]) => [
      sanitizeText(key),
      sanitizeDeep(item),
    ]);
    return Object.fromEntries(entries) as Value;
  }
  return value;
}

/**
 * Characters JSON.stringify leaves raw that a terminal may still act on: DEL, the
 * 8-bit C1 range (`\x9b` is a one-byte CSI) and bidirectional overrides. (C0 controls
 * JSON.stringify already escapes.)
 */
const RAW_IN_JSON = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * JSON.stringify with every character a terminal could act on written as a `\uXXXX`
 * escape: the data stays exact (a reader parses back the same strings) while
 * `cat result.json` or `--json` on a terminal cannot run a control sequence. Such
 * characters can only occur inside JSON strings, where the escape is valid.
 */
export function stringifyJsonSafely(value: unknown, space?: number): string {
  return JSON.stringify(value, null, space).replace(
    RAW_IN_JSON,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
