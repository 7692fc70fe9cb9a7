/**
 * What must never be in a file autohedge writes: the exact canary values a test put
 * in the environment, and anything shaped like a credential. Findings name the kind
 * and a short prefix only, so a failing test does not print the secret it found.
 */

const shapes: ReadonlyArray<readonly [string, RegExp]> = [
  ['an OpenAI-style key (sk-…)', /\bsk-[A-Za-z0-9_-]{8,}/g],
  ['a Bearer token', /\bBearer\s+(?!REDACTED\b)[A-Za-z0-9._~+/=-]{8,}/g],
  ['a Yahoo session cookie value', /\bA3=(?!REDACTED\b)[^;"\s\\]+/g],
  ['a Yahoo crumb', /[?&]crumb=(?!REDACTED\b)[^&#"\s\\]+/g],
  [
    'a key-named field with a value',
    /["'](?:x-api-key|api[-_]?key|authorization)["']\s*:\s*["'](?!REDACTED["'])[^"']+["']/gi,
  ],
];

function preview(value: string): string {
  return `${value.slice(0, 6)}…`;
}

export function findSecrets(text: string, canaries: readonly string[] = []): string[] {
  const findings: string[] = [];
  for (const canary of canaries) {
    for (const form of new Set([canary, encodeURIComponent(canary), JSON.stringify(canary).slice(1, -1)])) {
      if (text.includes(form)) findings.push(`the canary ${preview(canary)}`);
    }
  }
  for (const [kind, pattern] of shapes) {
    for (const match of text.matchAll(pattern)) findings.push(`${kind}: ${preview(match[0])}`);
  }
  return findings;
}
