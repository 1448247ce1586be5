/**
 * A Python package (setuptools, pytest, flake8, a Makefile): `ledgerline`, a small double-entry
 * ledger with a bank-statement parser. Two bugs are committed: a balance cut-off that drops the
 * last day, and a parser that reads "(12.50)" as positive. The session finds them, fixes them,
 * lints, builds an sdist, reads a worker log and commits.
 */
import { bash, edit, read, type Session } from '../session.js';

const CATEGORIES = ['groceries', 'rent', 'utilities', 'travel', 'salary', 'dining', 'insurance', 'books', 'fuel', 'phone', 'gifts', 'health'];

function money(): string {
  return `"""Money as Decimal, rounded the way the bank rounds (half-up, two places)."""
from decimal import Decimal, ROUND_HALF_UP, InvalidOperation

CENT = Decimal("0.01")


class MoneyError(ValueError):
    """An amount that cannot be read as money."""


def to_money(value) -> Decimal:
    """Read an int, a float, a Decimal or a string as an amount of money."""
    if isinstance(value, Decimal):
        amount = value
    elif isinstance(value, (int, float)):
        amount = Decimal(str(value))
    elif isinstance(value, str):
        text = value.strip().replace(",", "")
        if not text:
            raise MoneyError("empty amount")
        try:
            amount = Decimal(text)
        except InvalidOperation as exc:
            raise MoneyError(f"not an amount: {value!r}") from exc
    else:
        raise MoneyError(f"unsupported type: {type(value).__name__}")
    return amount.quantize(CENT, rounding=ROUND_HALF_UP)


def add(*amounts) -> Decimal:
    total = Decimal("0")
    for a in amounts:
        total += to_money(a)
    return total.quantize(CENT, rounding=ROUND_HALF_UP)


def split(amount, parts: int) -> list:
    """Split an amount into \`parts\` shares that add up to it exactly (the first shares take the odd cents)."""
    if parts <= 0:
        raise MoneyError("parts must be positive")
    total = to_money(amount)
    cents = int((total / CENT).to_integral_value())
    base, extra = divmod(cents, parts)
    return [(Decimal(base + (1 if i < extra else 0)) * CENT).quantize(CENT) for i in range(parts)]


def fmt(amount) -> str:
    """1234.5 -> '1,234.50'; negative amounts keep their sign in front."""
    a = to_money(amount)
    sign = "-" if a < 0 else ""
    return f"{sign}{abs(a):,.2f}"
`;
}

function ledger(): string {
  return `"""A double-entry ledger: every entry moves an amount from one account to another."""
from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Iterable, Optional

from .money import to_money, add


@dataclass(frozen=True)
class Entry:
    day: dt.date
    debit: str
    credit: str
    amount: object
    memo: str = ""
    tags: tuple = field(default_factory=tuple)

    def __post_init__(self):
        if self.debit == self.credit:
            raise ValueError(f"entry moves money from {self.debit} to itself")
        object.__setattr__(self, "amount", to_money(self.amount))
        if self.amount <= 0:
            raise ValueError("an entry's amount must be positive")


class Ledger:
    """Entries in the order they were posted, with balances per account."""

    def __init__(self, entries: Iterable[Entry] = ()):
        self._entries: list[Entry] = []
        for e in entries:
            self.post(e)

    def post(self, entry: Entry) -> None:
        self._entries.append(entry)

    def entries(self, account: Optional[str] = None) -> list[Entry]:
        if account is None:
            return list(self._entries)
        return [e for e in self._entries if account in (e.debit, e.credit)]

    def accounts(self) -> list[str]:
        names = set()
        for e in self._entries:
            names.add(e.debit)
            names.add(e.credit)
        return sorted(names)

    def balance(self, account: str, until: Optional[dt.date] = None):
        """The account's balance: debits in, credits out, up to and including \`until\`."""
        total = to_money(0)
        for e in self._entries:
            if until is not None and e.day < until:
                pass
            elif until is not None:
                continue
            if e.debit == account:
                total = add(total, e.amount)
            elif e.credit == account:
                total = add(total, -e.amount)
        return total

    def balances(self, until: Optional[dt.date] = None) -> dict:
        return {a: self.balance(a, until) for a in self.accounts()}

    def by_tag(self) -> dict:
        out = defaultdict(lambda: to_money(0))
        for e in self._entries:
            for t in e.tags:
                out[t] = add(out[t], e.amount)
        return dict(out)

    def trial_balance(self) -> bool:
        """Every entry is balanced, so the balances of all accounts add up to zero."""
        return add(*self.balances().values()) == 0 if self._entries else True

    def month(self, year: int, month: int) -> "Ledger":
        return Ledger(e for e in self._entries if e.day.year == year and e.day.month == month)
`;
}

