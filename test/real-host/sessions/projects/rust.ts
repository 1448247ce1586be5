/**
 * A Rust crate (lib + bin, no dependencies, so it builds offline): `tally`, summary statistics
 * and a text histogram of numbers read from stdin. Two bugs are committed: the median of an
 * even count takes the upper middle value, and the histogram drops the maximum. The build has
 * compiler warnings, clippy has more, rustfmt disagrees with one file.
 */
import { bash, edit, read, type Session } from '../session.js';

const STATS = `//! Summary statistics over a slice of numbers.

/// Arithmetic mean; \`None\` for an empty slice.
pub fn mean(xs: &[f64]) -> Option<f64> {
    if xs.len() == 0 {
        return None;
    }
    Some(xs.iter().sum::<f64>() / xs.len() as f64)
}

/// The middle value; the mean of the two middle values for an even count.
pub fn median(xs: &[f64]) -> Option<f64> {
    if xs.is_empty() {
        return None;
    }
    let mut v = xs.to_vec();
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let mid = v.len() / 2;
    Some(v[mid])
}

/// Population standard deviation.
pub fn stddev(xs: &[f64]) -> Option<f64> {
    let m = mean(xs)?;
    let var = xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / xs.len() as f64;
    Some(var.sqrt())
}

/// Nearest-rank percentile, \`p\` in 0..=100.
pub fn percentile(xs: &[f64], p: f64) -> Option<f64> {
    if xs.is_empty() || p < 0.0 || p > 100.0 {
        return None;
    }
    let mut v = xs.to_vec();
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let rank = ((p / 100.0) * v.len() as f64).ceil() as usize;
    Some(v[rank.saturating_sub(1)])
}

pub fn min_max(xs: &[f64]) -> Option<(f64, f64)> {
    let mut it = xs.iter();
    let first = *it.next()?;
    let mut lo = first;
    let mut hi = first;
    for i in 0..xs.len() {
        if xs[i] < lo {
            lo = xs[i];
        }
        if xs[i] > hi {
            hi = xs[i];
        }
    }
    Some((lo, hi))
}

#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    pub count: usize,
    pub mean: f64,
    pub median: f64,
    pub stddev: f64,
    pub min: f64,
    pub max: f64,
    pub p90: f64,
}

pub fn summarize(xs: &[f64]) -> Option<Summary> {
    let (min, max) = min_max(xs)?;
    Some(Summary {
        count: xs.len(),
        mean: mean(xs)?,
        median: median(xs)?,
        stddev: stddev(xs)?,
        min,
        max,
        p90: percentile(xs, 90.0)?,
    })
}
`;

const PARSE = `//! Numbers from text: one per line, \`#\` comments, blank lines skipped.
use std::fmt;

#[derive(Debug, PartialEq)]
pub struct ParseError {
    pub line: usize,
    pub text: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: not a number: {:?}", self.line, self.text)
    }
}

impl std::error::Error for ParseError {}

pub fn parse_numbers(input: &str) -> Result<Vec<f64>, ParseError> {
    let mut out = Vec::new();
    for (i, raw) in input.lines().enumerate() {
        let line = match raw.find('#') {
            Some(pos) => &raw[..pos],
            None => raw,
        }
        .trim();
        if line.is_empty() {
            continue;
        }
        let cleaned = line.replace('_', "");
        match cleaned.parse::<f64>() {
            Ok(x) if x.is_finite() => out.push(x),
            _ => {
                return Err(ParseError {
                    line: i + 1,
                    text: line.to_string(),
                })
            }
        }
    }
    Ok(out)
}
`;

