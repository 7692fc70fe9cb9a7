import { describe, expect, it } from 'vitest';
import {
  isCrumbUrl,
  REDACTED,
  scrubCrumbs,
  scrubDeep,
  scrubHeaders,
  scrubSecrets,
  scrubText,
} from '../../src/scrub.js';

describe('scrubText', () => {
  it('replaces OpenAI-style keys and bearer tokens', () => {
    expect(scrubText('key sk-proj-Ab12_cd34-EF56gh78 and sk-canary-0123456789abcdef.')).toBe(
      'key REDACTED and REDACTED.',
    );
    expect(scrubText('Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig')).toBe('Authorization: Bearer REDACTED');
  });

  it('leaves words that merely contain "sk-" alone', () => {
    expect(scrubText('https://example.com/stocks-at-risk-247021 and task-runner')).toBe(
      'https://example.com/stocks-at-risk-247021 and task-runner',
    );
  });

  it('replaces key-named fields in JSON, nested JSON strings, query strings and form bodies', () => {
    const uuid = '3f1c2b9e-8d7a-4e6f-9a5b-1c2d3e4f5a6b';
    expect(scrubText(`{"apiKey":"${uuid}","query":"NVDA"}`)).toBe('{"apiKey":"REDACTED","query":"NVDA"}');
    expect(scrubText(`{"api_key": "${uuid}"}`)).toBe('{"api_key": "REDACTED"}');
    expect(scrubText(JSON.stringify({ content: JSON.stringify({ apiKey: uuid }) }))).toBe(
      '{"content":"{\\"apiKey\\":\\"REDACTED\\"}"}',
    );
    expect(scrubText(`https://api.example.com/v1?x=1&api_key=${uuid}&y=2`)).toBe(
      'https://api.example.com/v1?x=1&api_key=REDACTED&y=2',
    );
    expect(scrubText(`apikey=${uuid}&next=1`)).toBe('apikey=REDACTED&next=1');
  });

  it('keeps JSON valid when a key field holds a non-string', () => {
    expect(JSON.parse(scrubText('{"apiKey": null, "x": 1}'))).toEqual({ apiKey: null, x: 1 });
  });

  it('replaces the Yahoo crumb in every URL the same way', () => {
    expect(
      scrubText('https://query2.finance.yahoo.com/v7/finance/quote?symbols=AAPL&crumb=Xy7c%2FumbQ.2&formatted=false'),
    ).toBe('https://query2.finance.yahoo.com/v7/finance/quote?symbols=AAPL&crumb=REDACTED&formatted=false');
    expect(scrubText('https://query1.finance.yahoo.com/v10?crumb=abc')).toBe(
      'https://query1.finance.yahoo.com/v10?crumb=REDACTED',
    );
  });

  it('replaces exact secrets, also URL-encoded and JSON-escaped, and is idempotent', () => {
    const secret = 'plain/secret"value+99';
    const text = `a ${secret} b ${encodeURIComponent(secret)} c ${JSON.stringify(secret)}`;
    const once = scrubText(text, [secret]);
    expect(once).toBe('a REDACTED b REDACTED c "REDACTED"');
    expect(scrubText(once, [secret])).toBe(once);
  });
});

describe('scrubSecrets', () => {
  it('ignores secrets too short to scrub safely', () => {
    expect(scrubSecrets('a test of 1234567', ['test', '1234567', ''])).toBe('a test of 1234567');
  });

  it('replaces a longer secret whole when it contains a shorter one', () => {
    expect(scrubSecrets('token: abcdefgh-ijklmnop', ['abcdefgh', 'abcdefgh-ijklmnop'])).toBe(`token: ${REDACTED}`);
  });
});

describe('scrubHeaders', () => {
  it('redacts credential headers, keeps cookie names and set-cookie attributes, lower-cases names', () => {
    expect(
      scrubHeaders({
        Authorization: 'Bearer sk-abc',
        'x-api-key': '3f1c2b9e-8d7a-4e6f-9a5b-1c2d3e4f5a6b',
        'api-key': 'azure-key',
        'x-goog-api-key': 'google-key',
        'openai-organization': 'org-123',
        'openai-project': 'proj_123',
        Cookie: 'A3=d=AQABBK; A1S=d=AQAB&S=xyz; GUC=AQEB',
        'set-cookie': [
          'A3=d=AQABBK; Expires=Sat, 12 Jun 2027 10:00:00 GMT; Max-Age=31557600; Domain=.yahoo.com; Path=/; SameSite=None; Secure; HttpOnly',
          'B=1',
        ],
        location: 'https://query1.finance.yahoo.com/v7?crumb=abc&symbols=AAPL',
        'content-type': 'application/json',
        'x-ratelimit-remaining-tokens': '149984',
      }),
    ).toEqual({
      authorization: 'REDACTED',
      'x-api-key': 'REDACTED',
      'api-key': 'REDACTED',
      'x-goog-api-key': 'REDACTED',
      'openai-organization': 'REDACTED',
      'openai-project': 'REDACTED',
      cookie: 'A3=REDACTED; A1S=REDACTED; GUC=REDACTED',
      'set-cookie': [
        'A3=REDACTED; Expires=Sat, 12 Jun 2027 10:00:00 GMT; Max-Age=31557600; Domain=.yahoo.com; Path=/; SameSite=None; Secure; HttpOnly',
        'B=REDACTED',
      ],
      location: 'https://query1.finance.yahoo.com/v7?crumb=REDACTED&symbols=AAPL',
      'content-type': 'application/json',
      'x-ratelimit-remaining-tokens': '149984',
    });
  });

  it('does not change its input', () => {
    const headers = { Cookie: 'a=b' };
    scrubHeaders(headers);
    expect(headers).toEqual({ Cookie: 'a=b' });
  });
});

