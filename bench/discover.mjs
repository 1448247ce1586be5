// `node bench/discover.mjs [--mb 1024] [--prof]`: how fast `omni discover` replays a large history.
//
// Builds a history of about --mb MB (default 1024) in a temporary HOME by repeating the real
// records the pinned CLIs wrote (test/fixtures/transcripts/: two Claude Code sessions with a
// persisted output, one Codex rollout, one Gemini CLI chat log). Each repetition is a new session: its session id and
// tool-use / call ids are rewritten, so nothing is deduplicated away and each session's ledger
// starts empty. Then runs the built bundle (`node scripts/build.mjs` first) once over it and
// prints MB/s, results/s and the peak RSS (--prof: a CPU profile in bench/out/). The history
// is removed afterwards.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const MB = arg('--mb', 1024);
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const FIX = path.join(ROOT, 'test', 'fixtures', 'transcripts');
const OMNI = path.join(ROOT, 'dist', 'omni.cjs');

function walk(d, out = []) {
  for (const e of fs.readdirSync(d, { withFileTypes: true })) {
    const p = path.join(d, e.name);
    if (e.isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

const home = fs.mkdtempSync(path.join(os.tmpdir(), 'omni-bench-discover-'));
try {
  const claudeProj = fs.readdirSync(path.join(FIX, 'claude', 'projects'))[0];
  const claudeSrc = path.join(FIX, 'claude', 'projects', claudeProj);
  const sessions = fs.readdirSync(claudeSrc).filter((n) => n.endsWith('.jsonl')).map((n) => n.slice(0, -'.jsonl'.length));
  const rollout = walk(path.join(FIX, 'codex', 'sessions'))[0];
  const rolloutText = fs.readFileSync(rollout, 'utf8');
  const threadId = /"session_meta".*?"id":"([^"]+)"/.exec(rolloutText)?.[1] ?? path.basename(rollout).slice(-42, -6);

  const chat = walk(path.join(FIX, 'gemini'))[0];
  const chatText = fs.readFileSync(chat, 'utf8');
  const chatSession = JSON.parse(chatText.slice(0, chatText.indexOf('\n'))).sessionId;
  const dstChats = path.join(home, '.gemini', 'tmp', 'proj', 'chats');
  fs.mkdirSync(dstChats, { recursive: true });
  const dstProj = path.join(home, '.claude', 'projects', claudeProj);
  const dstCodex = path.join(home, '.codex', 'sessions', '2026', '12', '01');
  fs.mkdirSync(dstProj, { recursive: true });
  fs.mkdirSync(dstCodex, { recursive: true });
  const t0 = Date.now();
  let written = 0;
  let copies = 0;
  const uuid = (k, i) => `00000000-0000-4000-8000-${String(k * 10 + i).padStart(12, '0')}`;
  while (written < MB * 1e6) {
    sessions.forEach((s, i) => {
      const id = uuid(copies, i);
      const text = fs.readFileSync(path.join(claudeSrc, `${s}.jsonl`), 'utf8').split(s).join(id).split('toolu_').join(`toolu_r${copies}_`);
      fs.writeFileSync(path.join(dstProj, `${id}.jsonl`), text);
      written += text.length;
      const results = path.join(claudeSrc, s, 'tool-results');
      if (fs.existsSync(results)) fs.cpSync(results, path.join(dstProj, id, 'tool-results'), { recursive: true });
    });
    const tid = uuid(copies, 9);
    const cx = rolloutText.split(threadId).join(tid).split('"call_').join(`"call_r${copies}_`);
    fs.writeFileSync(path.join(dstCodex, `rollout-2026-12-01T00-00-00-${tid}.jsonl`), cx);
    written += cx.length;
    const gid = uuid(copies, 8);
    const gx = chatText.split(chatSession).join(gid).split('"run_shell_command__').join(`"r${copies}__`);
    fs.writeFileSync(path.join(dstChats, `session-2026-12-01T00-00-${gid}.jsonl`), gx);
    written += gx.length;
    copies++;
  }
  console.log(`history: ${(written / 1e6).toFixed(0)} MB in ${copies * (sessions.length + 2)} files (${copies} repetitions of the captured sessions), built in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  const env = { ...process.env, HOME: home, CLAUDE_CONFIG_DIR: '', CODEX_HOME: '', GEMINI_CLI_HOME: '', OMNI_HOME: path.join(home, 'omni-home') };
  const t1 = Date.now();
  const prof = process.argv.includes('--prof') ? ['--cpu-prof', '--cpu-prof-dir', path.join(ROOT, 'bench', 'out')] : [];
  const r = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, ...prof, OMNI, 'discover', '--since', 'all', '--json'], { env, encoding: 'utf8', maxBuffer: 1 << 26 });
  const secs = (Date.now() - t1) / 1000;
  if (r.status !== 0) throw new Error(`omni discover exited ${r.status}: ${r.stderr}`);
  const rep = JSON.parse(r.stdout);
  const rssKb = Number(r.stderr.trim().split('\n').pop());
  const mb = (rep.hosts.claude.bytes + rep.hosts.codex.bytes + rep.hosts.gemini.bytes) / 1e6;
  console.log(`replayed ${mb.toFixed(0)} MB, ${rep.lines} lines, ${rep.total.calls} results (${rep.total.failed} failures, ${rep.total.applied} distilled, ${rep.malformed} malformed) in ${secs.toFixed(1)} s`);
  console.log(`throughput: ${(mb / secs).toFixed(1)} MB/s, ${(rep.total.calls / secs).toFixed(0)} results/s; 1 GB in ${((1000 / (mb / secs)) / 60).toFixed(1)} min`);
  console.log(`saved ${((100 * rep.total.bytesSaved) / rep.total.bytesIn).toFixed(1)}% of ${(rep.total.bytesIn / 1e6).toFixed(0)} MB of results; peak RSS ${(rssKb / 1024).toFixed(0)} MiB`);
  console.log(`user store untouched: ${fs.existsSync(env.OMNI_HOME) ? 'NO, it was created' : 'yes (never created)'}`);
} finally {
  fs.rmSync(home, { recursive: true, force: true });
}
