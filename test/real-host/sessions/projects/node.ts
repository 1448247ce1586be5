/**
 * A TypeScript service package (jest with ts-jest, eslint with typescript-eslint, tsc) in `app/`
 * of a small repository: a shop's cart and stock. Two bugs are committed: a discount that can
 * take a cart below zero, and a stock reservation that lets the last item be sold twice. The
 * session installs (`cd app && rm -rf node_modules && npm install`, from the npm registry),
 * runs the failing tests, fixes them with Edit, lints with warnings, builds, reads the server
 * log and commits.
 */
import { bash, edit, read, type Session } from '../session.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CATEGORIES = ['tea', 'coffee', 'cocoa', 'mugs', 'filters', 'kettles'];

function catalog(): string {
  const rows: string[] = [];
  CATEGORIES.forEach((c, ci) => {
    for (let i = 1; i <= 8; i++) {
      const sku = `${c.slice(0, 3).toUpperCase()}-${String(100 + i * 7 + ci).padStart(4, '0')}`;
      const price = 299 + ((ci * 8 + i) * 137) % 4200;
      rows.push(`  { sku: '${sku}', name: '${c[0].toUpperCase()}${c.slice(1)} no. ${i}', category: '${c}', priceCents: ${price}, weightGrams: ${50 + ((ci + i) * 83) % 900} },`);
    }
  });
  return `export interface Product {
  sku: string;
  name: string;
  category: string;
  priceCents: number;
  weightGrams: number;
}

export const CATALOG: Product[] = [
${rows.join('\n')}
];

const bySku = new Map(CATALOG.map((p) => [p.sku, p]));

export function product(sku: string): Product {
  const p = bySku.get(sku);
  if (!p) throw new Error(\`unknown SKU \${sku}\`);
  return p;
}

export function inCategory(category: string): Product[] {
  return CATALOG.filter((p) => p.category === category);
}
`;
}

const CART = `import { product } from './catalog';
import { formatCents } from './format';

export interface Line {
  sku: string;
  quantity: number;
}

export interface Discount {
  code: string;
  /** A fixed amount off the subtotal, in cents. */
  amountCents?: number;
  /** A percentage off the subtotal (0-100). */
  percent?: number;
}

export class Cart {
  private lines: Line[] = [];
  private discount: Discount | null = null;

  add(sku: string, quantity = 1): void {
    if (!Number.isInteger(quantity) || quantity <= 0) throw new RangeError(\`bad quantity \${quantity}\`);
    product(sku); // throws on an unknown SKU
    const line = this.lines.find((l) => l.sku === sku);
    if (line) line.quantity += quantity;
    else this.lines.push({ sku, quantity });
  }

  remove(sku: string): void {
    this.lines = this.lines.filter((l) => l.sku !== sku);
  }

  items(): readonly Line[] {
    return this.lines;
  }

  subtotalCents(): number {
    return this.lines.reduce((sum, l) => sum + product(l.sku).priceCents * l.quantity, 0);
  }

  applyDiscount(d: Discount): void {
    if (d.percent !== undefined && (d.percent < 0 || d.percent > 100)) throw new RangeError(\`bad percent \${d.percent}\`);
    this.discount = d;
  }

  discountCents(): number {
    const d = this.discount;
    if (!d) return 0;
    const subtotal = this.subtotalCents();
    let off = 0;
    if (d.amountCents !== undefined) off += d.amountCents;
    if (d.percent !== undefined) off += Math.round((subtotal * d.percent) / 100);
    return off;
  }

  totalCents(): number {
    return this.subtotalCents() - this.discountCents();
  }

  weightGrams(): number {
    return this.lines.reduce((sum, l) => sum + product(l.sku).weightGrams * l.quantity, 0);
  }

  summary(): string {
    const rows = this.lines.map((l) => \`\${l.quantity} x \${product(l.sku).name}\`);
    rows.push(\`total \${formatCents(this.totalCents())}\`);
    return rows.join('\\n');
  }
}
`;

