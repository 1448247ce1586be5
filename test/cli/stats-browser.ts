/**
 * A real headless Chromium driven over the DevTools protocol on a pipe (fds 3 and 4,
 * NUL-terminated JSON): no port, no WebSocket client, no npm dependency. Loads one page,
 * records every request it makes, evaluates an expression and takes a screenshot.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
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
  const child = spawn(
    CHROMIUM,
    [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-extensions', '--window-size=1200,1600',
      `--user-data-dir=${profile}`, '--remote-debugging-pipe', 'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] },
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
    if (child.exitCode === null) child.kill('SIGKILL');
    await new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r(null) : child.once('exit', r)));
    rmSync(profile, { recursive: true, force: true });
  }
}
