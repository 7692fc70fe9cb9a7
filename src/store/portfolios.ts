import { errorMessage } from '../errors.js';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { writeFileAtomic } from '../atomic-write.js';
import { RunStoreError } from './errors.js';

/**
 * Proposed books on disk: $AUTOHEDGE_HOME/portfolios/<id>/ holds portfolio.json,
 * report.md, report.html and weights.svg (when there is a weight to draw). The id is
 * the book's clock and a hash of its JSON, so the same book saved twice lands in the
 * same place and two different books never collide.
 */

export const portfolioFileNames = {
  json: 'portfolio.json',
  report: 'report.md',
  html: 'report.html',
  chart: 'weights.svg',
} as const;

export interface PortfolioFiles {
  json: string;
  markdown: string;
  html: string;
  chart: string | null;
}

export function portfoliosDirectory(home: string): string {
  return join(home, 'portfolios');
}

export function portfolioId(asOf: Date, json: string): string {
  const stamp = asOf
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `${stamp}-portfolio-${createHash('sha256').update(json).digest('hex').slice(0, 8)}`;
}

/** Writes the files into `dir`, portfolio.json last (a directory without it did not finish saving). */
export async function writePortfolioFiles(dir: string, files: PortfolioFiles): Promise<void> {
  try {
    if (files.chart) await writeFileAtomic(join(dir, portfolioFileNames.chart), files.chart, { createParents: true });
    await writeFileAtomic(join(dir, portfolioFileNames.report), files.markdown, { createParents: true });
    await writeFileAtomic(join(dir, portfolioFileNames.html), files.html, { createParents: true });
    await writeFileAtomic(join(dir, portfolioFileNames.json), files.json, { createParents: true });
  } catch (error) {
    throw new RunStoreError(`cannot write ${dir}: ${errorMessage(error)}`, 'unwritable', {
      cause: error,
    });
  }
}
