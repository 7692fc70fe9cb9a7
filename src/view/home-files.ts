import { constants } from 'node:fs';
import { open, readdir } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { errorCode } from '../errors.js';
import { isSafeSegment } from './links.js';

/**
 * Reading $AUTOHEDGE_HOME for the view, and nothing else: every path is built from
 * segments that each pass `isSafeSegment` (no `..`, no separator, no leading dot), must
 * resolve inside the home, and is opened read-only without following a symbolic link;
 * only regular files are read, up to a size limit. Nothing here writes.
 */

const maxFileBytes = 64 * 1024 * 1024;

export class HomeFiles {
  readonly home: string;

  constructor(home: string) {
    this.home = resolve(home);
  }

  /** The absolute path of `segments` under the home, or null when any segment is unsafe. */
  pathOf(segments: readonly string[]): string | null {
    if (segments.length === 0 || !segments.every(isSafeSegment)) return null;
    const path = resolve(this.home, ...segments);
    return path.startsWith(this.home + sep) ? path : null;
  }

  /** A file's bytes, or null when it is absent, not a regular file, a link, or unsafe to name. */
  async read(segments: readonly string[]): Promise<Buffer | null> {
    const path = this.pathOf(segments);
    if (path === null) return null;
    let handle;
    try {
      handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch {
      return null;
    }
    try {
      const info = await handle.stat();
      if (!info.isFile() || info.size > maxFileBytes) return null;
      return await handle.readFile();
    } finally {
      await handle.close();
    }
  }

  async readText(segments: readonly string[]): Promise<string | null> {
    return (await this.read(segments))?.toString('utf8') ?? null;
  }

  /** The safe names in a folder of the home (directories, or files when `files`), sorted; none when it is absent. */
  async list(segments: readonly string[], kind: 'directories' | 'files'): Promise<string[]> {
    const path = segments.length === 0 ? this.home : this.pathOf(segments);
    if (path === null) return [];
    try {
      const entries = await readdir(path, { withFileTypes: true });
      return entries
        .filter((entry) => (kind === 'directories' ? entry.isDirectory() : entry.isFile()))
        .map((entry) => entry.name)
        .filter(isSafeSegment)
        .sort();
    } catch (error) {
      const code = errorCode(error);
      if (code === 'ENOENT' || code === 'ENOTDIR') return [];
      throw error;
    }
  }
}

/** `home/<segments>` for a caller that needs the path (the ledger's own readers). */
export function homePath(home: string, ...segments: string[]): string {
  return join(resolve(home), ...segments);
}