const INVENTORY = `export class OutOfStock extends Error {
  constructor(readonly sku: string, readonly wanted: number, readonly available: number) {
    super(\`\${sku}: wanted \${wanted}, \${available} available\`);
    this.name = 'OutOfStock';
  }
}

export interface Reservation {
  id: number;
  sku: string;
  quantity: number;
}

/** Stock on hand, less what open reservations hold. */
export class Inventory {
  private onHand = new Map<string, number>();
  private held = new Map<number, Reservation>();
  private nextId = 1;

  receive(sku: string, quantity: number): void {
    this.onHand.set(sku, (this.onHand.get(sku) ?? 0) + quantity);
  }

  available(sku: string): number {
    let heldQty = 0;
    for (const r of this.held.values()) if (r.sku === sku) heldQty += r.quantity;
    return (this.onHand.get(sku) ?? 0) - heldQty;
  }

  reserve(sku: string, quantity: number): Reservation {
    const available = this.available(sku);
    if (quantity > available + 1) throw new OutOfStock(sku, quantity, available);
    const r = { id: this.nextId++, sku, quantity };
    this.held.set(r.id, r);
    return r;
  }

  release(id: number): void {
    this.held.delete(id);
  }

  commit(id: number): void {
    const r = this.held.get(id);
    if (!r) throw new Error(\`no reservation \${id}\`);
    this.held.delete(id);
    this.onHand.set(r.sku, (this.onHand.get(r.sku) ?? 0) - r.quantity);
  }

  lowStock(threshold = 3): string[] {
    return [...this.onHand.keys()].filter((sku) => this.available(sku) <= threshold).sort();
  }
}
`;

const FORMAT = `export function formatCents(cents: number): string {
  let sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const euros = Math.floor(abs / 100);
  const rest = String(abs % 100).padStart(2, '0');
  return \`\${sign}€\${euros.toLocaleString('en-US')}.\${rest}\`;
}

export function plural(n: number, word: string): string {
  return \`\${n} \${word}\${n === 1 ? '' : 's'}\`;
}

// eslint-disable-next-line @typescript-eslint/no-unused-vars
export function debugDump(value: any, depth = 2): string {
  return JSON.stringify(value, null, 2);
}
`;

const PRICING = `import { CATALOG, type Product } from './catalog';

/** Shipping by weight band, in cents. */
export function shippingCents(weightGrams: number): number {
  if (weightGrams <= 0) return 0;
  if (weightGrams <= 500) return 390;
  if (weightGrams <= 2000) return 590;
  return 590 + Math.ceil((weightGrams - 2000) / 1000) * 150;
}

export function cheapest(category: string): Product | undefined {
  let best: Product | undefined;
  for (const p of CATALOG) if (p.category === category && (!best || p.priceCents < best.priceCents)) best = p;
  return best;
}

export function priceBands(): Record<string, number> {
  const bands: Record<string, number> = {};
  for (const p of CATALOG) {
    const band = p.priceCents < 1000 ? 'under 10' : p.priceCents < 2500 ? '10-25' : 'over 25';
    bands[band] = (bands[band] ?? 0) + 1;
  }
  return bands;
}

export function unusedHelper(input: any) {
  const copy = input;
  return copy;
}
`;

function catalogTest(): string {
  const cases = CATEGORIES.map((c) => `  it('has eight products in ${c}', () => {\n    expect(inCategory('${c}')).toHaveLength(8);\n  });`).join('\n\n');
  return `import { CATALOG, inCategory, product } from '../src/catalog';

describe('catalog', () => {
  it('has unique SKUs', () => {
    expect(new Set(CATALOG.map((p) => p.sku)).size).toBe(CATALOG.length);
  });

  it('throws on an unknown SKU', () => {
    expect(() => product('NOPE-0000')).toThrow('unknown SKU NOPE-0000');
  });

${cases}
});
`;
}

function pricingTest(): string {
  const weights = [0, 1, 250, 500, 501, 1999, 2000, 2001, 3000, 4500, 10000];
  const expect = (w: number) => (w <= 0 ? 0 : w <= 500 ? 390 : w <= 2000 ? 590 : 590 + Math.ceil((w - 2000) / 1000) * 150);
  const cases = weights.map((w) => `  it('ships ${w} g for ${expect(w)} cents', () => {\n    expect(shippingCents(${w})).toBe(${expect(w)});\n  });`).join('\n\n');
  const cats = CATEGORIES.map((c) => `  it('finds the cheapest ${c}', () => {\n    const p = cheapest('${c}');\n    expect(p).toBeDefined();\n    expect(inCategory('${c}').every((q) => q.priceCents >= p!.priceCents)).toBe(true);\n  });`).join('\n\n');
  return `import { shippingCents, cheapest, priceBands } from '../src/pricing';
import { inCategory, CATALOG } from '../src/catalog';

describe('shipping', () => {
${cases}
});

describe('cheapest', () => {
${cats}
});

describe('price bands', () => {
  it('counts every product once', () => {
    expect(Object.values(priceBands()).reduce((a, b) => a + b, 0)).toBe(CATALOG.length);
  });
});
`;
}

