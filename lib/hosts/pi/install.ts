/**
 * Pi has no hook files: omni runs inside Pi as an extension (./adapter.ts, bundled as
 * dist/omni-pi.cjs). Installing means listing that bundle in Pi's settings.json `extensions`
 * (`~/.pi/agent/settings.json`, or `<project>/.pi/settings.json`); every other key is kept.
 * What Pi does with it: docs/pi-findings.md.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { HostInstaller, InstallOptions, InstallResult } from '../adapter.js';
import { readSettings, readSettingsOrNull, writeSettings, type Json, type Obj } from '../kit/config-file.js';
import { cliProblems, cliVersion, detectedAt, findProgram } from '../kit/detect.js';
import { hostStatus } from '../kit/status.js';

function agentDir(env: NodeJS.ProcessEnv): string {
  return env.PI_CODING_AGENT_DIR || join(env.HOME || homedir(), '.pi', 'agent');
}

function settingsPath(scope: 'user' | 'project', cwd: string, env: NodeJS.ProcessEnv): string {
  return scope === 'user' ? join(agentDir(env), 'settings.json') : join(cwd, '.pi', 'settings.json');
}

/** The extension bundle next to omni's main bundle. */
export function piBundle(bin: string): string {
  return join(dirname(bin), 'omni-pi.cjs');
}

const isOmniEntry = (e: Json): boolean => typeof e === 'string' && /(^|[\\/])omni-pi\.cjs$/.test(e);

/** settings with exactly one omni entry (stale paths replaced), pure. */
export function withOmniExtension(settings: Obj, bundle: string): Obj {
  const s = structuredClone(settings);
  const list = Array.isArray(s.extensions) ? s.extensions.filter((e) => !isOmniEntry(e)) : [];
  s.extensions = [...list, bundle];
  return s;
}

export function withoutOmniExtension(settings: Obj): Obj {
  const s = structuredClone(settings);
  if (!Array.isArray(s.extensions)) return s;
  s.extensions = s.extensions.filter((e) => !isOmniEntry(e));
  if (s.extensions.length === 0) delete s.extensions;
  return s;
}

function write(file: string, change: (o: Obj) => Obj, what: string): InstallResult {
  const { text, json } = readSettings(file);
  if (json.extensions !== undefined && !Array.isArray(json.extensions)) throw new Error(`"extensions" in ${file} is not a list; omni will not overwrite it`);
  const r = writeSettings(file, text, change(json));
  return { changed: r.changed, files: [r.file], notes: [r.changed ? `${what} ${r.file}${r.backup ? ` (backup: ${r.backup})` : ''}` : `${r.file} already up to date`] };
}

export const piInstaller: HostInstaller = {
  id: 'pi',
  name: 'Pi',
  detect(env) {
    // Installed means `pi` is: omni init --pi itself creates ~/.pi/agent.
    return detectedAt(findProgram(['pi'], env, env.OMNI_PI_BIN), (bin) => cliVersion(bin, env).version);
  },
  install(opts: InstallOptions) {
    const bundle = piBundle(opts.bin);
    if (!existsSync(bundle)) throw new Error(`${bundle} is missing; build it with \`node scripts/build.mjs\``);
    const r = write(settingsPath(opts.scope, opts.cwd, opts.env), (o) => withOmniExtension(o, bundle), 'extension listed in');
    r.notes.push('takes effect in the next Pi session (or /reload)');
    return r;
  },
  uninstall(opts) {
    const file = settingsPath(opts.scope, opts.cwd, opts.env);
    if (!existsSync(file)) return { changed: false, files: [file], notes: [`no ${file}; nothing to do`] };
    return write(file, withoutOmniExtension, 'extension removed from');
  },
  status(opts) {
    return hostStatus(piInstaller, opts.env, {
      read(s) {
        s.files.push(settingsPath('user', opts.cwd, opts.env), settingsPath('project', opts.cwd, opts.env));
        s.problems.push(...cliProblems({ name: 'Pi', command: '`pi`', bin: s.where ?? null, pkg: '@mariozechner/pi-coding-agent', envVar: 'OMNI_PI_BIN' }));
        const entries: string[] = [];
        for (const f of s.files) {
          const { json, error } = readSettingsOrNull(f);
          if (json === null) s.problems.push({ status: 'fail', what: error ?? `${f} cannot be read`, fix: `fix ${f} by hand` });
          else if (Array.isArray(json.extensions)) for (const e of json.extensions) if (isOmniEntry(e)) entries.push(String(e));
        }
        for (const e of entries) if (e.startsWith('/') && !existsSync(e)) s.problems.push({ status: 'fail', what: `Pi loads ${e}, which does not exist`, fix: 'omni init --pi' });
        if (s.detected && entries.length === 0) s.problems.push({ status: 'warn', what: 'omni is not listed in Pi\'s extensions', fix: 'omni init --pi' });
        s.wired = entries.length > 0;
      },
      failed: { what: 'Pi check failed', fix: 'run omni doctor again; report it if it persists' },
      settle: () => ({ tier: 'full', note: 'in-process extension: successful bash results distilled on tool_result, session memory in the system prompt' }),
    });
  },
};
