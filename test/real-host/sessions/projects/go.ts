/**
 * HELD-OUT session: nobody tunes a distiller against it.
 *
 * A Go module (no dependencies, builds offline): `shortlink`, a link shortener's base62 codec
 * and expiring in-memory store, with a Makefile. Two bugs are committed (an expired link is
 * still served; base62 decodes "0" wrongly), and `go vet` finds a Printf mistake.
 */
import { bash, edit, read, type Session } from '../session.js';

const CODEC = `// Package codec turns numeric ids into short base62 strings and back.
package codec

import (
	"errors"
	"strings"
)

const alphabet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

// ErrInvalid is returned for a string with a character outside the alphabet.
var ErrInvalid = errors.New("codec: invalid character")

// Encode returns the base62 form of n.
func Encode(n uint64) string {
	if n == 0 {
		return "0"
	}
	var b strings.Builder
	var digits []byte
	for n > 0 {
		digits = append(digits, alphabet[n%62])
		n /= 62
	}
	for i := len(digits) - 1; i >= 0; i-- {
		b.WriteByte(digits[i])
	}
	return b.String()
}

// Decode parses a base62 string.
func Decode(s string) (uint64, error) {
	if s == "" {
		return 0, ErrInvalid
	}
	var n uint64
	for i := 0; i < len(s); i++ {
		d := strings.IndexByte(alphabet, s[i])
		if d <= 0 {
			return 0, ErrInvalid
		}
		n = n*62 + uint64(d)
	}
	return n, nil
}
`;

function codecTest(): string {
  const ids = [0, 1, 9, 10, 35, 36, 61, 62, 63, 3843, 3844, 238327, 916132831, 56800235583];
  const enc = (n: number): string => {
    const a = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
    if (n === 0) return '0';
    let s = '';
    while (n > 0) {
      s = a[n % 62] + s;
      n = Math.floor(n / 62);
    }
    return s;
  };
  return `package codec

import "testing"

func TestRoundTrip(t *testing.T) {
	cases := []struct {
		id   uint64
		text string
	}{
${ids.map((id) => `		{${id}, "${enc(id)}"},`).join('\n')}
	}
	for _, c := range cases {
		c := c
		t.Run(c.text, func(t *testing.T) {
			if got := Encode(c.id); got != c.text {
				t.Fatalf("Encode(%d) = %q, want %q", c.id, got, c.text)
			}
			got, err := Decode(c.text)
			if err != nil || got != c.id {
				t.Fatalf("Decode(%q) = %d, %v; want %d", c.text, got, err, c.id)
			}
		})
	}
}

func TestDecodeRejects(t *testing.T) {
	for _, s := range []string{"", "-", "abc!", "é"} {
		if _, err := Decode(s); err != ErrInvalid {
			t.Errorf("Decode(%q): err = %v, want ErrInvalid", s, err)
		}
	}
}
`;
}

const STORE = `// Package store keeps short links in memory, each with an expiry time.
package store

import (
	"errors"
	"sync"
	"time"
)

// ErrNotFound is returned for an unknown or expired code.
var ErrNotFound = errors.New("store: not found")

// Link is one short link.
type Link struct {
	Code      string
	Target    string
	ExpiresAt time.Time
	Hits      int
}

// MemStore is safe for concurrent use.
type MemStore struct {
	mu    sync.Mutex
	links map[string]*Link
	now   func() time.Time
}

// New returns an empty store; now is the clock (time.Now in production).
func New(now func() time.Time) *MemStore {
	return &MemStore{links: map[string]*Link{}, now: now}
}

// Put stores a link that lives for ttl.
func (s *MemStore) Put(code, target string, ttl time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.links[code] = &Link{Code: code, Target: target, ExpiresAt: s.now().Add(ttl)}
}

// Resolve returns the target of a live link and counts the hit.
func (s *MemStore) Resolve(code string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l, ok := s.links[code]
	if !ok || l.ExpiresAt.After(s.now().Add(-24*time.Hour)) == false {
		return "", ErrNotFound
	}
	l.Hits++
	return l.Target, nil
}

// Sweep removes expired links and says how many went.
func (s *MemStore) Sweep() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for code, l := range s.links {
		if !l.ExpiresAt.After(s.now()) {
			delete(s.links, code)
			n++
		}
	}
	return n
}

// Len is the number of links held, expired or not.
func (s *MemStore) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.links)
}
`;