const CART_TEST = `import { Cart } from '../src/cart';
import { CATALOG } from '../src/catalog';

const [a, b, c] = CATALOG;

describe('Cart', () => {
  describe('add', () => {
    it('adds a line', () => {
      const cart = new Cart();
      cart.add(a.sku, 2);
      expect(cart.items()).toEqual([{ sku: a.sku, quantity: 2 }]);
    });

    it('merges the same SKU', () => {
      const cart = new Cart();
      cart.add(a.sku);
      cart.add(a.sku, 3);
      expect(cart.items()).toEqual([{ sku: a.sku, quantity: 4 }]);
    });

    it('rejects a bad quantity', () => {
      expect(() => new Cart().add(a.sku, 0)).toThrow(RangeError);
      expect(() => new Cart().add(a.sku, 1.5)).toThrow('bad quantity 1.5');
    });

    it('rejects an unknown SKU', () => {
      expect(() => new Cart().add('XXX-0000')).toThrow('unknown SKU XXX-0000');
    });
  });

  describe('totals', () => {
    it('sums the lines', () => {
      const cart = new Cart();
      cart.add(a.sku, 2);
      cart.add(b.sku);
      expect(cart.subtotalCents()).toBe(a.priceCents * 2 + b.priceCents);
    });

    it('weighs the cart', () => {
      const cart = new Cart();
      cart.add(c.sku, 3);
      expect(cart.weightGrams()).toBe(c.weightGrams * 3);
    });

    it('removes a line', () => {
      const cart = new Cart();
      cart.add(a.sku);
      cart.add(b.sku);
      cart.remove(a.sku);
      expect(cart.items().map((l) => l.sku)).toEqual([b.sku]);
    });
  });

  describe('applyDiscount', () => {
    it('takes a percentage off', () => {
      const cart = new Cart();
      cart.add(a.sku, 4);
      cart.applyDiscount({ code: 'TENOFF', percent: 10 });
      expect(cart.totalCents()).toBe(a.priceCents * 4 - Math.round((a.priceCents * 4) / 10));
    });

    it('takes a fixed amount off', () => {
      const cart = new Cart();
      cart.add(b.sku);
      cart.applyDiscount({ code: 'FIVE', amountCents: 500 });
      expect(cart.totalCents()).toBe(b.priceCents - 500);
    });

    it('never takes the total below zero', () => {
      const cart = new Cart();
      cart.add(a.sku);
      cart.applyDiscount({ code: 'BIG', amountCents: a.priceCents + 1000 });
      expect(cart.discountCents()).toBe(a.priceCents);
      expect(cart.totalCents()).toBe(0);
    });

    it('rejects a percentage over 100', () => {
      expect(() => new Cart().applyDiscount({ code: 'X', percent: 120 })).toThrow('bad percent 120');
    });
  });

  it('prints a summary', () => {
    const cart = new Cart();
    cart.add(a.sku, 2);
    expect(cart.summary().split('\\n')).toHaveLength(2);
  });
});
`;

const INVENTORY_TEST = `import { Inventory, OutOfStock } from '../src/inventory';

describe('Inventory', () => {
  it('receives stock', () => {
    const inv = new Inventory();
    inv.receive('TEA-0108', 5);
    expect(inv.available('TEA-0108')).toBe(5);
  });

  it('holds reserved stock', () => {
    const inv = new Inventory();
    inv.receive('TEA-0108', 5);
    inv.reserve('TEA-0108', 2);
    expect(inv.available('TEA-0108')).toBe(3);
  });

  it('never sells the last item twice', () => {
    const inv = new Inventory();
    inv.receive('MUG-0110', 1);
    inv.reserve('MUG-0110', 1);
    expect(() => inv.reserve('MUG-0110', 1)).toThrow(OutOfStock);
  });

  it('releases a reservation', () => {
    const inv = new Inventory();
    inv.receive('TEA-0108', 2);
    const r = inv.reserve('TEA-0108', 2);
    inv.release(r.id);
    expect(inv.available('TEA-0108')).toBe(2);
  });

  it('commits a reservation', () => {
    const inv = new Inventory();
    inv.receive('TEA-0108', 4);
    const r = inv.reserve('TEA-0108', 3);
    inv.commit(r.id);
    expect(inv.available('TEA-0108')).toBe(1);
  });

  it('lists low stock', () => {
    const inv = new Inventory();
    inv.receive('A', 10);
    inv.receive('B', 2);
    inv.receive('C', 3);
    expect(inv.lowStock()).toEqual(['B', 'C']);
  });
});
`;