describe('the shared rules', () => {
  it('catches keys as OpenAI masks them in a 401, keeping neither end', () => {
    expect(scrubText('Incorrect API key provided: sk-canar**********************tN3c. You can find…')).toBe(
      'Incorrect API key provided: REDACTED. You can find…',
    );
    expect(scrubText('key sk-proj-****abcd.')).toBe('key REDACTED.');
  });

  it('catches organisation ids but not words such as org-wide', () => {
    expect(scrubText('in organization org-Zx81Kq02Lm on requests')).toBe('in organization REDACTED on requests');
    expect(scrubText('an org-wide push and an org-restructuring')).toBe('an org-wide push and an org-restructuring');
  });

  it('scrubs every string of a nested value, leaving other values alone', () => {
    const value = {
      text: 'Bearer sk-live-1234567890abcdef',
      list: ['plain', 'my-own-secret-value'],
      count: 3,
      flag: null,
    };
    expect(scrubDeep(value, ['my-own-secret-value'])).toEqual({
      text: 'Bearer REDACTED',
      list: ['plain', 'REDACTED'],
      count: 3,
      flag: null,
    });
    expect(value.list[1]).toBe('my-own-secret-value');
  });

  it('catches credentials inside URLs: userinfo and token-named query parameters, nothing else', () => {
    expect(scrubText('could not connect to http://user:pa55word@127.0.0.1:9/v1 (ECONNREFUSED)')).toBe(
      'could not connect to http://REDACTED@127.0.0.1:9/v1 (ECONNREFUSED)',
    );
    expect(scrubText('"url":"https://me@host/v1"')).toBe('"url":"https://REDACTED@host/v1"');
    expect(scrubText('http://h/v1?key=abc123&x=1;sig=zz9')).toBe('http://h/v1?key=REDACTED&x=1;sig=REDACTED');
    expect(scrubText('https://h/v1?api-version=2024-06-01&access_token=zzz#frag')).toBe(
      'https://h/v1?api-version=2024-06-01&access_token=REDACTED#frag',
    );
    expect(scrubText('https://h/?session_token=t0k3n&password=hunter2&apikey=k')).toBe(
      'https://h/?session_token=REDACTED&password=REDACTED&apikey=REDACTED',
    );
    // Not credentials: an @ in a path, a parameter that merely ends in letters like "key".
    expect(scrubText('https://medium.com/@author/post and https://a.com/path/me@x.com')).toBe(
      'https://medium.com/@author/post and https://a.com/path/me@x.com',
    );
    expect(scrubText('https://monkey.example/?monkey=1&hotkey=2')).toBe('https://monkey.example/?monkey=1&hotkey=2');
  });
});

describe("Yahoo's crumb: one rule", () => {
  it('knows the getcrumb request, whose body is the crumb, and no other', () => {
    expect(isCrumbUrl('https://query1.finance.yahoo.com/v1/test/getcrumb')).toBe(true);
    expect(isCrumbUrl('http://127.0.0.1:4010/v1/test/getcrumb')).toBe(true);
    expect(isCrumbUrl('https://query2.finance.yahoo.com/v7/finance/quote?symbols=ACME&crumb=abc')).toBe(false);
    expect(isCrumbUrl('https://api.openai.com/v1/chat/completions')).toBe(false);
  });

  it('replaces the crumb in data URLs and in yahoo-finance2 debug lines with the word everything else uses', () => {
    expect(scrubText('GET /v7/finance/quote?symbols=ACME&crumb=Xy7.zZ9q')).toBe(
      `GET /v7/finance/quote?symbols=ACME&crumb=${REDACTED}`,
    );
    expect(scrubCrumbs('New crumb: Xy7.zZ9q')).toBe(`New crumb: ${REDACTED}`);
    expect(scrubCrumbs('Retrieved crumb from cookie store: Xy7.zZ9q')).toBe(
      `Retrieved crumb from cookie store: ${REDACTED}`,
    );
    expect(scrubCrumbs('fetching /v7/finance/quote?crumb=Xy7.zZ9q&symbols=ACME')).toBe(
      `fetching /v7/finance/quote?crumb=${REDACTED}&symbols=ACME`,
    );
    // Called twice in a row: the patterns are global, and must not carry state between calls.
    expect(scrubCrumbs('New crumb: second')).toBe(`New crumb: ${REDACTED}`);
    expect(scrubCrumbs('a breadcrumb trail')).toBe('a breadcrumb trail');
  });
});
