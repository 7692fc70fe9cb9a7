/**
 * Secret scrubbing for everything autohedge prints or writes: error messages,
 * cassettes, transcripts, saved runs. One set of rules, so what one path would
 * catch no other path lets through. Pure functions, no I/O.
 *
 * Scrubbing must be deterministic: replay matches a live request against the
 * scrubbed recording by scrubbing the live request the same way (a market vendor's session crumb
 * becomes `crumb=REDACTED` on both sides).
 */

export const REDACTED = 'REDACTED';

/** Headers whose whole value is a credential. */
const SECRET_HEADER_NAMES = new Set([
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'api-key',
  'openai-organization',
  'openai-project',
]);

/** Catches vendor-specific credential headers (x-goog-api-key, x-access-token) without a list. */
const SECRET_HEADER_PATTERN = /(?:api[-_]?key|secret|(?:^|-)(?:access-|auth-)?token)$/i;

/**
 * Shorter values are not scrubbed by exact match: replacing a 4-character test key
 * everywhere would mangle ordinary text, and real keys are far longer.
 */
export const MINIMUM_SECRET_LENGTH = 8;

/*
 * The market vendor's session crumb (src/market/sources/), the one rule for it everywhere: its getcrumb endpoint answers
 * the crumb as the whole body, every data URL carries it as `crumb=`, and yahoo-finance2's
 * debug lines name it ("New crumb: …"). Fresh RegExp objects: the patterns are global.
 */
const crumbPath = '/v1/test/getcrumb';
const crumbInQuery = () => /([?&](?:crumb|gcrumb)=)[^&#\s"']*/g;
const crumbInLogLine = () => /(crumb[^:=]{0,20}[:=]\s*)[^\s&]+/gi;

/** Whether `url` is the vendor's getcrumb request, whose response body is the crumb itself. */
export function isCrumbUrl(url: string): boolean {
  return new URL(url).pathname.endsWith(crumbPath);
}

/** A log line with every crumb replaced, in URLs and in yahoo-finance2's own wording. */
export function scrubCrumbs(line: string): string {
  return line.replace(crumbInQuery(), `$1${REDACTED}`).replace(crumbInLogLine(), `$1${REDACTED}`);
}

const KEY_PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  // OpenAI keys (sk-…, sk-proj-…), also as OpenAI masks them in a 401 (`sk-proj-****abcd`,
  // `sk-canar****…tN3c`, which keep the key's ends); \b keeps "…at-risk-2470" in a URL slug intact.
  [/\bsk-(?=[A-Za-z0-9_*…-]*[*…])[A-Za-z0-9_*…-]+/g, REDACTED],
  [/\bsk-[A-Za-z0-9_-]{8,}/g, REDACTED],
  // Organisation ids quoted in rate-limit messages; a digit tells one from "org-wide".
  [/\borg-(?=[A-Za-z]*\d)[A-Za-z0-9]{8,}/g, REDACTED],
  [/\b(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/g, `$1${REDACTED}`],
  // Key-named fields: "apiKey":"<uuid>" in JSON (also JSON nested in a JSON string, hence \\*),
  // and api_key=… in query strings and form bodies.
  [
    /(\\*["'](?:x-)?(?:api[-_]?key|access[-_]?token|client[-_]?secret)\\*["']\s*:\s*\\*["'])[^"'\\]+/gi,
    `$1${REDACTED}`,
  ],
  [/((?:^|[?&;\s])(?:x-)?(?:api[-_]?key|access[-_]?token|client[-_]?secret)=)[^&#\s"']+/gi, `$1${REDACTED}`],
  // Credentials inside a URL: userinfo (`https://user:pass@host`) and token-named query
  // parameters (`?key=…`, `&access_token=…`, `?sig=…`), wherever a URL is printed or saved.
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>\\]+@/gi, `$1${REDACTED}@`],
  [
    /([?&;](?:[A-Za-z0-9-]*[_-])?(?:key|apikey|token|secret|password|passwd|signature|sig|auth)=)[^&#;\s"'\\]+/gi,
    `$1${REDACTED}`,
  ],
  // The vendor's crumb travels in the query string of every data URL.
  [crumbInQuery(), `$1${REDACTED}`],
];

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Replaces every exact occurrence of each secret (and its URL-encoded form) with REDACTED. */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (secret.length < MINIMUM_SECRET_LENGTH) continue;
    forms.add(secret);
    forms.add(encodeURIComponent(secret));
    // A secret inside a JSON string literal appears with its escapes.
    forms.add(JSON.stringify(secret).slice(1, -1));
  }
  if (forms.size === 0) return text;
  // Longest first, so a secret that contains another is replaced whole.
  const alternatives = [...forms].sort((left, right) => right.length - left.length).map(escapeRegExp);
  return text.replace(new RegExp(alternatives.join('|'), 'g'), REDACTED);
}

/** Exact secrets first, then anything shaped like a credential (sk-…, Bearer …, apiKey fields, crumb=). */
export function scrubText(text: string, secrets: readonly string[] = []): string {
  let scrubbed = scrubSecrets(text, secrets);
  for (const [pattern, replacement] of KEY_PATTERNS) {
    scrubbed = scrubbed.replace(pattern, replacement);
  }
  return scrubbed;
}

/** A copy of any JSON-like value with every string scrubbed. */
export function scrubDeep<T>(value: T, secrets: readonly string[] = []): T {
  if (typeof value === 'string') return scrubText(value, secrets) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => scrubDeep(item, secrets)) as T;
  if (value !== null && typeof value === 'object') {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) copy[key] = scrubDeep(item, secrets);
    return copy as T;
  }
  return value;
}