const FORMAT_TEST = `import { formatCents, plural } from '../src/format';

describe('format', () => {
  it.each([
    [0, '€0.00'],
    [5, '€0.05'],
    [1999, '€19.99'],
    [123456, '€1,234.56'],
    [-250, '-€2.50'],
  ])('formats %i cents as %s', (cents, text) => {
    expect(formatCents(cents)).toBe(text);
  });

  it('pluralises', () => {
    expect(plural(1, 'item')).toBe('1 item');
    expect(plural(3, 'item')).toBe('3 items');
  });
});
`;

function serverLog(): string {
  const out: string[] = [];
  let ms = Date.UTC(2026, 10, 19, 8, 0, 0);
  const stamp = () => {
    ms += 173 + (ms % 997);
    return new Date(ms).toISOString();
  };
  const paths = ['/api/cart', '/api/cart/items', '/api/products?category=tea', '/api/checkout', '/healthz', '/api/stock/MUG-0110'];
  for (let i = 0; i < 220; i++) {
    const p = paths[(i * 7) % paths.length];
    const status = p === '/api/checkout' && i % 5 === 3 ? 409 : 200;
    out.push(`${stamp()} INFO  http ${p.startsWith('/api/checkout') ? 'POST' : 'GET'} ${p} ${status} ${3 + ((i * 31) % 90)}ms req=${(0x1000 + i * 7919).toString(16)}`);
    if (status === 409) out.push(`${stamp()} WARN  stock MUG-0110: reservation refused, 0 available (order ${4400 + i})`);
    if (i === 187) {
      out.push(`${stamp()} ERROR checkout order 4587: OutOfStock: MUG-0110: wanted 1, 0 available`);
      out.push(`${stamp()} ERROR checkout order 4588 charged twice for the last MUG-0110 (reservation ${9000 + i})`);
    }
  }
  return out.join('\n') + '\n';
}

export function nodeFiles(): Record<string, string> {
  return {
    'README.md': `# teashop

The shop's cart and stock service. The TypeScript package is in \`app/\`:

    cd app
    npm install
    npm test          # jest
    npm run lint      # eslint (warnings are allowed, errors are not)
    npm run build     # tsc -> dist/

Discounts never take a cart below zero. A reservation holds stock until it is committed or
released; the last item can only be reserved once. Server logs of the last incident are in \`logs/\`.
`,
    '.gitignore': 'node_modules/\ndist/\ncoverage/\n',
    'app/package.json': JSON.stringify(
      {
        name: 'teashop',
        version: '1.4.0',
        private: true,
        scripts: { test: 'jest', build: 'tsc -p tsconfig.build.json', lint: 'eslint src test', typecheck: 'tsc --noEmit' },
        devDependencies: { '@eslint/js': '9.39.1', '@types/jest': '30.0.0', eslint: '9.39.1', jest: '30.2.0', 'ts-jest': '29.4.5', typescript: '5.9.3', 'typescript-eslint': '8.46.2' },
      },
      null,
      2,
    ) + '\n',
    'app/tsconfig.json': JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'commonjs', strict: true, esModuleInterop: true, skipLibCheck: true, types: ['jest'], outDir: 'dist' }, include: ['src', 'test'] }, null, 2) + '\n',
    'app/tsconfig.build.json': JSON.stringify({ extends: './tsconfig.json', compilerOptions: { types: [], declaration: true }, include: ['src'] }, null, 2) + '\n',
    'app/jest.config.js': "/** @type {import('jest').Config} */\nmodule.exports = {\n  preset: 'ts-jest',\n  testEnvironment: 'node',\n  roots: ['<rootDir>/test'],\n  testSequencer: '<rootDir>/jest.sequencer.js',\n};\n",
    // Files in path order: jest's default order follows the durations it cached on earlier
    // runs, which differ between the two runs compared byte for byte.
    'app/jest.sequencer.js': "const Sequencer = require('@jest/test-sequencer').default;\n\n/** Test files in path order, so every run lists them the same way. */\nclass ByPath extends Sequencer {\n  sort(tests) {\n    return [...tests].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));\n  }\n}\n\nmodule.exports = ByPath;\n",
    'app/eslint.config.mjs': `import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(js.configs.recommended, ...tseslint.configs.recommended, {
  rules: {
    '@typescript-eslint/no-explicit-any': 'warn',
    '@typescript-eslint/no-unused-vars': 'warn',
    'prefer-const': 'warn',
  },
});
`,
    'app/src/catalog.ts': catalog(),
    'app/src/cart.ts': CART,
    'app/src/inventory.ts': INVENTORY,
    'app/src/format.ts': FORMAT,
    'app/src/pricing.ts': PRICING,
    'app/src/index.ts': "export * from './cart';\nexport * from './catalog';\nexport * from './inventory';\nexport * from './pricing';\nexport { formatCents, plural } from './format';\n",
    'app/test/catalog.test.ts': catalogTest(),
    'app/test/cart.test.ts': CART_TEST,
    'app/test/inventory.test.ts': INVENTORY_TEST,
    'app/test/pricing.test.ts': pricingTest(),
    'app/test/format.test.ts': FORMAT_TEST,
    'logs/server-2026-11-19.log': serverLog(),
  };
}

