// A deterministic mixed log: ANSI colour, carriage-return progress redraws, repeated
// templates, stack traces and unique lines, in the proportions the stream benchmarks have always used.
export function* mixedLog(totalBytes: number): Generator<Buffer> {
  let seed = 42;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  let made = 0;
  let i = 0;
  while (made < totalBytes) {
    const parts: string[] = [];
    for (let k = 0; k < 500; k++, i++) {
      const r = rnd();
      let line: string;
      if (r < 0.25) line = `\x1b[32m✓\x1b[0m handles case ${i} (\x1b[2m${(r * 100) | 0} ms\x1b[0m)`;
      else if (r < 0.35) line = Array.from({ length: 8 }, (_, j) => `\r[${'#'.repeat(j * 3)}${' '.repeat(24 - j * 3)}] ${j * 12}%`).join('') + `\r[${'#'.repeat(24)}] 100%`;
      else if (r < 0.6) line = `Downloading package-${i % 50}@1.${i % 9}.${i % 7} (${(r * 900) | 0} kB)`;
      else if (r < 0.65) line = `Error: request ${i} failed\n    at handler (/app/src/server.js:${i % 300}:17)\n    at process (/app/node_modules/express/lib/router.js:${i % 90}:3)`;
      else if (r < 0.7) line = '';
      else line = `2026-11-29T12:${String(i % 60).padStart(2, '0')}:00Z INFO request id=${i.toString(16)} path=/api/v1/items/${i} status=200 dur=${(r * 50).toFixed(1)}ms`;
      parts.push(line);
    }
    const b = Buffer.from(parts.join('\n') + '\n');
    made += b.length;
    yield b;
  }
}
