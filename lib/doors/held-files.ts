/**
 * The reader's files as it holds them, for a patch's hunks (`Rewrites.heldHunk`): a patch names
 * a file by its path in the repository, the reader's views (lib/store/file-views.ts) by the
 * path the host read; the repository's root is the command's directory or one above it, so the
 * path is looked up from the directory up. Fails open: a store that cannot answer holds nothing.
 */
import { dirname, isAbsolute, join } from 'node:path';
import type { Store } from '../store/open.js';
import { loadFileViews, type LoadedView } from '../store/file-views.js';
import { heldHunk, heldHunkNote } from '../reread/held-hunk.js';
import type { HunkSides } from '../kit/units.js';
import { logDiagnostic } from '../store/diagnostics.js';

/** Directories above the command's looked in for the repository's root. */
const UP_MAX = 12;

function candidates(cwd: string, path: string): string[] {
  if (isAbsolute(path)) return [path];
  const out: string[] = [];
  let d = cwd;
  for (let i = 0; i < UP_MAX; i++) {
    out.push(join(d, path));
    const up = dirname(d);
    if (up === d) break;
    d = up;
  }
  return out;
}

export function heldHunks(store: Store, scope: { sessionId: string; agentId?: string; cwd: string }): (path: string, sides: HunkSides) => ((hidden: number) => string) | null {
  const cache = new Map<string, LoadedView[]>();
  const viewsOf = (path: string): LoadedView[] => {
    let views = cache.get(path);
    if (views) return views;
    views = [];
    for (const p of candidates(scope.cwd, path)) {
      const got = loadFileViews(store, { sessionId: scope.sessionId, agentId: scope.agentId, path: p });
      if (got.length) {
        views = got;
        break;
      }
    }
    cache.set(path, views);
    return views;
  };
  return (path, sides) => {
    try {
      const views = viewsOf(path);
      const held = views.length ? heldHunk(views, sides) : null;
      return held ? (hidden) => heldHunkNote(hidden, held) : null;
    } catch (err) {
      logDiagnostic('held-files', err);
      return null;
    }
  };
}