export const nodeSession: Session = {
  name: 'node-jest',
  ecosystem: 'TypeScript package: jest + ts-jest, eslint, tsc, npm scripts',
  set: 'dev',
  needs: ['node', 'npm', 'git'],
  files: nodeFiles,
  // One npm cache for every run, so a session's install reads the registry once per machine.
  env: { npm_config_cache: join(tmpdir(), 'omni-sessions-npm-cache'), npm_config_prefer_offline: 'true' },
  history: [
    { message: 'cart and catalog', paths: ['README.md', '.gitignore', 'app/package.json', 'app/tsconfig.json', 'app/jest.config.js', 'app/src/catalog.ts', 'app/src/cart.ts', 'app/src/format.ts', 'app/test/catalog.test.ts', 'app/test/cart.test.ts', 'app/test/format.test.ts'] },
    { message: 'discount codes: fixed amounts and percentages', paths: ['app/src/pricing.ts', 'app/test/pricing.test.ts'] },
    { message: 'inventory: reservations hold stock until committed', paths: ['app/src/inventory.ts', 'app/test/inventory.test.ts'] },
    { message: 'eslint, build config, index', paths: ['app/eslint.config.mjs', 'app/tsconfig.build.json', 'app/src/index.ts'] },
    { message: 'logs of the 19 Nov checkout incident', paths: ['.'] },
  ],
  steps: [
    bash('ls -la', 'List the repository', 'enumeration', { keep: ['README.md', 'app', 'logs', '.gitignore'] }),
    bash('git log --oneline -n 15', 'Recent history', 'git', { keep: ['logs of the 19 Nov checkout incident', 'inventory: reservations hold stock until committed', 'cart and catalog'] }),
    bash("find app/src app/test -name '*.ts' | sort", 'TypeScript files', 'enumeration', { keep: ['app/src/cart.ts', 'app/src/inventory.ts', 'app/test/pricing.test.ts'] }),
    read('app/package.json', 'first-read'),
    read('README.md', 'first-read'),
    bash('grep -rn "applyDiscount\\|discountCents" app/src app/test', 'Where discounts are applied', 'enumeration', { keep: ['app/src/cart.ts:', 'app/test/cart.test.ts:'] }),
    read('app/src/cart.ts', 'first-read'),
    bash('cd app && rm -rf node_modules && npm install', 'Install dependencies', 'chain-wrapped', { producer: 'install', keep: [/added \d+ packages/] }),
    bash('npx jest', 'Run the tests', 'test-fail', { fails: true, keep: ['FAIL test/cart.test.ts', 'FAIL test/inventory.test.ts', 'Cart › applyDiscount › never takes the total below zero', 'Inventory › never sells the last item twice', /Tests: +2 failed, \d+ passed, \d+ total/] }),
    read('app/test/cart.test.ts', 'first-read'),
    read('app/src/cart.ts', 're-read', { offset: 40, limit: 25 }),
    edit('app/src/cart.ts', '    if (d.percent !== undefined) off += Math.round((subtotal * d.percent) / 100);\n    return off;', '    if (d.percent !== undefined) off += Math.round((subtotal * d.percent) / 100);\n    return Math.min(off, subtotal);'),
    read('app/src/cart.ts', 're-read-after-edit'),
    bash('npx jest test/cart.test.ts', 'Cart tests only', 'test-pass', { keep: [/Tests: +\d+ passed, \d+ total/] }),
    bash('npm test', 'The whole suite through npm', 'test-fail', { fails: true, keep: ['FAIL test/inventory.test.ts', 'Inventory › never sells the last item twice', /Tests: +1 failed, \d+ passed, \d+ total/] }),
    read('app/src/inventory.ts', 'first-read'),
    edit('app/src/inventory.ts', 'if (quantity > available + 1) throw', 'if (quantity > available) throw'),
    bash('npx jest --verbose', 'All tests, verbose', 'test-pass', { keep: [/Tests: +\d+ passed, \d+ total/, /Test Suites: +5 passed, 5 total/] }),
    bash('npm run lint', 'Lint', 'chain-wrapped', { producer: 'build-lint', keep: ["'sign' is never reassigned. Use 'const' instead", 'Unexpected any. Specify a different type', /✖ \d+ problems \(0 errors, \d+ warnings\)/] }),
    bash('npx tsc --noEmit', 'Type-check', 'build-lint'),
    bash('npm run build', 'Build', 'chain-wrapped', { producer: 'build-lint', keep: ['tsc -p tsconfig.build.json'] }),
    bash('ls dist', 'Build output', 'enumeration', { keep: ['cart.js', 'inventory.d.ts', 'index.js'] }),
    read('app/src/cart.ts', 're-read'),
    read('app/src/inventory.ts', 're-read-after-edit'),
    bash('tail -n 80 ../logs/server-2026-11-19.log', 'End of the incident log', 'log', { keep: ['ERROR checkout order 4587: OutOfStock: MUG-0110: wanted 1, 0 available', 'ERROR checkout order 4588 charged twice for the last MUG-0110'] }),
    bash('grep -n "ERROR\\|WARN" ../logs/server-2026-11-19.log', 'Warnings and errors', 'log', { keep: ['charged twice for the last MUG-0110', 'reservation refused, 0 available'] }),
    bash('timeout 60 npx jest --silent', 'Tests once more', 'chain-wrapped', { producer: 'test-pass', keep: [/Tests: +\d+ passed, \d+ total/] }),
    read('app/src/format.ts', 'first-read'),
    edit('app/src/format.ts', "  let sign = cents < 0 ? '-' : '';", "  const sign = cents < 0 ? '-' : '';"),
    bash('npm run lint', 'Lint again', 'chain-wrapped', { producer: 'build-lint', keep: ['Unexpected any. Specify a different type', /✖ \d+ problems \(0 errors, \d+ warnings\)/] }),
    bash('git status', 'What changed', 'git', { keep: ['modified:   src/cart.ts', 'modified:   src/inventory.ts', 'modified:   src/format.ts'] }),
    bash('git diff', 'The fix', 'git', { keep: ['+    return Math.min(off, subtotal);', '-    if (quantity > available + 1) throw', "+  const sign = cents < 0 ? '-' : '';"] }),
    bash('git diff --stat', 'Size of the fix', 'git', { keep: ['3 files changed'] }),
    bash('git add -A && git commit -q -m "Cap discounts at the subtotal; never reserve the last item twice" && git log --oneline -n 3', 'Commit', 'git', { keep: ['Cap discounts at the subtotal; never reserve the last item twice'] }),
    bash('git show --stat HEAD', 'The commit', 'git', { keep: ['app/src/cart.ts', 'app/src/inventory.ts', 'Author: Dana Reyes <dana@example.org>'] }),
    bash('git log -p -n 2 -- src/inventory.ts', 'History of the inventory', 'git', { keep: ['+    if (quantity > available) throw', 'inventory: reservations hold stock until committed'] }),
    bash('npm ls --depth=0', 'Installed packages', 'enumeration', { keep: ['jest@30.2.0', 'ts-jest@29.4.5', 'typescript@5.9.3'] }),
  ],
};
