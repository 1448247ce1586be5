import type { Test } from "tap";

/**
 * A test that cannot find what it runs against fails; it never skips. Everything a test
 * needs is in the repository or installed by `npm ci`, the pinned host CLIs by
 * scripts/host-clis.mjs (the harnesses call it; `npm test` runs it first) and dist/ by
 * `npm test`, so a missing piece is a broken checkout or a failed install.
 */
export function needs(t: Test, present: boolean, what: string): boolean {
  if (!present) t.fail(`missing: ${what}`);
  return present;
}
