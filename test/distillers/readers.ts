import stripAnsi from 'strip-ansi';
import { mixFor, routeCommand, sniffDistiller } from '../../lib/distillers/registry.js';
import type { Line } from '../../lib/kit/types.js';

/**
 * The specs an output is read by: the one its command routes to and, where the command names no
 * tool, those the output's own lines name: a program run by its path (`./build/money_test`) is
 * read by the spec its first lines name, as with no command; `make check`, by its named specs and
 * those that join by the lines (the whole output taken as the head).
 */
export function readersOf(command: string, output: string): string[] {
  const r = routeCommand(command);
  const lines: Line[] = stripAnsi(output).split('\n').map((text, index) => ({ kind: 'line', text, plain: text, eol: '\n', tier: 'text', index, end: 0 }));
  if (r.sniff) return [sniffDistiller(lines.slice(0, 200)).name];
  const names = [r.distiller ?? 'none'];
  if (!r.mixed || !r.producers?.some((p) => p.open)) return names;
  const mix = mixFor(r);
  mix.observe(lines, true);
  return [...names, ...mix.joined];
}
