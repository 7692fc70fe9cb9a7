/** Cut to at most `maxCharacters`, ending in an ellipsis when cut, never splitting a surrogate pair. */
export function capText(text: string, maxCharacters: number): string {
  if (text.length <= maxCharacters) return text;
  let end = maxCharacters - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end).trimEnd()}…`;
}

/**
 * Input quoted back in an error message: whole when short, else a prefix and its length, so a
 * 2 MB universe line or argument never becomes a 2 MB error line.
 */
export function quoteInput(input: string, maxCharacters = 40): string {
  if (input.length <= maxCharacters) return `'${input}'`;
  return `'${capText(input, maxCharacters)}' (${input.length.toLocaleString('en-US')} characters)`;
}
