import t from 'tap';
import fc from 'fast-check';
import { maySecret, redactUngated } from '../../lib/pipeline/redact.js';
import { SECRET_SHAPES } from '../helpers/secrets.js';
import { disagreements } from '../helpers/corpus.js';

/** The flat list maySecret's trie stands for: the record of what it lets through. */
const FLAT = /pass|pwd|pypi-|token|secret|sk-|sk_|sg\.|shpat_|shpss_|shpca_|shppa_|sig=|key|bearer|begin|auth|aiza|akia|asia|credential|curl|ghp_|gho_|ghu_|ghs_|ghr_|github_pat_|glpat-|gldt-|glrt-|glptt-|glsoat-|xox[abeoprs]-|xapp-|eyj|npm_|hvs\.|hvb\.|hvr\.|hf_|hooks\.slack|rk_|whsec_|dckr_pat_|dop_v1_|doo_v1_|dor_v1_|:\/\/[^\s/@:]*:[^\s/@]+@/i;

t.test('redact pre-check: says what the flat list said on every corpus line', async (t) => {
  const { lines, yes, bad } = disagreements(maySecret, (l) => FLAT.test(l));
  t.ok(lines > 10000 && yes > 100, `${lines} lines, ${yes} pass the check`);
  t.same(bad, []);
});

t.test('redact pre-check: the same on fuzzed words, any case', async (t) => {
  const bits = ['pass', 'PASS', 'Pwd', 'pw', 'pypi-', 'token', 'TOKEN', 'secret', 'Secre', 'key', 'KEY', 'ke', 'bearer', 'Bearer', 'BEGIN', 'begin', 'beg', 'auth', 'AUTH', 'credential', 'curl', 'cur', 'AIza', 'aiz', 'AKIA', 'ASIA', 'asi', 'eyJ', 'ey', 'ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'gh_', 'github_pat_', 'GITHUB_PAT_', 'glpat-', 'gldt-', 'glrt-', 'glptt-', 'glsoat-', 'gl', 'sk-', 'SK-', 'sk_', 'rk_', 'SG.', 'sg', 'sig=', 'si', 'shpat_', 'shpss_', 'shp', 'npm_', 'np', 'hvs.', 'hvb.', 'hvr.', 'hv', 'hf_', 'hooks.slack', 'hooks', 'whsec_', 'wh', 'dckr_pat_', 'dop_v1_', 'doo_v1_', 'dor_v1_', 'do', 'xoxb-', 'xoxe-', 'xoxz-', 'XOXP-', 'xapp-', 'xa', 'https://', 'u:p@', ':p@', 'a:b', '@', ':', '/', '.', ' ', 'x', '=', '_', '-', 'é', 'ſ', 'K'];
  await fc.assert(fc.property(fc.array(fc.constantFrom(...bits), { maxLength: 8 }), (parts) => {
    const line = parts.join('');
    return maySecret(line) === FLAT.test(line);
  }), { numRuns: 20000, seed: 7 });
  t.pass('agree on 20000 lines');
});

t.test('redact pre-check is sound: every line a rule masks passes it', async (t) => {
  // Each shape amid generated noise, in any case the rules accept: when the rules (run without
  // the pre-check) mask something, the pre-check must have let the line through.
  const noise = fc.stringMatching(/^[ -~]{0,24}$/);
  let masked = 0;
  await fc.assert(fc.property(noise, fc.constantFrom(...SECRET_SHAPES), noise, fc.boolean(), (before, shape, after, spaced) => {
    const line = spaced ? `${before} ${shape.line} ${after}` : `${before}${shape.line}${after}`;
    const r = redactUngated(line);
    if (r.count > 0) masked++;
    return r.count === 0 || maySecret(line);
  }), { numRuns: 20000, seed: 11 });
  t.ok(masked > 15000, `${masked} of 20000 generated lines were masked, each passed the pre-check`);
  for (const s of SECRET_SHAPES) t.ok(maySecret(s.line), `${s.name} passes the pre-check`);
});