/** `a=1; b=2` -> `a=REDACTED; b=REDACTED`: names stay so a reader sees which cookies were sent. */
function scrubCookie(value: string): string {
  return value
    .split(';')
    .map((pair) => {
      const equals = pair.indexOf('=');
      return equals === -1 ? pair : `${pair.slice(0, equals + 1)}${REDACTED}`;
    })
    .join(';');
}

/**
 * `A3=xyz; Domain=.yahoo.com; Path=/` -> `A3=REDACTED; Domain=.yahoo.com; Path=/`:
 * the name and attributes stay so a cookie jar still stores and sends it on replay.
 */
function scrubSetCookie(value: string, secrets: readonly string[]): string {
  const separator = value.indexOf(';');
  const pair = separator === -1 ? value : value.slice(0, separator);
  const attributes = separator === -1 ? '' : value.slice(separator);
  return `${scrubCookie(pair)}${scrubText(attributes, secrets)}`;
}

/** Request headers whose value is the caller's own credential. */
const CREDENTIAL_REQUEST_HEADERS = ['authorization', 'x-api-key', 'api-key'];

/**
 * The credentials a request carries, so their exact values can be scrubbed from
 * everything else (a server echoing a key back, a key pasted into a prompt).
 */
export function requestCredentials(header: (name: string) => string | null | undefined): string[] {
  const values: string[] = [];
  for (const name of CREDENTIAL_REQUEST_HEADERS) {
    const value = header(name);
    if (value) values.push(value.replace(/^Bearer\s+/i, ''));
  }
  return values;
}

export type HeaderValues = Record<string, string | readonly string[]>;
export type ScrubbedHeaders = Record<string, string | string[]>;

/** Lower-cases names; credential headers become REDACTED, cookies keep their names, the rest is pattern-scrubbed. */
export function scrubHeaders(headers: HeaderValues, secrets: readonly string[] = []): ScrubbedHeaders {
  const scrubbed: ScrubbedHeaders = {};
  for (const [rawName, rawValue] of Object.entries(headers)) {
    const name = rawName.toLowerCase();
    const scrubOne = (value: string): string => {
      if (SECRET_HEADER_NAMES.has(name) || SECRET_HEADER_PATTERN.test(name)) return REDACTED;
      if (name === 'cookie') return scrubCookie(value);
      if (name === 'set-cookie') return scrubSetCookie(value, secrets);
      return scrubText(value, secrets);
    };
    scrubbed[name] = typeof rawValue === 'string' ? scrubOne(rawValue) : rawValue.map(scrubOne);
  }
  return scrubbed;
}
