/** JSON.parse's own message for `text`: its wording differs between Node versions. */
export function jsonErrorOf(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${text} parsed as JSON`);
}
