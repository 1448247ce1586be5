import type { DistillerSpec } from '../kit/spec.js';
import { PYTHON } from '../command/runners.js';
import { programOf } from './shared.js';
import type { Hit, Recogniser } from './runner.js';
import { leadTest } from '../base/lead.js';

/*
 * setuptools (and distutils before it) building a package: `python setup.py sdist` /
 * `bdist_wheel`, `python -m build`, `pyproject-build`, and a Makefile recipe that runs one of
 * them. Each step logs what it did to each file: `running egg_info`, `creating x`, `copying a
 * -> b`, `writing x`, `reading manifest file 'x'`, `adding 'x'` per file of a wheel. Those lines
 * fold, one marker per contiguous run. What stays: the command asked for (`running sdist`,
 * `running bdist_wheel`), every warning and error with its source lines, the build frontend's
 * `* Building …` steps, and the lines that name what was made (`Creating tar archive`,
 * `removing 'pkg-1.0' (and everything under it)`, `creating 'dist/pkg-1.0-py3-none-any.whl'
 * and adding …`, `Successfully built …`). Nothing it does not recognise is touched.
 */

/** The commands a user asks for: their `running` line says what the run built. */
const ASKED = new Set(['sdist', 'bdist_wheel', 'bdist_egg', 'bdist', 'bdist_rpm', 'bdist_dumb', 'develop', 'editable_wheel']);
const RUNNING = /^running (\w+)$/;
const STEP_LINE = [
  // One path each: the wheel's own `creating '<file>.whl' and adding '<dir>' to it` names the
  // artefact and stays.
  /^creating [^\s']\S*$/,
  /^(copying|hard linking) \S+ -> \S+$/,
  /^copying files to \S+\.\.\.$/,
  /^writing (\S+|[a-z][\w -]* to \S+|manifest file '[^']+')$/,
  /^Writing \S+\/setup\.cfg$/,
  /^reading manifest (file|template) '[^']+'$/,
  /^adding license file '[^']+'$/,
  /^adding '[^']+'$/,
  /^installing to \S+$/,
  /^Copying \S+\.egg-info to \S+$/,
  /^byte-compiling \S+ to \S+\.pyc$/,
  /^not copying \S+ \(output up-to-date\)$/,
];
const STEP: Hit = { noun: 'setuptools lines' };

function isStep(p: string): boolean {
  const r = RUNNING.exec(p);
  if (r) return !ASKED.has(r[1]);
  for (const re of STEP_LINE) if (re.test(p)) return true;
  return false;
}

/** Only what a pattern above recognised goes: any other line stays as it is. */
function recogniser(): Recogniser {
  return { see: (_l, p) => (isStep(p) ? STEP : null), others: 'keep' };
}

/** setup.py's build commands (and a `-c` that calls setup()), `-m build`, `pyproject-build`. */
const SETUP_COMMANDS = new Set([...ASKED, 'build', 'build_py', 'build_ext', 'egg_info', 'install', 'check']);

function matches(argv: string[]): boolean {
  const p = programOf(argv);
  if (p === 'pyproject-build') return true;
  if (!/^python(\d(\.\d+)?)?$/.test(p)) return false;
  const module = PYTHON.runs!(argv);
  if (module) return module[0] === 'build';
  const script = argv[1] === '-c' ? /\bsetup\(/.test(argv[2] ?? '') : /(^|\/)setup\.py$/.test(argv[1] ?? '');
  return script && argv.slice(argv[1] === '-c' ? 3 : 2).some((a) => SETUP_COMMANDS.has(a));
}

export default {
  name: 'setuptools',
  family: 'build',
  runners: [PYTHON],
  matches,
  rewrite: true,
  // A setuptools step no other tool prints: a Makefile recipe's setup() is read from it on.
  detect: leadTest(/^running (egg_info|sdist|bdist_wheel|build_py|bdist_egg|install_lib)$/),
  lines: recogniser,
  examples: [
    // corpus/cases/1151-setup-py-sdist, lines 3-10 and 37-42
    {
      command: 'python3 setup.py sdist',
      input: `running sdist
running egg_info
creating src/meterkit.egg-info
writing src/meterkit.egg-info/PKG-INFO
writing dependency_links to src/meterkit.egg-info/dependency_links.txt
writing entry points to src/meterkit.egg-info/entry_points.txt
warning: no files found matching 'docs/*.rst'
copying src/meterkit/io/csvfile.py -> meterkit-1.2.0/src/meterkit/io
copying src/meterkit/io/jsonfile.py -> meterkit-1.2.0/src/meterkit/io
copying tests/test_readings.py -> meterkit-1.2.0/tests
Writing meterkit-1.2.0/setup.cfg
creating dist
Creating tar archive
removing 'meterkit-1.2.0' (and everything under it)
`,
      output: `running sdist
[omni: 5 setuptools lines folded — omni retrieve <handle>]
warning: no files found matching 'docs/*.rst'
[omni: 5 setuptools lines folded — omni retrieve <handle>]
Creating tar archive
removing 'meterkit-1.2.0' (and everything under it)
`,
    },
  ],
} satisfies DistillerSpec;