const HISTOGRAM = `//! Equal-width buckets and a text rendering of them.

pub struct Histogram {
    pub lo: f64,
    pub hi: f64,
    pub counts: Vec<usize>,
}

pub fn histogram(xs: &[f64], buckets: usize) -> Option<Histogram> {
    if xs.is_empty() || buckets == 0 {
        return None;
    }
    let lo = xs.iter().cloned().fold(f64::INFINITY, f64::min);
    let hi = xs.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let span = if hi > lo { hi - lo } else { 1.0 };
    let mut counts = vec![0usize; buckets];
    for &x in xs {
        let idx = (((x - lo) / span) * buckets as f64) as usize;
        if idx < buckets {
            counts[idx] += 1;
        }
    }
    Some(Histogram { lo, hi, counts })
}

pub fn render(h: &Histogram, width: usize) -> String {
    let peak = *h.counts.iter().max().unwrap_or(&1);
    let step = (h.hi - h.lo) / h.counts.len() as f64;
    let unused_total = h.counts.len();
    let mut out = String::new();
    for (i, &c) in h.counts.iter().enumerate() {
        let bar = if peak == 0 { 0 } else { c * width / peak };
        out.push_str(&format!("{:>10.2} | {:<w$} {}\\n", h.lo + step * i as f64, "#".repeat(bar), c, w = width));
    }
    out
}
`;

const MAIN = `use std::io::Read;
use std::process::ExitCode;

use tally::histogram::{histogram, render};
use tally::parse::parse_numbers;
use tally::stats::summarize;

fn main() -> ExitCode {
    let mut input = String::new();
    if let Err(e) = std::io::stdin().read_to_string(&mut input) {
        eprintln!("tally: cannot read stdin: {e}");
        return ExitCode::from(2);
    }
    let xs = match parse_numbers(&input) {
        Ok(xs) => xs,
        Err(e) => {
            eprintln!("tally: {e}");
            return ExitCode::from(1);
        }
    };
    let Some(s) = summarize(&xs) else {
        eprintln!("tally: no numbers");
        return ExitCode::from(1);
    };
    println!("count {}  mean {:.3}  median {:.3}  sd {:.3}  min {}  max {}  p90 {}", s.count, s.mean, s.median, s.stddev, s.min, s.max, s.p90);
    if let Some(h) = histogram(&xs, 8) {
        print!("{}", render(&h, 40));
    }
    ExitCode::SUCCESS
}
`;

const LIB = `//! tally: summary statistics and a histogram of numbers.
pub mod histogram;
pub mod parse;
pub mod stats;
`;