const STORE_TEST = `package store

import (
	"testing"
	"time"
)

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func newStore() (*MemStore, *clock) {
	c := &clock{t: time.Date(2026, 11, 19, 8, 0, 0, 0, time.UTC)}
	return New(c.now), c
}

func TestResolveLive(t *testing.T) {
	s, _ := newStore()
	s.Put("a1", "https://example.org/docs", time.Hour)
	got, err := s.Resolve("a1")
	if err != nil || got != "https://example.org/docs" {
		t.Fatalf("Resolve = %q, %v", got, err)
	}
}

func TestResolveUnknown(t *testing.T) {
	s, _ := newStore()
	if _, err := s.Resolve("nope"); err != ErrNotFound {
		t.Fatalf("err = %v, want ErrNotFound", err)
	}
}

func TestResolveExpired(t *testing.T) {
	s, c := newStore()
	s.Put("old", "https://example.org/old", time.Hour)
	c.t = c.t.Add(2 * time.Hour)
	if got, err := s.Resolve("old"); err != ErrNotFound {
		t.Fatalf("an expired link was served: %q, %v", got, err)
	}
}

func TestSweep(t *testing.T) {
	s, c := newStore()
	s.Put("a", "x", time.Minute)
	s.Put("b", "y", time.Hour)
	c.t = c.t.Add(10 * time.Minute)
	if n := s.Sweep(); n != 1 {
		t.Fatalf("Sweep removed %d, want 1", n)
	}
	if s.Len() != 1 {
		t.Fatalf("Len = %d, want 1", s.Len())
	}
}

func TestHitsCounted(t *testing.T) {
	s, _ := newStore()
	s.Put("h", "z", time.Hour)
	for i := 0; i < 3; i++ {
		if _, err := s.Resolve("h"); err != nil {
			t.Fatal(err)
		}
	}
	if s.links["h"].Hits != 3 {
		t.Fatalf("Hits = %d", s.links["h"].Hits)
	}
}
`;

const MAIN = `package main

import (
	"fmt"
	"os"
	"time"

	"example.com/shortlink/internal/codec"
	"example.com/shortlink/internal/store"
)

func main() {
	s := store.New(time.Now)
	for i, target := range os.Args[1:] {
		code := codec.Encode(uint64(1000 + i))
		s.Put(code, target, 24*time.Hour)
		fmt.Printf("%s -> %s\\n", code)
	}
	fmt.Fprintf(os.Stderr, "%d links\\n", s.Len())
}
`;

function serviceLog(): string {
  const out: string[] = [];
  for (let i = 0; i < 150; i++) {
    const m = String(Math.floor(i / 6)).padStart(2, '0');
    const s = String((i * 7) % 60).padStart(2, '0');
    const code = ['g8', 'g9', 'ga', 'old1', 'q2'][i % 5];
    out.push(`2026/11/19 09:${m}:${s} GET /${code} 302 ${120 + (i * 13) % 400}µs`);
    if (code === 'old1') out.push(`2026/11/19 09:${m}:${s} WARN served expired link old1 (expired 2026-11-18 09:00:00)`);
  }
  out.push('2026/11/19 09:25:00 sweep: 0 links removed, 412 held');
  return out.join('\n') + '\n';
}

export function goFiles(): Record<string, string> {
  return {
    'go.mod': 'module example.com/shortlink\n\ngo 1.19\n',
    '.gitignore': '/bin/\n',
    'README.md': `# shortlink

A link shortener's core: base62 codes (\`internal/codec\`) and an in-memory store whose links
expire (\`internal/store\`). \`cmd/shortlink\` prints codes for the URLs it is given.

    make          # vet, then build bin/shortlink
    make test

An expired link is never served: Resolve answers ErrNotFound from the moment it expires.
`,
    Makefile: `.PHONY: all build test vet clean

all: vet build

build:
\tgo build -o bin/shortlink ./cmd/shortlink

vet:
\tgo vet ./...

test:
\tgo test ./...

clean:
\trm -rf bin
\tgo clean -testcache
`,
    'internal/codec/codec.go': CODEC,
    'internal/codec/codec_test.go': codecTest(),
    'internal/store/memstore.go': STORE,
    'internal/store/memstore_test.go': STORE_TEST,
    'cmd/shortlink/main.go': MAIN,
    'logs/shortlink-2026-11-19.log': serviceLog(),
  };
}

