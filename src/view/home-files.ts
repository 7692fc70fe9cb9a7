import { constants } from 'node:fs';
import { lstat, open, readdir } from 'node:fs/promises';
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

  /**
   * Whether every folder on the way to `segments` is a real folder of the home: a symbolic
   * link among them (watch/x -> /etc) would lead out of the home, so it is not followed.
   */
  private async foldersInside(segments: readonly string[]): Promise<boolean> {
    for (let depth = 1; depth < segments.length; depth += 1) {
      try {
        if (!(await lstat(join(this.home, ...segments.slice(0, depth)))).isDirectory()) return false;
      } catch {
        return false;
      }
    }
    return true;
  }

  /** A file's bytes, or null when it is absent, not a regular file, behind a link, or unsafe to name. */
  async read(segments: readonly string[]): Promise<Buffer | null> {
    const path = this.pathOf(segments);
    if (path === null || !(await this.foldersInside(segments))) return null;
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
    if (path === null || !(await this.foldersInside([...segments, 'entry']))) return [];
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
