// Every corpus case as a row, in capture order. A rows file holds one namespace: its fixtures
// live in corpus/fixtures/<ns>/, its scratch projects under <scratch>/<ns>/ ({T} in a row), and
// it may give every row an environment and a keep dialect (keep.mjs) of its own.
// A rows file is JSON: {"about", "rows": [{id, kind, family, fixture, cwd, cmd, keep, about, env,
// before, after, cmdFrom, run, dialect}]}; keep patterns are Python-style regexes (keep.mjs).
import { readFileSync } from 'node:fs';

const load = (name) => JSON.parse(readFileSync(new URL(`./${name}.json`, import.meta.url), 'utf8')).rows;
const [base, extra, extra2, extra3, fresh1, freshGit, fresh2, ecosystems] =
  ['base', 'extra', 'extra2', 'extra3', 'fresh1', 'fresh-git', 'fresh2', 'ecosystems'].map(load);

const SYS = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
const NPM_QUIET = { npm_config_fund: 'false', npm_config_audit: 'false' };

/** The namespaces: the seven scripts the corpus was first captured with, then the new cases. */
export const NAMESPACES = [
  { ns: 'base', rows: base, dialect: 'default' },
  { ns: 'extra', rows: extra, dialect: 'grep', env: { PATH: `{SCRATCH}/tools/node_modules/.bin:/root/.cargo/bin:${SYS}`, CARGO_TERM_COLOR: 'never' } },
  { ns: 'extra2', rows: extra2, dialect: 'plain', env: { PATH: `/root/.pyenv/shims:${SYS}`, npm_config_userconfig: null, PIP_CONFIG_FILE: null } },
  { ns: 'extra3', rows: extra3, dialect: 'plain', env: { PATH: SYS, ...NPM_QUIET, npm_config_userconfig: '/dev/null', PIP_CONFIG_FILE: null } },
  { ns: 'fresh1', rows: fresh1, dialect: 'plain', env: { ...NPM_QUIET, npm_config_userconfig: '/dev/null' } },
  { ns: 'fresh-git', rows: freshGit, dialect: 'lf', env: { PATH: SYS, HOME: '{T}', GIT_CONFIG_GLOBAL: '{T}/gitconfig', GIT_CONFIG_NOSYSTEM: '1' } },
  { ns: 'fresh2', rows: fresh2, dialect: 'csi', env: { PATH: `/root/.cargo/bin:/root/.pyenv/shims:${SYS}`, ...NPM_QUIET, CARGO_NET_OFFLINE: 'true', PYTHONDONTWRITEBYTECODE: '1' } },
  { ns: 'eco', rows: ecosystems, dialect: 'default', env: { ...NPM_QUIET, PIP_DISABLE_PIP_VERSION_CHECK: '1' } },
];

/** Every row with its namespace's defaults filled in. */
export const ROWS = NAMESPACES.flatMap(({ ns, rows, dialect, env }) =>
  rows.map((r) => ({ ns, dialect, ...r, env: { ...(env ?? {}), ...(r.env ?? {}) } })));
