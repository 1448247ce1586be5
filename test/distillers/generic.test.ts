import t from 'tap';
import { corpusCase, keptAll, pipe } from './cases.js';
import { routeCommand } from '../../lib/distillers/registry.js';

// generic owns what no spec does: it recognises nothing of any tool, squeezes blank runs and
// folds runs of alike noise lines (lib/distillers/generic.ts).
t.test('what no spec owns is generic\'s: an unknown program, several producers', async (t) => {
  for (const cmd of ['./deploy.sh --dry-run', 'wget -O /dev/null http://x', './build.sh && ./deploy.sh', 'rsync -av src/ dst/']) {
    t.equal(routeCommand(cmd).distiller, 'generic', cmd);
  }
});

t.test('a progress bar is drawn once: its redraws go, every other line stays', async (t) => {
  const d = await pipe(corpusCase('wget-progress-bar'));
  t.equal(d.distiller, 'generic');
  t.ok(d.out.length < d.input.length / 2, `${d.input.length} -> ${d.out.length} B`);
  t.same(keptAll(d, /^(--|Connecting|HTTP request|Length|Saving to)|saved \[/), []);
});

t.test('output it recognises nothing in comes back untouched', async (t) => {
  const d = await pipe(corpusCase('mypy-clean'));
  t.equal(d.distiller, 'generic');
  t.equal(d.out, d.input);
});
