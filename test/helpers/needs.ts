import type { Test } from "tap";

/**
 * A test that cannot find what it runs against fails; it never skips. Everything a test
 * needs is in the repository or installed by `npm ci` (the pinned host CLIs are
 * devDependencies, dist/ is built by `npm test`), so a missing piece is a broken checkout.
 */
export function needs(t: Test, present: boolean, what: string): boolean {
  if (!present) t.fail(`missing: ${what}`);
  return present;
}
