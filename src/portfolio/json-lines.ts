import { formatIssuePath } from '../zod-issues.js';

/**
 * The line each value of a JSON text starts on, by path (`positions[2].quantity`), so
 * a schema error in a holdings file names its line like a CSV error does. Only for
 * text JSON.parse already accepted: it scans, it does not validate.
 */
export function jsonValueLines(text: string): Map<string, number> {
  const lines = new Map<string, number>();
  let at = 0;
  let line = 1;
  const skipSpace = () => {
    while (at < text.length && /\s/.test(text[at]!)) {
      if (text[at] === '\n') line += 1;
      at += 1;
    }
  };
  const readString = (): string => {
    const start = at;
    at += 1;
    while (at < text.length && text[at] !== '"') at += text[at] === '\\' ? 2 : 1;
    at += 1;
    return JSON.parse(text.slice(start, at)) as string;
  };
  const readValue = (path: string): void => {
    skipSpace();
    lines.set(path, line);
    const character = text[at];
    if (character === '{') {
      at += 1;
      for (skipSpace(); text[at] !== '}' && at < text.length; skipSpace()) {
        if (text[at] === ',') at += 1;
        skipSpace();
        const key = readString();
        skipSpace();
        at += 1; // the colon
        readValue(path === '' ? key : `${path}.${key}`);
      }
      at += 1;
    } else if (character === '[') {
      at += 1;
      let index = 0;
      for (skipSpace(); text[at] !== ']' && at < text.length; skipSpace()) {
        if (text[at] === ',') at += 1;
        readValue(`${path}[${index}]`);
        index += 1;
      }
      at += 1;
    } else if (character === '"') {
      readString();
    } else {
      while (at < text.length && !/[\s,\]}]/.test(text[at]!)) at += 1;
    }
  };
  readValue('');
  return lines;
}

/** The line of the deepest known value on `path` (a missing key is reported at its object). */
export function lineOf(lines: ReadonlyMap<string, number>, path: ReadonlyArray<PropertyKey>): number {
  for (let length = path.length; length >= 0; length -= 1) {
    const key = formatIssuePath(path.slice(0, length));
    const found = lines.get(key);
    if (found !== undefined) return found;
  }
  return 1;
}
