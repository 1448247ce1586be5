/**
 * What a pipe's tail does to the producer's output: the one list the registry routes by and
 * producerArgv reads (no regex copy elsewhere).
 */

/** Tails that reshape the producer's output: they own it, so omni passes it through. */
export const RESHAPING_TAILS = new Set([
  'jq', 'yq', 'awk', 'gawk', 'cut', 'wc', 'sort', 'uniq', 'xargs', 'base64', 'sed', 'tr',
  'column', 'paste', 'join', 'comm', 'fmt', 'fold', 'tac', 'rev', 'od', 'xxd', 'hexdump',
  'python', 'python3', 'node', 'perl', 'ruby', 'sha256sum', 'md5sum', 'gzip', 'bzip2',
  'xz', 'zstd', 'nl', 'diff', 'cmp', 'strings', 'json_pp', 'bat',
]);
/**
 * Tails that only cut the producer's output, or copy it unchanged (`| tee out.txt` writes a file
 * and prints every byte it reads): the producer keeps ownership.
 */
export const KEEPING_TAILS = new Set(['head', 'tail', 'cat', 'less', 'more', 'tee']);