function statsTests(): string {
  const med: [number[], number][] = [[[1], 1], [[1, 2], 1.5], [[3, 1, 2], 2], [[4, 1, 3, 2], 2.5], [[10, 20, 30, 40, 50, 60], 35], [[5, 5, 5, 5], 5], [[-2, 2], 0], [[7, 1, 9, 3, 5], 5]];
  const pct: [number[], number, number][] = [[[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 90, 9], [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 10, 1], [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 100, 10], [[15, 20, 35, 40, 50], 30, 20], [[15, 20, 35, 40, 50], 40, 20], [[15, 20, 35, 40, 50], 50, 35]];
  const f = (xs: number[]) => `&[${xs.map((x) => x.toFixed(1)).join(', ')}]`;
  return `use tally::stats::*;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[test]
fn mean_of_nothing_is_none() {
    assert_eq!(mean(&[]), None);
}

#[test]
fn mean_of_three() {
    assert!(close(mean(&[1.0, 2.0, 6.0]).unwrap(), 3.0));
}

#[test]
fn stddev_of_constant_is_zero() {
    assert!(close(stddev(&[4.0, 4.0, 4.0]).unwrap(), 0.0));
}

#[test]
fn stddev_known() {
    assert!(close(stddev(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]).unwrap(), 2.0));
}
${med
  .map(
    ([xs, m], i) => `
#[test]
fn median_case_${i + 1}() {
    assert_eq!(median(${f(xs)}), Some(${m.toFixed(1)}));
}`,
  )
  .join('\n')}
${pct
  .map(
    ([xs, p, v], i) => `
#[test]
fn percentile_case_${i + 1}() {
    assert_eq!(percentile(${f(xs)}, ${p.toFixed(1)}), Some(${v.toFixed(1)}));
}`,
  )
  .join('\n')}

#[test]
fn percentile_out_of_range() {
    assert_eq!(percentile(&[1.0], 101.0), None);
}

#[test]
fn summary_of_ten() {
    let xs: Vec<f64> = (1..=10).map(|x| x as f64).collect();
    let s = summarize(&xs).unwrap();
    assert_eq!(s.count, 10);
    assert_eq!((s.min, s.max), (1.0, 10.0));
    assert!(close(s.median, 5.5));
}
`;
}

const PARSE_TESTS = `use tally::parse::*;

#[test]
fn skips_comments_and_blanks() {
    assert_eq!(parse_numbers("1\\n\\n# header\\n2 # two\\n  3  \\n"), Ok(vec![1.0, 2.0, 3.0]));
}

#[test]
fn underscores_in_numbers() {
    assert_eq!(parse_numbers("1_000\\n2_500.5\\n"), Ok(vec![1000.0, 2500.5]));
}

#[test]
fn reports_the_bad_line() {
    let e = parse_numbers("1\\n2\\nthree\\n").unwrap_err();
    assert_eq!(e.line, 3);
    assert_eq!(e.to_string(), "line 3: not a number: \\"three\\"");
}

#[test]
fn rejects_infinity() {
    assert!(parse_numbers("inf\\n").is_err());
}
`;

const HIST_TESTS = `use tally::histogram::*;

#[test]
fn every_value_lands_in_a_bucket() {
    let xs: Vec<f64> = (0..=100).map(|x| x as f64).collect();
    let h = histogram(&xs, 10).unwrap();
    assert_eq!(h.counts.iter().sum::<usize>(), xs.len());
}

#[test]
fn constant_input_fills_the_first_bucket() {
    let h = histogram(&[3.0, 3.0, 3.0], 4).unwrap();
    assert_eq!(h.counts, vec![3, 0, 0, 0]);
}

#[test]
fn renders_one_row_per_bucket() {
    let h = histogram(&[1.0, 2.0, 3.0, 4.0], 2).unwrap();
    assert_eq!(render(&h, 10).lines().count(), 2);
}
`;

export function rustFiles(): Record<string, string> {
  const samples = Array.from({ length: 400 }, (_, i) => String(Math.round(((Math.sin(i * 12.9898) * 43758.5453) % 1 + 1) * 500) / 10)).join('\n') + '\n';
  return {
    'Cargo.toml': `[package]
name = "tally"
version = "0.3.1"
edition = "2021"
description = "Summary statistics and a histogram of numbers read from stdin"
license = "MIT"

[dependencies]
`,
    '.gitignore': '/target\n',
    'README.md': `# tally

Reads numbers from stdin, one per line (\`#\` comments and blank lines are skipped, \`1_000\`
is allowed), and prints count, mean, median, standard deviation, min, max, the 90th percentile
and an 8-bucket histogram.

    cargo run --release < samples/latency-ms.txt

The median of an even count is the mean of the two middle values. Percentiles use the nearest
rank. Every value lands in a histogram bucket, the maximum included.
`,
    'src/lib.rs': LIB,
    'src/stats.rs': STATS,
    'src/parse.rs': PARSE,
    'src/histogram.rs': HISTOGRAM,
    'src/main.rs': MAIN,
    'tests/stats.rs': statsTests(),
    'tests/parse.rs': PARSE_TESTS,
    'tests/histogram.rs': HIST_TESTS,
    'samples/latency-ms.txt': samples,
  };
}

export const rustSession: Session = {
  name: 'rust-cargo',
  ecosystem: 'Rust crate: cargo build/test/clippy/fmt, no dependencies',
  set: 'dev',
  needs: ['cargo', 'git'],
  files: rustFiles,
  // One test thread: libtest's parallel order differs from run to run, and the two runs are
  // compared byte for byte.
  env: { CARGO_TERM_COLOR: 'never', RUST_TEST_THREADS: '1' },
  history: [
    { message: 'stats: mean, median, stddev, percentile', paths: ['Cargo.toml', '.gitignore', 'src/lib.rs', 'src/stats.rs', 'tests/stats.rs'] },
    { message: 'parse numbers with comments and underscores', paths: ['src/parse.rs', 'tests/parse.rs'] },
    { message: 'histogram and the tally binary', paths: ['src/histogram.rs', 'src/main.rs', 'tests/histogram.rs'] },
    { message: 'README and a latency sample', paths: ['.'] },
  ],
  steps: [
    bash('ls -la', 'List the crate', 'enumeration', { keep: ['Cargo.toml', 'src', 'tests', 'samples'] }),
    bash('git log --oneline -n 10', 'Recent history', 'git', { keep: ['histogram and the tally binary', 'stats: mean, median, stddev, percentile'] }),
    read('Cargo.toml', 'first-read'),
    read('README.md', 'first-read'),
    bash('find src tests -name "*.rs" | sort', 'Rust files', 'enumeration', { keep: ['src/stats.rs', 'tests/histogram.rs'] }),
    read('src/stats.rs', 'first-read'),
    bash('cargo build', 'Build', 'build-lint', { keep: ['warning: unused variable: `unused_total`', /Finished `dev` profile/] }),
    bash('cargo test', 'Run the tests', 'test-fail', { fails: true, keep: ['test every_value_lands_in_a_bucket ... FAILED', 'test result: FAILED. 2 passed; 1 failed', 'error: test failed, to rerun pass `--test histogram`'] }),
    bash('cargo test --no-fail-fast', 'Every test binary, failures and all', 'test-fail', { fails: true, keep: ['test median_case_2 ... FAILED', 'test summary_of_ten ... FAILED', 'test every_value_lands_in_a_bucket ... FAILED', /error: \d+ targets failed/] }),
    read('tests/stats.rs', 'first-read', { offset: 1, limit: 40 }),
    read('src/stats.rs', 're-read', { offset: 10, limit: 12 }),
    edit('src/stats.rs', '    let mid = v.len() / 2;\n    Some(v[mid])', '    let mid = v.len() / 2;\n    if v.len() % 2 == 0 {\n        Some((v[mid - 1] + v[mid]) / 2.0)\n    } else {\n        Some(v[mid])\n    }'),
    read('src/stats.rs', 're-read-after-edit'),
    bash('cargo test --test stats', 'Stats tests only', 'test-pass', { keep: [/test result: ok\. \d+ passed; 0 failed/] }),
    read('src/histogram.rs', 'first-read'),
    edit('src/histogram.rs', '        if idx < buckets {\n            counts[idx] += 1;\n        }', '        counts[idx.min(buckets - 1)] += 1;'),
    bash('cargo test', 'All tests', 'test-pass', { keep: [/test result: ok\. \d+ passed; 0 failed/] }),
    bash('cargo clippy', 'Clippy', 'build-lint', { keep: ['warning: length comparison to zero', 'warning: manual `!RangeInclusive::contains` implementation', 'warning: the loop variable `i` is only used to index `xs`', 'warning: unused variable: `unused_total`', 'src/stats.rs:'] }),
    bash('cargo fmt --check', 'Formatting', 'build-lint', { fails: true, keep: ['Diff in'] }),
    bash('cargo fmt && git diff --stat', 'Format and see what moved', 'chain-wrapped', { producer: 'git', keep: ['src/main.rs'] }),
    read('src/histogram.rs', 're-read-after-edit'),
    edit('src/histogram.rs', '    let unused_total = h.counts.len();\n', ''),
    bash('cargo clean >/dev/null 2>&1 && cargo build --release', 'Clean release build', 'chain-wrapped', { producer: 'build-lint', keep: [/Finished `release` profile/] }),
    bash('./target/release/tally < samples/latency-ms.txt', 'Run on the sample', 'other', { keep: [/^count 400 /m] }),
    bash('timeout 120 cargo test --release', 'Tests in release mode', 'chain-wrapped', { producer: 'test-pass', keep: [/test result: ok\. \d+ passed; 0 failed/] }),
    read('src/stats.rs', 're-read'),
    bash('git status', 'What changed', 'git', { keep: ['modified:   src/stats.rs', 'modified:   src/histogram.rs'] }),
    bash('git diff src/stats.rs src/histogram.rs', 'The fix', 'git', { keep: ['+        Some((v[mid - 1] + v[mid]) / 2.0)', '+        counts[idx.min(buckets - 1)] += 1;'] }),
    bash('git add -A && git commit -q -m "Median of an even count; keep the maximum in the histogram; rustfmt" && git log --oneline -n 3', 'Commit', 'git', { keep: ['Median of an even count; keep the maximum in the histogram; rustfmt'] }),
    bash('git show --stat HEAD', 'The commit', 'git', { keep: ['src/stats.rs', 'src/histogram.rs', 'Author: Dana Reyes <dana@example.org>'] }),
    bash('git log -p -n 3 --stat -- src/', 'History of src/', 'git', { keep: ['parse numbers with comments and underscores', '+        counts[idx.min(buckets - 1)] += 1;'] }),
  ],
};
