import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { errorCode, UsageError } from '../errors.js';
import type { Site } from './site.js';

/**
 * `autohedge view --bundle <dir>`: every page of the site written as files, with the
 * same relative links, plus the ledger's export and its anchors — a static site that
 * opens from `file://` and can be published as a dated, verifiable track record. The
 * folder must be new or empty, and outside the home (the view writes nothing there).
 */

async function checkTarget(dir: string, home: string): Promise<void> {
  const fromHome = relative(resolve(home), dir);
  if (fromHome === '' || (!fromHome.startsWith('..') && !fromHome.startsWith(sep) && !/^[A-Za-z]:/.test(fromHome)))
    throw new UsageError(
      `--bundle ${dir} is inside $AUTOHEDGE_HOME: the view writes nothing into the home; choose another folder`,
    );
  try {
    if ((await readdir(dir)).length > 0)
      throw new UsageError(`--bundle ${dir} is not empty: give a new or empty folder`);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = errorCode(error);
    if (code === 'ENOTDIR') throw new UsageError(`--bundle ${dir} is a file, not a folder`);
    if (code !== 'ENOENT') throw error;
  }
}

/** Writes the bundle; returns the paths written (relative to `dir`). */
export async function writeBundle(site: Site, target: string): Promise<string[]> {
  const dir = resolve(target);
  await checkTarget(dir, site.files.home);
  const written: string[] = [];
  for (const path of await site.paths()) {
    const answer = await site.get(path, new URLSearchParams());
    if (answer.status !== 200) continue;
    const file = join(dir, ...path.split('/'));
    if (!file.startsWith(dir + sep)) continue;
    await mkdir(dirname(file), { recursive: true });
    // A fresh folder (checked above), so a plain write: nothing to replace half-way.
    await writeFile(file, answer.body);
    written.push(path);
  }
  return written;
}