function parser(): string {
  return `"""Bank statement CSV: date;description;amount;balance, with the bank's own quirks."""
from __future__ import annotations

import csv
import datetime as dt
import io
import os
import re
from dataclasses import dataclass

from .money import to_money, MoneyError

DATE_FORMATS = ("%Y-%m-%d", "%d.%m.%Y", "%d/%m/%Y")
_SPACES = re.compile(r"\\s+")


@dataclass
class Line:
    day: dt.date
    description: str
    amount: object
    balance: object


class StatementError(ValueError):
    def __init__(self, lineno: int, message: str):
        super().__init__(f"line {lineno}: {message}")
        self.lineno = lineno


def parse_date(text: str) -> dt.date:
    for f in DATE_FORMATS:
        try:
            return dt.datetime.strptime(text.strip(), f).date()
        except ValueError:
            continue
    raise ValueError(f"unknown date format: {text!r}")


def parse_amount(text: str):
    """'1.234,50' (the bank's locale), '-12.00', '12.00 CR', '(12.50)' for a debit."""
    t = text.strip().replace(" ", "")
    negative = False
    if t.endswith("CR"):
        t = t[:-2]
    elif t.endswith("DR"):
        t = t[:-2]
        negative = True
    if "," in t and "." in t and t.rindex(",") > t.rindex("."):
        t = t.replace(".", "").replace(",", ".")
    elif "," in t and "." not in t:
        t = t.replace(",", ".")
    t = t.strip("()")
    amount = to_money(t)
    return -amount if negative else amount


def clean_description(text: str) -> str:
    return _SPACES.sub(" ", text).strip().title()


def parse_statement(text: str) -> list[Line]:
    rows = csv.reader(io.StringIO(text), delimiter=";")
    out: list[Line] = []
    for lineno, row in enumerate(rows, start=1):
        if not row or row[0].startswith("#"):
            continue
        if lineno == 1 and row[0].lower() == "date":
            continue
        if len(row) != 4:
            raise StatementError(lineno, f"expected 4 fields, got {len(row)}")
        try:
            out.append(Line(parse_date(row[0]), clean_description(row[1]), parse_amount(row[2]), parse_amount(row[3])))
        except (ValueError, MoneyError) as exc:
            raise StatementError(lineno, str(exc)) from exc
    return out


def load(path: str) -> list[Line]:
    with open(path, encoding="utf-8") as f:
        return parse_statement(f.read())
`;
}

function report(): string {
  return `"""Plain-text reports of a ledger."""
from .money import fmt


def balance_table(balances: dict, width: int = 28) -> str:
    lines = [f"{'account':<{width}} {'balance':>14}", "-" * (width + 15)]
    for account, amount in sorted(balances.items()):
        lines.append(f"{account:<{width}} {fmt(amount):>14}")
    return "\\n".join(lines)


def tag_summary(totals: dict) -> str:
    if not totals:
        return "(no tagged entries)"
    longest = max(len(t) for t in totals)
    return "\\n".join(f"{t:<{longest}}  {fmt(v):>12}" for t, v in sorted(totals.items(), key=lambda kv: -kv[1]))
`;
}

function cli(): string {
  return `"""ledgerline CLI: ledgerline balances STATEMENT.csv"""
import argparse
import sys

from .ledger import Ledger, Entry
from .parser import load
from .report import balance_table


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="ledgerline")
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("balances")
    b.add_argument("statement")
    b.add_argument("--account", default="assets:bank")
    args = ap.parse_args(argv)
    lines = load(args.statement)
    skipped = 0
    ledger = Ledger()
    for ln in lines:
        if ln.amount >= 0:
            ledger.post(Entry(ln.day, args.account, "income:" + ln.description.lower(), ln.amount))
        else:
            ledger.post(Entry(ln.day, "expenses:" + ln.description.lower(), args.account, -ln.amount))
    print(balance_table(ledger.balances()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
`;
}

