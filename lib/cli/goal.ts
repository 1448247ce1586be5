/**
 * `omni goal "<text>"` pins the project's goal, `omni goal --clear` unpins it, `omni goal`
 * shows it. Project: `--cwd <dir>`, else the current directory.
 */
import type { Io } from './io.js';
import { pinGoal, clearGoal, getGoal } from '../service/memory.js';
import { projectArg } from './remember.js';
import { cliStore } from './cli-store.js';

const USAGE = 'usage: omni goal ["<text>" | --clear]   [--cwd <project dir>]\n';

export async function run(argv: string[], io: Io): Promise<number> {
  const { cwd, rest } = projectArg(argv);
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout.write(USAGE);
    return 0;
  }
  if (rest[0]?.startsWith('-') && rest[0] !== '--clear') {
    io.stderr.write(`omni goal: unknown option '${rest[0]}'\n${USAGE}`);
    return 2;
  }
  const store = cliStore('goal', io);
  if (!store) return 1;
  try {
    if (rest.length === 0) {
      const g = getGoal(store, cwd);
      io.stdout.write(g ? `${g}\n` : `no goal pinned for ${cwd}\n`);
      return 0;
    }
    if (rest[0] === '--clear') {
      io.stdout.write(clearGoal(store, cwd) ? `goal cleared for ${cwd}\n` : `no goal was pinned for ${cwd}\n`);
      return 0;
    }
    const text = rest.join(' ').trim();
    if (!text) {
      io.stderr.write(`omni goal: the goal is empty\n${USAGE}`);
      return 2;
    }
    pinGoal(store, cwd, text);
    io.stdout.write(`goal pinned for ${cwd}\n`);
    return 0;
  } finally {
    store.close();
  }
}
