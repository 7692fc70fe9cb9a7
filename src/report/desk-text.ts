import { sanitizeText } from '../sanitize.js';

/**
 * A desk's report text as blocks, so report.md and report.html keep its structure:
 * the desks write sections as an upper-case line ("TREND", "SCORES (0 to 1)") or a
 * markdown heading, followed by lines that each stand alone, and lists. Read as
 * markdown those lines would run together into one paragraph; as blocks each
 * renderer gives them headings, line breaks and lists of their own.
 */

export type DeskBlock =
  | { kind: 'heading'; text: string }
  | { kind: 'lines'; lines: string[] }
  | { kind: 'list'; ordered: boolean; items: string[] }
  | { kind: 'code'; lines: string[] };

const listItem = /^\s*(?:([-*+])|(\d{1,3})[.)])\s+(.*)$/;
const markdownHeading = /^#{1,6}\s+(.*?)\s*#*\s*$/;

/** "TREND", "KEY LEVELS", "SCORES (0 to 1)": upper case before any parenthesis, short, no full stop. */
export function isCapsHeading(line: string): boolean {
  const text = line.trim().replace(/:$/, '');
  if (text.length < 3 || text.length > 60) return false;
  const head = text.replace(/\s*\(.*\)\s*$/, '');
  return /^[A-Z][A-Z0-9 &/'’,-]*$/.test(head) && (head.match(/[A-Z]/g)?.length ?? 0) >= 3;
}

export function parseDeskText(raw: string): DeskBlock[] {
  const blocks: DeskBlock[] = [];
  let fence: string[] | null = null;
  const last = () => blocks[blocks.length - 1];
  for (const line of sanitizeText(raw).split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      if (fence) {
        blocks.push({ kind: 'code', lines: fence });
        fence = null;
      } else fence = [];
      continue;
    }
    if (fence) {
      fence.push(line);
      continue;
    }
    const trimmed = line.trim();
    if (trimmed === '') {
      blocks.push({ kind: 'lines', lines: [] });
      continue;
    }
    const heading = markdownHeading.exec(trimmed);
    if (heading || isCapsHeading(trimmed)) {
      blocks.push({ kind: 'heading', text: heading ? heading[1]! : trimmed.replace(/:$/, '') });
      continue;
    }
    const item = listItem.exec(line);
    if (item) {
      const ordered = item[2] !== undefined;
      const previous = last();
      if (previous?.kind === 'list' && previous.ordered === ordered) previous.items.push(item[3]!);
      else blocks.push({ kind: 'list', ordered, items: [item[3]!] });
      continue;
    }
    const previous = last();
    if (previous?.kind === 'lines' && previous.lines.length > 0) previous.lines.push(trimmed);
    else blocks.push({ kind: 'lines', lines: [trimmed] });
  }
  if (fence) blocks.push({ kind: 'code', lines: fence });
  // Blank lines only separate blocks; they are not blocks of their own.
  return blocks.filter((block) => block.kind !== 'lines' || block.lines.length > 0);
}

/**
 * The blocks without a trailing "SOURCES" section whose every URL is listed in the
 * report's own Sources section, so sources are shown once.
 */
export function withoutListedSources(blocks: DeskBlock[], listed: ReadonlySet<string>): DeskBlock[] {
  const index = blocks.findIndex((block) => block.kind === 'heading' && /^sources\b/i.test(block.text));
  if (index < 0) return blocks;
  const rest = blocks.slice(index + 1);
  const end = rest.findIndex((block) => block.kind === 'heading');
  const section = end < 0 ? rest : rest.slice(0, end);
  const text = section
    .map((block) =>
      block.kind === 'list' ? block.items.join('\n') : block.kind === 'heading' ? block.text : block.lines.join('\n'),
    )
    .join('\n');
  const urls = text.match(/https?:\/\/[^\s<>"'`)\]]+/g) ?? [];
  const covered = urls.length > 0 && urls.every((url) => listed.has(url.replace(/[.,;:!?*_]+$/, '')));
  if (!covered) return blocks;
  return [...blocks.slice(0, index), ...(end < 0 ? [] : rest.slice(end))];
}

/** A heading line of desk text, as parseDeskText reads one. */
function isHeadingLine(line: string): boolean {
  const trimmed = line.trim();
  return markdownHeading.test(trimmed) || isCapsHeading(trimmed);
}

/**
 * The raw text without the SOURCES section withoutListedSources dropped from its
 * blocks (the terminal wraps the raw text), so the terminal shows sources once too.
 */
export function rawWithoutSources(raw: string, blocks: DeskBlock[], shown: DeskBlock[]): string {
  if (shown.length === blocks.length) return raw;
  const lines = raw.split('\n');
  const start = lines.findIndex((line) => isHeadingLine(line) && /^(#+\s*)?sources\b/i.test(line.trim()));
  if (start < 0) return raw;
  const after = lines.slice(start + 1).findIndex(isHeadingLine);
  const end = after < 0 ? lines.length : start + 1 + after;
  return [...lines.slice(0, start), ...lines.slice(end)].join('\n').trim();
}
