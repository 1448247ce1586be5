/**
 * A host's JSON config file as every installer edits it: read (refusing what it cannot keep
 * intact), changed by a pure function, and written back only when the bytes change, atomically
 * (temp file + rename, through symlinks) and with the previous file kept as `<file>.omni-backup`.
 * Doctor's side reads the same files fail-open: a file it cannot read is a problem to report,
 * never a crash.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type Obj = { [k: string]: Json };

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A config file omni will not write: not JSON, not an object, or a key of the wrong shape. */
export class SettingsError extends Error {}

/** The file's text (null: no file) and its object ({} for a missing or blank file); throws SettingsError. */
export function readSettings(file: string): { text: string | null; json: Obj } {
  if (!existsSync(file)) return { text: null, json: {} };
  const text = readFileSync(file, 'utf8');
  if (text.trim() === '') return { text, json: {} };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new SettingsError(`${file} is not valid JSON (${(err as Error).message}); fix it first, omni will not overwrite it`);
  }
  if (!isObj(json)) throw new SettingsError(`${file} does not hold a JSON object; omni will not overwrite it`);
  return { text, json };
}

/** Fail-open readSettings, for doctor: the object, or null with why. */
export function readSettingsOrNull(file: string): { json: Obj | null; error?: string } {
  try {
    return { json: readSettings(file).json };
  } catch (err) {
    return { json: null, error: (err as Error).message };
  }
}

/** Any JSON value in `file`, or undefined when it is missing or does not parse. */
export function readJsonLoose(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

export interface WriteResult {
  file: string;
  changed: boolean;
  backup: string | null;
}

function detectIndent(text: string): string | number {
  const m = /\n([ \t]+)\S/.exec(text);
  return m ? m[1] : 2;
}

/** Write `json` to `file` atomically unless the bytes would not change (indentation kept). */
export function writeSettings(file: string, before: string | null, json: Obj, mode?: number): WriteResult {
  return writeTextFile(file, before, JSON.stringify(json, null, before ? detectIndent(before) : 2) + '\n', mode);
}

/**
 * Write `text` to `file` (through symlinks) atomically, keeping the previous file as
 * `<file>.omni-backup`, unless the bytes would not change. `before`: the file's current text,
 * null when it does not exist.
 */
export function writeTextFile(file: string, before: string | null, text: string, mode = 0o644): WriteResult {
  if (text === before) return { file, changed: false, backup: null };
  let target = file;
  try {
    target = realpathSync(file);
  } catch {
    /* does not exist yet */
  }
  mkdirSync(dirname(target), { recursive: true });
  let backup: string | null = null;
  if (before !== null) {
    backup = target + '.omni-backup';
    copyFileSync(target, backup);
  }
  const tmp = `${target}.omni-tmp-${process.pid}`;
  writeFileSync(tmp, text, { mode });
  renameSync(tmp, target);
  return { file: target, changed: true, backup };
}

/**
 * One edit of a config file: read, change (pure), write if the bytes change. `onlyIfExists`:
 * a missing file stays missing (an uninstall). `mode`: the file's mode when it is written.
 */
export function editSettings(file: string, change: (json: Obj) => Obj, opts: { onlyIfExists?: boolean; mode?: number } = {}): WriteResult {
  const { text, json } = readSettings(file);
  if (opts.onlyIfExists && text === null) return { file, changed: false, backup: null };
  return writeSettings(file, text, change(json), opts.mode);
}
