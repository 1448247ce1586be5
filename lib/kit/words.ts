import { compileNative } from '../base/native-regex.js';

/**
 * Words that may state a failure even where classify found none (`tar: Exiting with failure
 * status due to previous errors` is text to classify). classify's FAILURE list is precise,
 * because a built-in distiller knows its tool and a false failure there costs savings on
 * every run; a rule is a pattern someone else wrote, possibly a broad one, so it also keeps
 * any line with one of these looser words: a death (killed, abort, segfault, core dumped,
 * OOM), a refusal (denied, refused, rejected, conflict), a timeout, an unhandled rejection.
 */
export const MAY_STATE_FAILURE = /error|fail|fatal|panic|exception|traceback|denied|cannot|can't|unable|abort|segfault|segmentation|core dump|not found|no such|killed|\boom|out of memory|refused|rejected|conflict|\btimed? ?outs?\b|deadline exceeded|unhandled|unreachable|\bE(CONN[A-Z]+|TIMEDOUT|HOSTUNREACH|NETUNREACH|ADDRINUSE|NOTFOUND|AI_AGAIN|NOSPC|ACCES|PERM|MFILE|NOENT|PIPE)\b|\bsignal \d|\bsig(kill|term|segv|abrt|bus)\b/i;

/** A warning said in words: what a fold of alike lines never hides either. */
const WARNING_WORD = /warn|deprecat/i;

let native = false;

/** Does the line hold a word that may state a failure or a warning? */
export function saysFailureOrWarning(t: string): boolean {
  // Asked of every line a fold would hide: compiled to machine code at once (lib/base/native-regex.ts).
  if (!native) {
    compileNative(MAY_STATE_FAILURE);
    native = true;
  }
  return MAY_STATE_FAILURE.test(t) || WARNING_WORD.test(t);
}