function testLedger(): string {
  const cases = CATEGORIES.flatMap((c, i) => [1, 12, 28].map((d, j) => `    ("expenses:${c}", ${d}, "${(10 + i * 3.25 + j * 101.5).toFixed(2)}"),`)).join('\n');
  return `import datetime as dt
from decimal import Decimal

import pytest

from ledgerline.ledger import Entry, Ledger

D = dt.date


@pytest.fixture
def book():
    return Ledger([
        Entry(D(2026, 10, 1), "assets:bank", "income:salary", "3200.00", tags=("work",)),
        Entry(D(2026, 10, 3), "expenses:rent", "assets:bank", "1150.00", tags=("home",)),
        Entry(D(2026, 10, 9), "expenses:groceries", "assets:bank", "84.35", tags=("home", "food")),
        Entry(D(2026, 10, 31), "expenses:utilities", "assets:bank", "61.20", tags=("home",)),
        Entry(D(2026, 11, 2), "expenses:dining", "assets:bank", "42.00", tags=("food",)),
    ])


def test_entry_rejects_self_transfer():
    with pytest.raises(ValueError, match="to itself"):
        Entry(D(2026, 1, 1), "assets:bank", "assets:bank", "1.00")


def test_entry_rejects_non_positive_amount():
    with pytest.raises(ValueError):
        Entry(D(2026, 1, 1), "assets:bank", "income:x", "0")


def test_accounts_sorted(book):
    assert book.accounts() == [
        "assets:bank", "expenses:dining", "expenses:groceries", "expenses:rent", "expenses:utilities", "income:salary",
    ]


def test_balance_all_time(book):
    assert book.balance("assets:bank") == Decimal("1862.45")


def test_balance_until_includes_the_last_day(book):
    # The statement closes on the 31st: the utilities bill of that day belongs to October.
    assert book.balance("assets:bank", until=D(2026, 10, 31)) == Decimal("1904.45")


def test_balance_until_before_everything(book):
    assert book.balance("assets:bank", until=D(2026, 9, 30)) == Decimal("0.00")


def test_trial_balance(book):
    assert book.trial_balance()


def test_by_tag(book):
    assert book.by_tag() == {"work": Decimal("3200.00"), "home": Decimal("1295.55"), "food": Decimal("126.35")}


def test_month(book):
    assert [e.memo for e in book.month(2026, 11).entries()] == [""]
    assert len(book.month(2026, 10).entries()) == 4


@pytest.mark.parametrize("account,day,amount", [
${cases}
])
def test_single_expense_balances(account, day, amount):
    ledger = Ledger([Entry(D(2026, 5, day), account, "assets:bank", amount)])
    assert ledger.balance(account) == Decimal(amount)
    assert ledger.balance("assets:bank") == -Decimal(amount)
    assert ledger.trial_balance()
`;
}

function testParser(): string {
  const amounts: [string, string][] = [
    ['12.00', '12.00'], ['-12.00', '-12.00'], ['1.234,50', '1234.50'], ['12,5', '12.50'], ['99.99 CR', '99.99'], ['45.10 DR', '-45.10'],
    ['(12.50)', '-12.50'], ['0.004', '0.00'], ['0.005', '0.01'], [' 7 ', '7.00'], ['1,000.00', '1000.00'], ['(3.00)', '-3.00'],
  ];
  const dates: [string, string][] = [['2026-11-05', '2026, 11, 5'], ['05.11.2026', '2026, 11, 5'], ['05/11/2026', '2026, 11, 5'], ['2026-01-31', '2026, 1, 31']];
  return `import datetime as dt
from decimal import Decimal

import pytest

from ledgerline.parser import parse_amount, parse_date, parse_statement, clean_description, StatementError


@pytest.mark.parametrize("text,expected", [
${amounts.map(([a, b]) => `    ("${a}", "${b}"),`).join('\n')}
])
def test_parse_amount(text, expected):
    assert parse_amount(text) == Decimal(expected)


@pytest.mark.parametrize("text,expected", [
${dates.map(([a, b]) => `    ("${a}", dt.date(${b})),`).join('\n')}
])
def test_parse_date(text, expected):
    assert parse_date(text) == expected


def test_parse_date_unknown():
    with pytest.raises(ValueError, match="unknown date format"):
        parse_date("Nov 5th")


def test_clean_description():
    assert clean_description("  CARD   PAYMENT  bakery ") == "Card Payment Bakery"


def test_statement_skips_header_and_comments():
    text = "date;description;amount;balance\\n# exported 2026-11-05\\n2026-11-01;salary;3200.00;3200.00\\n2026-11-02;rent;(1150.00);2050.00\\n"
    lines = parse_statement(text)
    assert [ln.amount for ln in lines] == [Decimal("3200.00"), Decimal("-1150.00")]


def test_statement_wrong_field_count():
    with pytest.raises(StatementError, match="line 2: expected 4 fields, got 3"):
        parse_statement("date;description;amount;balance\\n2026-11-01;salary;3200.00\\n")
`;
}

