/**
 * A plain-text table for listings (`agents`, `tools`): a header row, columns padded
 * to their widest cell, two spaces between. The last column is cut to fit `width`
 * (when known), so a row never wraps into the next line of a terminal.
 */
export function renderTable(headers: readonly string[], rows: ReadonlyArray<readonly string[]>, width = 0): string {
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const last = headers.length - 1;
  const before = widths.slice(0, last).reduce((sum, columnWidth) => sum + columnWidth + 2, 0);
  // At least 20 columns for the last cell, whatever the terminal says.
  const lastWidth = width > 0 ? Math.max(20, width - before) : Infinity;
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (column === last ? fit(cell, lastWidth) : cell.padEnd(widths[column]!)))
      .join('  ')
      .trimEnd();
  return `${[line(headers), ...rows.map(line)].join('\n')}\n`;
}

function fit(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`;
}
