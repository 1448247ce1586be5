/** A file that may be missing or unreadable, read without throwing. */
import { readFileSync } from 'node:fs';

/** A file's text, or null when it cannot be read. */
export function readText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}