function testMoney(): string {
  const splits = [[100, 3], [10, 4], [0.05, 2], [1, 7], [250, 6], [33.33, 3]];
  return `from decimal import Decimal

import pytest

from ledgerline.money import to_money, add, split, fmt, MoneyError


def test_to_money_rounds_half_up():
    assert to_money("2.675") == Decimal("2.68")


def test_to_money_rejects_text():
    with pytest.raises(MoneyError):
        to_money("twelve")


def test_add():
    assert add("0.10", 0.2, Decimal("0.30")) == Decimal("0.60")


@pytest.mark.parametrize("amount,parts", [
${splits.map(([a, p]) => `    (${a}, ${p}),`).join('\n')}
])
def test_split_adds_up(amount, parts):
    shares = split(amount, parts)
    assert len(shares) == parts
    assert sum(shares) == to_money(amount)
    assert max(shares) - min(shares) <= Decimal("0.01")


@pytest.mark.parametrize("amount,text", [(1234.5, "1,234.50"), (-3, "-3.00"), ("0.1", "0.10"), (1000000, "1,000,000.00")])
def test_fmt(amount, text):
    assert fmt(amount) == text
`;
}

function testReport(): string {
  return `from decimal import Decimal

from ledgerline.report import balance_table, tag_summary


def test_balance_table_is_sorted_and_aligned():
    table = balance_table({"b": Decimal("2"), "a": Decimal("1000")}, width=6)
    assert table.splitlines()[2:] == ["a            1,000.00", "b                2.00"]


def test_tag_summary_empty():
    assert tag_summary({}) == "(no tagged entries)"


def test_tag_summary_orders_by_amount():
    out = tag_summary({"food": Decimal("12"), "home": Decimal("900")})
    assert out.splitlines()[0].startswith("home")
`;
}

/** A worker log of the nightly statement import: mostly INFO, some WARN, one ERROR run. */
function workerLog(): string {
  const lines: string[] = [];
  let t = 2 * 3600;
  const ts = () => {
    t += 7 + (t % 13);
    const h = String(Math.floor(t / 3600)).padStart(2, '0');
    const m = String(Math.floor((t % 3600) / 60)).padStart(2, '0');
    const s = String(t % 60).padStart(2, '0');
    return `2026-11-19 ${h}:${m}:${s},${String((t * 37) % 1000).padStart(3, '0')}`;
  };
  lines.push(`${ts()} INFO  worker[4121] starting import run #8812 (statements=64, since=2026-11-18)`);
  for (let i = 0; i < 64; i++) {
    const acct = `DE${String(89370400440532013000 + i * 7919).slice(0, 18)}`;
    lines.push(`${ts()} INFO  worker[4121] fetch statement ${acct} ok (${20 + (i * 17) % 180} lines, ${(3 + (i * 11) % 40) / 10}s)`);
    lines.push(`${ts()} INFO  worker[4121] parse ${acct}: ${20 + (i * 17) % 180} lines, 0 skipped`);
    if (i % 9 === 4) lines.push(`${ts()} WARN  worker[4121] ${acct}: balance column disagrees with running total by 0.0${1 + (i % 8)} (rounding), continuing`);
    if (i === 55) {
      lines.push(`${ts()} ERROR worker[4121] parse ${acct}: line 17: not an amount: '(1.150,00)'`);
      lines.push(`${ts()} ERROR worker[4121] import of ${acct} aborted; 0 of 88 lines posted`);
    }
    lines.push(`${ts()} INFO  worker[4121] post ${acct}: ${18 + (i * 17) % 180} entries posted`);
  }
  lines.push(`${ts()} INFO  worker[4121] import run #8812 done: 63 ok, 1 failed, 9912 entries`);
  return lines.join('\n') + '\n';
}

