/**
 * Every host omni can wire, for `omni init` and `omni doctor` (cold path: never loaded by a hook).
 * Adding a host: its installer module (./adapter.ts says what it exports) and one line here.
 */
import type { HostInstaller } from './adapter.js';
import { claudeInstaller } from './claude/install.js';
import { cursorInstaller } from './cursor/install.js';
import { codexInstaller } from './codex/install.js';
import { geminiInstaller } from './gemini/install.js';
import { piInstaller } from './pi/install.js';

export const INSTALLERS: readonly HostInstaller[] = [
  claudeInstaller,
  codexInstaller,
  geminiInstaller,
  piInstaller,
  cursorInstaller,
];
