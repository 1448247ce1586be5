/**
 * `omni remember "<fact>"`, `omni remember --list`, `omni remember --forget <id>`.
 * Facts belong to the project: `--cwd <dir>`, else the current directory. SessionStart
 * injects them (lib/store/memory.ts sessionStartContext).
 */
import path from 'node:path';
import type { Io } from './io.js';
import { cliStore } from './cli-store.js';
import { rememberFact, listFacts, forgetFact } from '../service/memory.js';

const USAGE = 'usage: omni remember "<fact>" | --list | --forget <id>   [--cwd <project dir>]\n';

/** Pulls `--cwd <dir>` out of argv; the project key is the absolute directory. */
export function projectArg(argv: string[]): { cwd: string; rest: string[] } {
  const rest: string[] = [];
  let cwd = process.cwd();
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--cwd') cwd = argv[++i] ?? cwd;
    else if (argv[i].startsWith('--cwd=')) cwd = argv[i].slice(6);
    else rest.push(argv[i]);
  }
  return { cwd: path.resolve(cwd), rest };
}


export async function run(argv: string[], io: Io): Promise<number> {
  const { cwd, rest } = projectArg(argv);
  if (rest.length === 0 || rest.includes('--help') || rest.includes('-h')) {
    io.stderr.write(USAGE);
    return rest.length === 0 ? 2 : 0;
  }
  const store = cliStore('remember', io);
  if (!store) return 1;
  try {
    if (rest[0] === '--list') {
      const facts = listFacts(store, cwd);
      if (facts.length === 0) io.stdout.write(`no facts remembered for ${cwd}\n`);
      for (const f of facts) io.stdout.write(`${f.id}\t${new Date(f.at).toISOString().slice(0, 10)}\t${f.text}\n`);
      return 0;
    }
    if (rest[0] === '--forget') {
      const id = Number(rest[1]);
      if (!Number.isInteger(id) || id <= 0) {
        io.stderr.write(`omni remember: --forget takes a fact id (see omni remember --list)\n`);
        return 2;
      }
      if (!forgetFact(store, { cwd, id })) {
        io.stderr.write(`omni remember: no fact ${id} for ${cwd}\n`);
        return 1;
      }
      io.stdout.write(`forgot fact ${id}\n`);
      return 0;
    }
    if (rest[0].startsWith('-')) {
      io.stderr.write(`omni remember: unknown option '${rest[0]}'\n${USAGE}`);
      return 2;
    }
    const text = rest.join(' ').trim();
    if (!text) {
      io.stderr.write(`omni remember: the fact is empty\n${USAGE}`);
      return 2;
    }
    const id = rememberFact(store, cwd, text);
    io.stdout.write(`remembered fact ${id} for ${cwd}\n`);
    return 0;
  } finally {
    store.close();
  }
}
