/** Where a subcommand writes. Its own module so subcommands need not import main.ts back. */
export interface Io {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}
