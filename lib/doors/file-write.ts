/**
 * A file the model wrote into itself (an Edit of some of its lines, or the whole file written):
 * nothing goes back to the host; the view the reader now holds is recorded, so a later Read of
 * the file is answered from it (./reread.ts): the host itself tells the model after such a call
 * that the file's state is current in its context.
 *
 * The view is the lines the reader held with its own change applied (lib/reread/written.ts):
 * recorded only when every view it holds is the file as the host read it just before the call.
 * Fails open: a store that cannot record it costs the answer of a later re-read, never the call.
 */
import type { PostWriteInput } from '../hosts/adapter.js';
import { NOTHING } from '../hosts/model-view.js';
import { viewAfterWrite } from '../reread/written.js';
import { hostLines, REREAD_MAX_BYTES } from '../reread/plan.js';
import { loadFileViews, recordHeldView } from '../store/file-views.js';
import type { PostToolDeps, PostToolResult } from './tool-call.js';

const NONE: PostToolResult = { reply: '', text: '', delivered: '', view: NOTHING };

export function recordWrite(input: PostWriteInput, deps: PostToolDeps): PostToolResult {
  const { env, log } = deps;
  if (env.OMNI_LEDGER === '0' || !input.sessionId || input.after.length > REREAD_MAX_BYTES) return NONE;
  try {
    const s = deps.store.get();
    if (!s) return NONE;
    const scope = { sessionId: input.sessionId, agentId: input.agentId, path: input.path };
    const v = viewAfterWrite(input.via === 'edit' ? loadFileViews(s, scope) : [], input);
    if (!v) {
      if (env.OMNI_HOOK_TRACE) log(`${input.via} ${input.path}: no view of the file as it was before; nothing recorded`);
      return NONE;
    }
    const lines = hostLines(v.content).length;
    const at = deps.now?.() ?? Date.now();
    s.db.transaction(() => recordHeldView(s, { ...scope, at, startLine: v.startLine, lines, totalLines: v.totalLines, kind: input.via, content: Buffer.from(v.content, 'utf8') }))();
    if (env.OMNI_HOOK_TRACE) log(`${input.via} ${input.path}: the reader holds lines ${v.startLine}-${v.startLine + lines - 1} of ${v.totalLines}`);
  } catch (err) {
    log(`${input.via}: the view could not be recorded (${(err as Error).message})`);
  }
  return NONE;
}
