import { describe, expect, it } from 'vitest';
import { hasUnsafeCharacters, sanitizeDeep, sanitizeText, stringifyJsonSafely } from '../../src/sanitize.js';

const ESC = '\u001b';

describe('sanitizeText', () => {
  it.each([
    ['CSI clear screen', `${ESC}[2J`, '\u241b[2J'],
    ['OSC 0 window title', `${ESC}]0;pwned\u0007`, '\u241b]0;pwned\u2407'],
    ['OSC 52 clipboard write', `${ESC}]52;c;cm0gLXJmIH4=\u0007`, '\u241b]52;c;cm0gLXJmIH4=\u2407'],
    [
      'OSC 8 hyperlink',
      `${ESC}]8;;https://evil.example${ESC}\\click${ESC}]8;;${ESC}\\`,
      '\u241b]8;;https://evil.example\u241b\\click\u241b]8;;\u241b\\',
    ],
    ['8-bit C1 CSI', '\u009b2J', '\ufffd2J'],
    ['DEL', 'a\u007fb', 'a\u2421b'],
    ['lone carriage return', 'safe\rforged', 'safe\u240dforged'],
    ['bidi override', 'abc\u202edef', 'abc\ufffddef'],
    ['NUL and backspace', 'a\u0000b\u0008c', 'a\u2400b\u2408c'],
  ])('%s becomes inert visible text', (_name, input, expected) => {
    const output = sanitizeText(input);
    expect(output).toBe(expected);
    expect(output).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });

  it('keeps newlines, tabs, CRLF as LF, and ordinary Unicode', () => {
    expect(sanitizeText('a\tb\r\nc\nd — ünïcødé 📈')).toBe('a\tb\nc\nd — ünïcødé 📈');
  });

  it('is idempotent', () => {
    const once = sanitizeText(`${ESC}[31mred\u009b\r\n\rx`);
    expect(sanitizeText(once)).toBe(once);
    expect(hasUnsafeCharacters(once)).toBe(false);
    expect(hasUnsafeCharacters(`${ESC}[31m`)).toBe(true);
    expect(hasUnsafeCharacters('plain\ttext\n')).toBe(false);
  });
});

describe('sanitizeDeep', () => {
  it('sanitises every string, keys included, without mutating the input', () => {
    const input = { rationale: `${ESC}[2J`, levels: [1, `${ESC}]52;c;x\u0007`], nested: { [`k${ESC}`]: null } };
    const copy = structuredClone(input);
    const output = sanitizeDeep(input);
    expect(output).toEqual({ rationale: '\u241b[2J', levels: [1, '\u241b]52;c;x\u2407'], nested: { 'k\u241b': null } });
    expect(input).toEqual(copy);
  });
});

describe('stringifyJsonSafely', () => {
  it('writes DEL, C1 and bidi overrides as escapes, so the file holds no raw control byte and parses back exactly', () => {
    const value = { title: 'a\u009b31m b\u007f c\u202e d\u001b[2J', list: ['\u0085'] };
    const text = stringifyJsonSafely(value, 2);
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(text).toContain('a\\u009b31m b\\u007f c\\u202e d\\u001b[2J');
    expect(JSON.parse(text)).toEqual(value);
    expect(stringifyJsonSafely({ plain: 'ünïcode ✓' })).toBe(JSON.stringify({ plain: 'ünïcode ✓' }));
  });
});
