/**
 * A real headless Chromium driven over the DevTools protocol on a pipe (fds 3 and 4,
 * NUL-terminated JSON): no port, no WebSocket client, no npm dependency. Loads one page,
 * records every request it makes, evaluates an expression and takes a screenshot.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';

export const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p)) ?? '/usr/bin/chromium';

export interface PageVisit<T> {
  /** Every URL the page requested (the page itself included). */
  requests: string[];
  value: T;
  png: Buffer;
}

/**
 * Opens `url` in a 1200x1600 window, waits for its load event, evaluates `expression`
 * (returned by value) and captures the viewport as PNG. Rejects after `timeoutMs`.
 */
export async function visit<T>(url: string, expression: string, timeoutMs = 120_000): Promise<PageVisit<T>> {
  const profile = mkdtempSync(join(tmpdir(), 'omni-chromium-'));
  // Everything the browser writes stays under `profile`: its HOME too, where the crash
  // handler keeps its database (~/.config/chromium/Crash Reports).
  const home = join(profile, 'home');
  const child = spawn(
    CHROMIUM,
    [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-extensions', '--disable-crash-reporter', '--window-size=1200,1600',
      `--user-data-dir=${join(profile, 'data')}`, '--remote-debugging-pipe', 'about:blank',
    ],
    {
      stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'],
      // Its own process group: the renderers and the zygote are ended with it.
      detached: true,
      env: { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_CACHE_HOME: join(home, '.cache') },
    },
  );
  let stderr = '';
  child.stderr!.on('data', (b: Buffer) => (stderr = (stderr + b.toString()).slice(-4000)));
  const toBrowser = child.stdio[3] as Writable;
  const fromBrowser = child.stdio[4] as Readable;
  let nextId = 1;
  const waiting = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>();
  const listeners: Array<(m: any) => void> = [];
  let buf = Buffer.alloc(0);
  fromBrowser.on('data', (b: Buffer) => {
    buf = Buffer.concat([buf, b]);
    for (let nul = buf.indexOf(0); nul >= 0; nul = buf.indexOf(0)) {
      const msg = JSON.parse(buf.subarray(0, nul).toString('utf8'));
      buf = buf.subarray(nul + 1);
      if (msg.id && waiting.has(msg.id)) {
        const w = waiting.get(msg.id)!;
        waiting.delete(msg.id);
        if (msg.error) w.reject(new Error(`${JSON.stringify(msg.error)}`));
        else w.resolve(msg.result);
      } else for (const l of listeners) l(msg);
    }
  });
  const send = (method: string, params: object = {}, sessionId?: string): Promise<any> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      toBrowser.write(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }) + '\0');
    });
  const event = (method: string, sessionId: string) =>
    new Promise<any>((resolve) => listeners.push((m) => m.method === method && m.sessionId === sessionId && resolve(m.params)));

  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`chromium did not finish within ${timeoutMs} ms; stderr: ${stderr}`)), timeoutMs);
  });
  const exited = new Promise<never>((_, reject) => child.on('exit', (code) => reject(new Error(`chromium exited (${code}) early; stderr: ${stderr}`))));
  const work = (async () => {
    const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
    const requests: string[] = [];
    listeners.push((m) => m.sessionId === sessionId && m.method === 'Network.requestWillBeSent' && requests.push(m.params.request.url));
    await send('Page.enable', {}, sessionId);
    await send('Network.enable', {}, sessionId);
    await send('Emulation.setDeviceMetricsOverride', { width: 1200, height: 1600, deviceScaleFactor: 1, mobile: false }, sessionId);
    const loaded = event('Page.loadEventFired', sessionId);
    await send('Page.navigate', { url }, sessionId);
    await loaded;
    const r = await send('Runtime.evaluate', { expression, returnByValue: true }, sessionId);
    if (r.exceptionDetails) throw new Error(`evaluate: ${JSON.stringify(r.exceptionDetails)}`);
    const shot = await send('Page.captureScreenshot', { format: 'png' }, sessionId);
    return { requests, value: r.result.value as T, png: Buffer.from(shot.data, 'base64') };
  })();
  try {
    return await Promise.race([work, timeout, exited]);
  } finally {
    clearTimeout(timer);
    child.removeAllListeners('exit');
    try { await Promise.race([send('Browser.close'), new Promise((r) => setTimeout(r, 5000))]); } catch { /* closing anyway */ }
    await endAll(child.pid!, profile, () => child.exitCode !== null || child.signalCode !== null);
    // Nothing of the browser runs any more, so nothing writes into the profile while it goes.
    rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  }
}

/**
 * Ends the browser and every process it started, and returns once none is left: its process
 * group (renderers, zygote, utilities), and any process naming `profile` on its command line
 * (the crash handler starts its own session, outside the group). The profile directory is
 * removed only after: removing it while one of them still writes there fails (ENOTEMPTY).
 */
async function endAll(pid: number, profile: string, exited: () => boolean): Promise<void> {
  /** Live (not zombie) processes of the browser's group or naming the profile. */
  const left = () => {
    const out: number[] = [];
    for (const d of readdirSync('/proc')) {
      if (!/^\d+$/.test(d) || Number(d) === process.pid) continue;
      try {
        const stat = readFileSync(`/proc/${d}/stat`, 'latin1');
        const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        if (state === 'Z') continue;
        if (Number(pgrp) === pid || readFileSync(`/proc/${d}/cmdline`, 'latin1').includes(profile)) out.push(Number(d));
      } catch {
        /* gone meanwhile */
      }
    }
    return out;
  };
  // Bounded: 10 s of 50 ms steps, killing again at each (a process may fork while it dies).
  for (let i = 0; i < 200; i++) {
    try { process.kill(-pid, 'SIGKILL'); } catch { /* the group is gone */ }
    const rest = left();
    for (const p of rest) {
      try { process.kill(p, 'SIGKILL'); } catch { /* gone */ }
    }
    if (exited() && rest.length === 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}