export function pythonFiles(): Record<string, string> {
  return {
    'README.md': `# ledgerline

A small double-entry ledger with a bank-statement parser, used by the nightly import worker.

## Development

    make test      # pytest
    make lint      # flake8 (warnings only)
    make           # source distribution in dist/

Statements are semicolon-separated: \`date;description;amount;balance\`. The bank writes debits as
\`(12.50)\` or \`12.50 DR\`, credits as \`12.50\` or \`12.50 CR\`, and uses \`1.234,50\` in exports made
from the German branch.

Balances are computed up to and including the closing day of a statement.
`,
    'pyproject.toml': `[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "ledgerline"
version = "0.4.0"
description = "A double-entry ledger and bank statement parser"
readme = "README.md"
requires-python = ">=3.9"

[project.scripts]
ledgerline = "ledgerline.cli:main"

[tool.setuptools.packages.find]
where = ["src"]

[tool.pytest.ini_options]
testpaths = ["tests"]
pythonpath = ["src"]
`,
    Makefile: `PY ?= python3

.PHONY: all dist test lint clean

all: dist

dist:
\t$(PY) -c 'from setuptools import setup; setup()' sdist

test:
\t$(PY) -m pytest -q

lint:
\tflake8 --exit-zero --max-line-length 100 src tests

clean:
\trm -rf build dist src/*.egg-info
\tfind . -name __pycache__ -type d -prune -exec rm -rf {} +
`,
    '.gitignore': '__pycache__/\n*.egg-info/\ndist/\nbuild/\n.pytest_cache/\n',
    'src/ledgerline/__init__.py': '"""ledgerline: a double-entry ledger."""\n__version__ = "0.4.0"\n',
    'src/ledgerline/money.py': money(),
    'src/ledgerline/ledger.py': ledger(),
    'src/ledgerline/parser.py': parser(),
    'src/ledgerline/report.py': report(),
    'src/ledgerline/cli.py': cli(),
    'tests/test_ledger.py': testLedger(),
    'tests/test_parser.py': testParser(),
    'tests/test_money.py': testMoney(),
    'tests/test_report.py': testReport(),
    'logs/import-2026-11-19.log': workerLog(),
  };
}

const LOG = 'logs/import-2026-11-19.log';

