/**
 * Reading files without throwing, and reading paths that someone else named.
 *
 * A path in a hook payload (Claude Code's `persistedOutputPath`, Codex's `transcript_path`) or
 * in a host's session log may name anything: a FIFO, whose open blocks until a writer comes
 * (the hook, or the warm MCP server with every call behind it, would hang), `/dev/zero` or
 * `/dev/urandom`, which never end (stat says size 0, so a size check passes and the read grows
 * until the string limit), a directory or a socket. So such a path is opened with O_NONBLOCK
 * (opening a FIFO then returns at once), checked on the open descriptor (no swap between the
 * check and the read), and read only when it is a regular file, and only up to the size that
 * fstat saw (a file that keeps growing is read as it was).
 */
import { closeSync, constants, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';

/** A file's text, or null when it cannot be read. For omni's own and the user's config files. */
export function readText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/**
 * The most omni reads whole from a path it was handed. A host that cut a long output points at
 * a file with all of it, and omni distils that file up to this size; a larger one is left to
 * the host's own cut: a hook has a time budget, and the pipeline distils about 80 MB/s (README,
 * Streams), so 64 MiB keeps one call near a second and its memory (the text, the spool, the
 * archive's copy) to a few hundred MiB. A config file named by a payload's cwd is far smaller.
 */
export const MAX_READ_BYTES = 64 * 1024 * 1024;

/** O_NONBLOCK is POSIX; where it is missing (Windows) there are no FIFOs to block on. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/** What a file is, in words, for a refusal. */
function kindOf(s: { isDirectory(): boolean; isFIFO(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean; isSymbolicLink(): boolean }): string {
  if (s.isDirectory()) return 'a directory';
  if (s.isFIFO()) return 'a FIFO';
  if (s.isSocket()) return 'a socket';
  if (s.isCharacterDevice()) return 'a character device';
  if (s.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}

/** Thrown for a path that is not a regular file, or one over the cap. */
export class RefusedFile extends Error {
  constructor(readonly path: string, why: string) {
    super(`${path}: ${why}; not read`);
    this.name = 'RefusedFile';
  }
}

/**
 * Opens `path` for reading if it is a regular file of at most `maxBytes`: its descriptor and
 * its size now. Throws RefusedFile (or the open's own error) otherwise; closes what it opened.
 */
export function openRegularFile(path: string, maxBytes = Infinity): { fd: number; size: number } {
  const fd = openSync(path, OPEN_FLAGS);
  try {
    const s = fstatSync(fd);
    if (!s.isFile()) throw new RefusedFile(path, `${kindOf(s)}, not a regular file`);
    if (s.size > maxBytes) throw new RefusedFile(path, `${s.size} bytes, over the cap of ${maxBytes}`);
    return { fd, size: s.size };
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

/**
 * The UTF-8 text of a regular file of at most `maxBytes`, as large as it was when opened.
 * Throws RefusedFile for anything else (see the top of this file), or the read's own error.
 */
export function readRegularFile(path: string, maxBytes = MAX_READ_BYTES): string {
  const { fd, size } = openRegularFile(path, maxBytes);
  try {
    const buf = Buffer.allocUnsafe(size);
    let got = 0;
    while (got < size) {
      const n = readSync(fd, buf, got, size - got, got);
      if (n <= 0) break;
      got += n;
    }
    return buf.toString('utf8', 0, got);
  } finally {
    closeSync(fd);
  }
}

/** readRegularFile off the event loop's thread: for a host process omni lives in (Pi). */
export async function readRegularFileAsync(path: string, maxBytes = MAX_READ_BYTES): Promise<string> {
  const fh = await open(path, OPEN_FLAGS);
  try {
    const s = await fh.stat();
    if (!s.isFile()) throw new RefusedFile(path, `${kindOf(s)}, not a regular file`);
    if (s.size > maxBytes) throw new RefusedFile(path, `${s.size} bytes, over the cap of ${maxBytes}`);
    const buf = Buffer.allocUnsafe(s.size);
    let got = 0;
    while (got < s.size) {
      const { bytesRead } = await fh.read(buf, got, s.size - got, got);
      if (bytesRead <= 0) break;
      got += bytesRead;
    }
    return buf.toString('utf8', 0, got);
  } finally {
    await fh.close();
  }
}
