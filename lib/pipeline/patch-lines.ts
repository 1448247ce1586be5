/**
 * Where a line stands in a patch (`git diff`, `git show`, `git log -p`, `diff -u`): a file or
 * hunk header, a line of a hunk, or neither. The ledger never folds the first two: a header
 * says which file and which lines a hunk is about, and a hunk's lines say what this change is,
 * here; lines the reader saw in another patch (the working tree's diff before the commit's)
 * mean something else in this one.
 *
 * After a hunk header, every line that starts as a hunk's lines do (` `, `+`, `-`, `\`, or an
 * empty context line) is taken for one, until one does not. The counts in the header are not
 * relied on: a distiller may have hidden some of the hunk's lines behind a marker already, and
 * taking a line after the hunk for a hunk line only leaves it unfolded.
 */

const FILE_HEADER = /^(diff --git |diff --cc |diff --combined |diff -|index [0-9a-f]+(,[0-9a-f]+)*\.\.[0-9a-f]+|--- |\+\+\+ |new file mode |deleted file mode |old mode |new mode |similarity index |dissimilarity index |rename from |rename to |copy from |copy to |Binary files .* differ$)/;
/** `--- x`/`+++ x` in a file header's shape, for `diff -u`, which prints no `diff` line first. */
const PLAIN_FILE_HEADER = /^(---|\+\+\+) (a\/|b\/|\/dev\/null|[^\t]+\t)/;
const HUNK = /^@@@* -\d+(,\d+)? .*@@/;
const HUNK_LINE = /^([ +\-\\]|$)/;

export type PatchPlace = 'header' | 'hunk' | null;

export class PatchLines {
  private inHunk = false;
  /** A file or hunk header was seen: `--- `/`+++ ` lines count as headers from then on. */
  private inPatch = false;

  /** The place of the next line of the output (lines must be seen in order). */
  see(text: string): PatchPlace {
    if (this.inHunk) {
      if (HUNK_LINE.test(text)) return 'hunk';
      this.inHunk = false;
    }
    if (HUNK.test(text)) {
      this.inHunk = true;
      this.inPatch = true;
      return 'header';
    }
    if (FILE_HEADER.test(text)) {
      if (text.startsWith('diff ')) this.inPatch = true;
      // Outside a patch, `--- x` and `+++ x` are headers only in a file header's shape: a
      // Markdown rule or a changelog line is not one.
      if ((text.startsWith('--- ') || text.startsWith('+++ ')) && !this.inPatch && !PLAIN_FILE_HEADER.test(text)) return null;
      return 'header';
    }
    return null;
  }
}