export const pythonSession: Session = {
  name: 'python-pytest',
  ecosystem: 'Python package: pytest, flake8, setuptools sdist, make',
  set: 'dev',
  needs: ['python3', 'pytest', 'flake8', 'make', 'git'],
  files: pythonFiles,
  env: { SOURCE_DATE_EPOCH: '1763632800', PYTHONDONTWRITEBYTECODE: '1' },
  history: [
    { message: 'ledger: entries, balances, trial balance', paths: ['README.md', 'pyproject.toml', '.gitignore', 'src/ledgerline/__init__.py', 'src/ledgerline/money.py', 'src/ledgerline/ledger.py', 'tests/test_money.py', 'tests/test_ledger.py'] },
    { message: 'parser: bank statement CSV with the German branch format', paths: ['src/ledgerline/parser.py', 'tests/test_parser.py'] },
    { message: 'report and CLI', paths: ['src/ledgerline/report.py', 'src/ledgerline/cli.py', 'tests/test_report.py'] },
    { message: 'Makefile; keep the worker log of the 19th for the import bug', paths: ['.'] },
  ],
  steps: [
    bash('ls -la', 'List the project', 'enumeration', { keep: ['Makefile', 'pyproject.toml', 'README.md', 'src', 'tests', 'logs'] }),
    bash('git log --oneline -n 20', 'Recent history', 'git', { keep: ['parser: bank statement CSV with the German branch format', 'ledger: entries, balances, trial balance', 'report and CLI', 'Makefile; keep the worker log'] }),
    bash("find src tests -name '*.py' | sort", 'Python files', 'enumeration', { keep: ['src/ledgerline/ledger.py', 'src/ledgerline/parser.py', 'tests/test_report.py', 'src/ledgerline/cli.py'] }),
    read('README.md', 'first-read'),
    read('pyproject.toml', 'first-read'),
    bash('grep -rn "def balance" src', 'Where balances are computed', 'enumeration', { keep: ['src/ledgerline/ledger.py:', 'def balances('] }),
    read('src/ledgerline/ledger.py', 'first-read'),
    bash('python3 -m pytest -q', 'Run the tests', 'test-fail', { fails: true, keep: ['FAILED tests/test_ledger.py::test_balance_until_includes_the_last_day', 'FAILED tests/test_parser.py::test_parse_amount[(12.50)--12.50]', /\d+ failed, \d+ passed/] }),
    read('tests/test_ledger.py', 'first-read'),
    read('src/ledgerline/ledger.py', 're-read', { offset: 50, limit: 16 }),
    edit(
      'src/ledgerline/ledger.py',
      '            if until is not None and e.day < until:\n                pass\n            elif until is not None:\n                continue\n',
      '            if until is not None and e.day > until:\n                continue\n',
    ),
    read('src/ledgerline/ledger.py', 're-read-after-edit'),
    bash('python3 -m pytest -q tests/test_ledger.py', 'Ledger tests only', 'test-pass', { keep: [/\d+ passed/] }),
    bash('python3 -m pytest -q', 'Run the tests again', 'test-fail', { fails: true, keep: ['FAILED tests/test_parser.py::test_parse_amount[(12.50)--12.50]', 'FAILED tests/test_parser.py::test_parse_amount[(3.00)--3.00]', /3 failed, \d+ passed/] }),
    read('src/ledgerline/parser.py', 'first-read'),
    bash('grep -n "strip" -A 3 src/ledgerline/parser.py', 'Where parentheses are stripped', 'enumeration', { keep: ['t = t.strip("()")'] }),
    edit(
      'src/ledgerline/parser.py',
      '    t = text.strip().replace(" ", "")\n    negative = False\n',
      '    t = text.strip().replace(" ", "")\n    negative = False\n    if t.startswith("(") and t.endswith(")"):\n        t = t[1:-1]\n        negative = True\n',
    ),
    bash('python3 -m pytest -v', 'Full run, verbose', 'test-pass', { keep: [/=+ \d+ passed/] }),
    bash('make test', 'The suite as CI runs it', 'chain-wrapped', { producer: 'test-pass', keep: [/\d+ passed/] }),
    bash('make lint', 'Lint', 'chain-wrapped', { producer: 'build-lint', keep: ["src/ledgerline/parser.py:7:1: F401 'os' imported but unused", "F841 local variable 'skipped' is assigned to but never used", 'src/ledgerline/money.py:38:101: E501 line too long'] }),
    read('src/ledgerline/parser.py', 're-read-after-edit', { offset: 1, limit: 20 }),
    edit('src/ledgerline/parser.py', 'import io\nimport os\nimport re\n', 'import io\nimport re\n'),
    bash('flake8 --max-line-length 100 src tests', 'Lint again (strict)', 'build-lint', { fails: true, keep: ["F841 local variable 'skipped' is assigned to but never used", 'tests/test_ledger.py:34:101: E501 line too long'] }),
    bash('make clean >/dev/null && make', 'Clean build of the sdist', 'chain-wrapped', { producer: 'build-lint', keep: ['running sdist', 'Creating tar archive'] }),
    bash('ls dist/', 'The built archive', 'enumeration', { keep: ['ledgerline-0.4.0.tar.gz'] }),
    bash(`tail -n 60 ${LOG}`, 'End of the import log', 'log', { keep: ["ERROR worker[4121] parse DE893704004405324500: line 17: not an amount: '(1.150,00)'", 'import run #8812 done: 63 ok, 1 failed, 9912 entries'] }),
    bash(`grep -n "WARN\\|ERROR" ${LOG}`, 'Warnings and errors in the log', 'log', { keep: ['aborted; 0 of 88 lines posted', 'balance column disagrees'] }),
    read('src/ledgerline/ledger.py', 're-read'),
    bash('timeout 60 python3 -m pytest -q -x', 'Tests once more before committing', 'chain-wrapped', { producer: 'test-pass', keep: [/\d+ passed/] }),
    bash('git status', 'What changed', 'git', { keep: ['modified:   src/ledgerline/ledger.py', 'modified:   src/ledgerline/parser.py'] }),
    bash('git diff', 'The fix', 'git', { keep: ['-            if until is not None and e.day < until:', '+            if until is not None and e.day > until:', '+        negative = True', '-import os'] }),
    bash('git diff --stat', 'Size of the fix', 'git', { keep: ['src/ledgerline/ledger.py', 'src/ledgerline/parser.py', '2 files changed'] }),
    bash('git add -A && git commit -q -m "Balance until the closing day; parse (12.50) as a debit" && git log --oneline -n 3', 'Commit', 'git', { keep: ['Balance until the closing day; parse (12.50) as a debit', 'report and CLI'] }),
    bash('git show --stat HEAD', 'The commit', 'git', { keep: ['Balance until the closing day', 'src/ledgerline/ledger.py', 'Author: Dana Reyes <dana@example.org>'] }),
    bash('git log -p -n 2 -- src/ledgerline/parser.py', 'History of the parser', 'git', { keep: ['parse (12.50) as a debit', '+    if t.startswith("(") and t.endswith(")"):', 'parser: bank statement CSV with the German branch format'] }),
    read('tests/test_parser.py', 'first-read'),
  ],
};