export const goSession: Session = {
  name: 'go-module',
  ecosystem: 'Go module: go build/vet/test, gofmt, make',
  set: 'held-out',
  needs: ['go', 'make', 'git'],
  files: goFiles,
  env: { GOFLAGS: '-mod=mod', GOPROXY: 'off', GOTOOLCHAIN: 'local', CGO_ENABLED: '0' },
  history: [
    { message: 'codec: base62 ids', paths: ['go.mod', '.gitignore', 'internal/codec/codec.go', 'internal/codec/codec_test.go'] },
    { message: 'store: links expire', paths: ['internal/store/memstore.go', 'internal/store/memstore_test.go'] },
    { message: 'cmd/shortlink, Makefile, README', paths: ['.'] },
  ],
  steps: [
    bash('ls -la', 'List the module', 'enumeration', { keep: ['go.mod', 'Makefile', 'internal', 'cmd', 'logs'] }),
    bash('git log --oneline -n 10', 'Recent history', 'git', { keep: ['store: links expire', 'codec: base62 ids'] }),
    bash("find . -name '*.go' | sort", 'Go files', 'enumeration', { keep: ['./internal/store/memstore.go', './cmd/shortlink/main.go'] }),
    read('go.mod', 'first-read'),
    read('README.md', 'first-read'),
    read('internal/store/memstore.go', 'first-read'),
    bash('go build ./...', 'Build', 'build-lint'),
    bash('go vet ./...', 'Vet', 'build-lint', { fails: true, keep: ['cmd/shortlink/main.go:17:3: fmt.Printf format %s reads arg #2, but call has 1 arg'] }),
    bash('go test ./...', 'Run the tests', 'test-fail', { fails: true, keep: ['--- FAIL: TestResolveExpired', '--- FAIL: TestRoundTrip/0', 'FAIL\texample.com/shortlink/internal/store', 'FAIL\texample.com/shortlink/internal/codec'] }),
    read('internal/store/memstore_test.go', 'first-read'),
    read('internal/store/memstore.go', 're-read', { offset: 40, limit: 14 }),
    edit('internal/store/memstore.go', 'if !ok || l.ExpiresAt.After(s.now().Add(-24*time.Hour)) == false {', 'if !ok || !l.ExpiresAt.After(s.now()) {'),
    read('internal/store/memstore.go', 're-read-after-edit'),
    bash('go test ./internal/store/', 'Store tests only', 'test-pass', { keep: ['ok  \texample.com/shortlink/internal/store'] }),
    bash('go test -v ./...', 'All tests, verbose', 'test-fail', { fails: true, keep: ['--- FAIL: TestRoundTrip/0', '--- PASS: TestResolveExpired', 'FAIL\texample.com/shortlink/internal/codec'] }),
    read('internal/codec/codec.go', 'first-read'),
    edit('internal/codec/codec.go', '		if d <= 0 {', '		if d < 0 {'),
    bash('go test -v ./...', 'All tests again', 'test-pass', { keep: ['ok  \texample.com/shortlink/internal/codec', 'ok  \texample.com/shortlink/internal/store'] }),
    read('cmd/shortlink/main.go', 'first-read'),
    edit('cmd/shortlink/main.go', 'fmt.Printf("%s -> %s\\n", code)', 'fmt.Printf("%s -> %s\\n", code, target)'),
    bash('go vet ./...', 'Vet again', 'build-lint'),
    bash('make test', 'Tests through make', 'chain-wrapped', { producer: 'test-pass', keep: ['ok  \texample.com/shortlink/internal/store'] }),
    bash('make clean >/dev/null && make', 'Clean build', 'chain-wrapped', { producer: 'build-lint', keep: ['go build -o bin/shortlink ./cmd/shortlink'] }),
    bash('timeout 60 go test -count=1 -v ./internal/...', 'Uncached verbose run', 'chain-wrapped', { producer: 'test-pass', keep: ['ok  \texample.com/shortlink/internal/codec'] }),
    bash('./bin/shortlink https://example.org/a https://example.org/b', 'Try the binary', 'other', { keep: ['g8 -> https://example.org/a', '2 links'] }),
    bash('gofmt -l .', 'Unformatted files', 'enumeration'),
    bash('tail -n 50 logs/shortlink-2026-11-19.log', 'End of the service log', 'log', { keep: ['WARN served expired link old1', 'sweep: 0 links removed, 412 held'] }),
    read('internal/store/memstore.go', 're-read'),
    bash('git status', 'What changed', 'git', { keep: ['modified:   internal/store/memstore.go', 'modified:   internal/codec/codec.go', 'modified:   cmd/shortlink/main.go'] }),
    bash('git diff', 'The fix', 'git', { keep: ['+	if !ok || !l.ExpiresAt.After(s.now()) {', '+		if d < 0 {', '+		fmt.Printf("%s -> %s\\n", code, target)'] }),
    bash('git add -A && git commit -q -m "Never serve an expired link; decode 0; vet" && git log --stat -n 2', 'Commit', 'git', { keep: ['Never serve an expired link; decode 0; vet', 'internal/store/memstore.go', 'cmd/shortlink, Makefile, README'] }),
  ],
};
