/**
 * The one shape of an installer's `status()` for `omni doctor`: the host detected, then the
 * host's own reading of its files into a draft (wired, files, problems), then its tier and note
 * from that draft. A host's reading that throws costs a `fail` problem, never doctor's run.
 */
import type { HostInstaller, HostStatus, Problem, Tier } from '../adapter.js';

export interface StatusDraft {
  detected: boolean;
  version?: string;
  /** The host's program, when found. */
  where?: string;
  wired: boolean;
  files: string[];
  problems: Problem[];
}

export interface StatusParts {
  /** Reads the host's files into the draft (after detection). May throw: see `failed`. */
  read(draft: StatusDraft): void | Promise<void>;
  /** What the problem says when `read` throws: `<failed>: <error>`, and its fix. */
  failed: { what: string; fix: string };
  /** The tier and the note, from the finished draft. */
  settle(draft: StatusDraft): { tier: Tier; note: string; checks?: HostStatus['checks'] };
}

export async function hostStatus(host: Pick<HostInstaller, 'id' | 'name' | 'detect'>, env: NodeJS.ProcessEnv, parts: StatusParts): Promise<HostStatus> {
  const draft: StatusDraft = { detected: false, wired: false, files: [], problems: [] };
  try {
    const d = host.detect(env);
    draft.detected = d.detected;
    draft.version = d.version;
    draft.where = d.where;
    await parts.read(draft);
  } catch (err) {
    draft.problems.push({ status: 'fail', what: `${parts.failed.what}: ${(err as Error).message}`, fix: parts.failed.fix });
  }
  const { tier, note, checks } = parts.settle(draft);
  const status: HostStatus = { id: host.id, name: host.name, detected: draft.detected, version: draft.version, wired: draft.wired, tier, files: draft.files, problems: draft.problems, note };
  if (checks) status.checks = checks;
  return status;
}
