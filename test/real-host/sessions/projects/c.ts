/**
 * HELD-OUT session: nobody tunes a distiller against it.
 *
 * A C library built by make (no dependencies, builds offline): `ringkit`, a fixed-size ring
 * buffer and a CSV line splitter, with a small test harness of its own (`PASS`/`FAIL` lines and a
 * count) and a service's syslog. Two bugs are committed (the ring buffer's read index wraps one
 * slot early; the splitter takes `'` for the quote character), and `-Wall -Wextra` warns three
 * times on a successful build.
 */
import { bash, edit, read, type Session } from '../session.js';

const RINGBUF_H = String.raw`#ifndef RINGBUF_H
#define RINGBUF_H

#include <stddef.h>
#include <stdio.h>

/* A fixed-capacity FIFO of ints. Pushing onto a full buffer fails; nothing is overwritten. */
struct ringbuf {
	int *data;
	size_t cap;
	size_t head; /* next slot to write */
	size_t tail; /* next slot to read */
	size_t len;
};

struct ringbuf *rb_new(size_t cap);
void rb_free(struct ringbuf *rb);
int rb_push(struct ringbuf *rb, int v);
int rb_pop(struct ringbuf *rb, int *out);
size_t rb_len(const struct ringbuf *rb);
void rb_debug(const struct ringbuf *rb, FILE *out, int verbose);

#endif
`;

const RINGBUF_C = String.raw`#include <stdlib.h>
#include "ringbuf.h"

struct ringbuf *rb_new(size_t cap)
{
	struct ringbuf *rb = calloc(1, sizeof *rb);
	if (!rb)
		return NULL;
	rb->data = calloc(cap, sizeof *rb->data);
	if (!rb->data) {
		free(rb);
		return NULL;
	}
	rb->cap = cap;
	return rb;
}

void rb_free(struct ringbuf *rb)
{
	if (!rb)
		return;
	free(rb->data);
	free(rb);
}

int rb_push(struct ringbuf *rb, int v)
{
	if (rb->len == rb->cap)
		return -1;
	rb->data[rb->head] = v;
	rb->head = (rb->head + 1) % rb->cap;
	rb->len++;
	return 0;
}

int rb_pop(struct ringbuf *rb, int *out)
{
	if (rb->len == 0)
		return -1;
	*out = rb->data[rb->tail];
	rb->tail = (rb->tail + 1) % (rb->cap - 1);
	rb->len--;
	return 0;
}

size_t rb_len(const struct ringbuf *rb)
{
	return rb->len;
}

void rb_debug(const struct ringbuf *rb, FILE *out, int verbose)
{
	fprintf(out, "ringbuf cap=%zu len=%zu head=%zu tail=%zu\n", rb->cap, rb->len, rb->head, rb->tail);
}
`;

const CSV_H = String.raw`#ifndef CSV_H
#define CSV_H

#include <stddef.h>

#define CSV_MAX_FIELDS 16

/*
 * Splits one CSV line in place into at most CSV_MAX_FIELDS fields. A field in double quotes may
 * hold commas; the quotes are removed. Returns the number of fields, or -1 when there are more.
 */
int csv_split(char *line, char **fields);

#endif
`;

const CSV_C = String.raw`#include <string.h>
#include "csv.h"

int csv_split(char *line, char **fields)
{
	int n = 0;
	int in_quotes = 0;
	size_t len = strlen(line);
	char *start = line;

	for (int i = 0; i <= len; i++) {
		char c = line[i];
		if (c == '\'') {
			in_quotes = !in_quotes;
			continue;
		}
		if ((c == ',' && !in_quotes) || c == '\0') {
			if (n == CSV_MAX_FIELDS)
				return -1;
			line[i] = '\0';
			if (*start == '"' && i > 0 && line[i - 1] == '"') {
				start++;
				line[i - 1] = '\0';
			}
			fields[n++] = start;
			start = line + i + 1;
		}
	}
	return n;
}
`;

const CHECK_H = String.raw`#ifndef CHECK_H
#define CHECK_H

#include <stdio.h>
#include <string.h>

extern int check_verbose, check_passed, check_failed;

#define CHECK_INT(name, want, got) do { \
	long w_ = (long)(want), g_ = (long)(got); \
	if (w_ == g_) { check_passed++; if (check_verbose) printf("  PASS %s\n", name); } \
	else { check_failed++; printf("  FAIL %s (%s:%d): expected %ld, got %ld\n", name, __FILE__, __LINE__, w_, g_); } \
} while (0)

#define CHECK_STR(name, want, got) do { \
	const char *w_ = (want), *g_ = (got); \
	if (g_ && strcmp(w_, g_) == 0) { check_passed++; if (check_verbose) printf("  PASS %s\n", name); } \
	else { check_failed++; printf("  FAIL %s (%s:%d): expected \"%s\", got \"%s\"\n", name, __FILE__, __LINE__, w_, g_ ? g_ : "(null)"); } \
} while (0)

#endif
`;

const TEST_RINGBUF = String.raw`#include <stdio.h>
#include "check.h"
#include "../src/ringbuf.h"

void test_ringbuf(void)
{
	char name[64];
	struct ringbuf *rb = rb_new(4);
	int v = 0;

	printf("ringbuf\n");
	CHECK_INT("rb_new_is_empty", 0, rb_len(rb));
	CHECK_INT("rb_pop_empty_fails", -1, rb_pop(rb, &v));
	for (int i = 1; i <= 4; i++) {
		snprintf(name, sizeof name, "rb_push_%d", i);
		CHECK_INT(name, 0, rb_push(rb, i));
	}
	CHECK_INT("rb_push_full_fails", -1, rb_push(rb, 99));
	CHECK_INT("rb_len_full", 4, rb_len(rb));
	for (int i = 1; i <= 2; i++) {
		snprintf(name, sizeof name, "rb_pop_%d", i);
		CHECK_INT(name, 0, rb_pop(rb, &v));
		CHECK_INT(name, i, v);
	}
	/* Wrap around: two more in, then everything out in order. */
	CHECK_INT("rb_push_after_pop_5", 0, rb_push(rb, 5));
	CHECK_INT("rb_push_after_pop_6", 0, rb_push(rb, 6));
	for (int want = 3; want <= 6; want++) {
		snprintf(name, sizeof name, "rb_pop_after_wrap_%d", want);
		rb_pop(rb, &v);
		CHECK_INT(name, want, v);
	}
	CHECK_INT("rb_len_drained", 0, rb_len(rb));
	rb_free(rb);
}
`;

const TEST_CSV = String.raw`#include <stdio.h>
#include <string.h>
#include "check.h"
#include "../src/csv.h"

static const struct {
	const char *line;
	int count;
	const char *last;
} cases[] = {
	{ "a", 1, "a" },
	{ "a,b", 2, "b" },
	{ "a,b,c", 3, "c" },
	{ "", 1, "" },
	{ "a,,c", 3, "c" },
	{ ",", 2, "" },
	{ "id,name,amount", 3, "amount" },
	{ "7,widget,12.50", 3, "12.50" },
	{ "8,\"bolt, M6\",0.20", 3, "0.20" },
	{ "9,\"nut, M6\",\"0,10\"", 3, "0,10" },
	{ "\"quoted\"", 1, "quoted" },
	{ "x,y,z,w,v,u", 6, "u" },
	{ "2026-11-19,ringd,started", 3, "started" },
	{ "1,2,3,4,5,6,7,8", 8, "8" },
	{ "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16", 16, "16" },
	{ "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17", -1, NULL },
};

void test_csv(void)
{
	char buf[256], name[64];
	char *fields[CSV_MAX_FIELDS];
	int unused_count;

	printf("csv\n");
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		strcpy(buf, cases[i].line);
		int n = csv_split(buf, fields);
		snprintf(name, sizeof name, "csv_split_count[%zu]", i);
		CHECK_INT(name, cases[i].count, n);
		if (cases[i].last && n > 0) {
			snprintf(name, sizeof name, "csv_split_last[%zu]", i);
			CHECK_STR(name, cases[i].last, fields[n - 1]);
		}
	}
}
`;

const TEST_MAIN = String.raw`#include <stdio.h>
#include <string.h>
#include "check.h"

int check_verbose, check_passed, check_failed;

void test_ringbuf(void);
void test_csv(void);

int main(int argc, char **argv)
{
	check_verbose = argc > 1 && strcmp(argv[1], "-v") == 0;
	test_ringbuf();
	test_csv();
	printf("%d passed, %d failed\n", check_passed, check_failed);
	return check_failed ? 1 : 0;
}
`;

const MAKEFILE = String.raw`CC ?= cc
CFLAGS ?= -Wall -Wextra -O2 -g
BUILD := build

LIB_OBJS := $(BUILD)/ringbuf.o $(BUILD)/csv.o
TEST_OBJS := $(BUILD)/main.o $(BUILD)/test_ringbuf.o $(BUILD)/test_csv.o

.PHONY: all test clean

all: $(BUILD)/libring.a $(BUILD)/run_tests

$(BUILD):
	mkdir -p $(BUILD)

$(BUILD)/%.o: src/%.c | $(BUILD)
	$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/%.o: tests/%.c | $(BUILD)
	$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/libring.a: $(LIB_OBJS)
	ar rcs $@ $^

$(BUILD)/run_tests: $(TEST_OBJS) $(BUILD)/libring.a
	$(CC) $(CFLAGS) -o $@ $(TEST_OBJS) $(BUILD)/libring.a

test: $(BUILD)/run_tests
	./$(BUILD)/run_tests

clean:
	rm -rf $(BUILD)
`;

const README = `# ringkit

Two small C pieces used by the ringd collector: a fixed-capacity ring buffer of ints
(\`src/ringbuf.c\`: pushing onto a full buffer fails, nothing is overwritten) and a CSV line
splitter (\`src/csv.c\`: a field in double quotes may hold commas).

    make          # build/libring.a and the test runner
    make test     # run the tests (./build/run_tests -v lists every check)

The collector's log for the 19th is in logs/ringd.log.
`;

/** The collector's syslog for one morning: connections, flushes, and the overflow it reported. */
function ringdLog(): string {
  const out: string[] = [];
  for (let i = 0; i < 160; i++) {
    const m = String(Math.floor(i / 8)).padStart(2, '0');
    const s = String((i * 7) % 60).padStart(2, '0');
    const pid = 2211;
    const fd = 7 + (i % 5);
    out.push(`Nov 19 09:${m}:${s} collector01 ringd[${pid}]: accepted connection from 10.0.3.${10 + (i % 9)}:${51000 + i * 3} (fd ${fd})`);
    if (i % 4 === 3) out.push(`Nov 19 09:${m}:${s} collector01 ringd[${pid}]: flushed ${40 + (i % 13)} records to spool/batch-${String(i).padStart(4, '0')}.csv`);
    if (i === 97 || i === 131) out.push(`Nov 19 09:${m}:${s} collector01 ringd[${pid}]: warning: ring buffer full, dropped ${i === 97 ? 3 : 11} records from 10.0.3.${10 + (i % 9)}`);
  }
  out.push('Nov 19 09:20:00 collector01 ringd[2211]: shutting down: 160 connections, 14 records dropped');
  return out.join('\n') + '\n';
}

export function cFiles(): Record<string, string> {
  return {
    'README.md': README,
    '.gitignore': 'build/\n',
    Makefile: MAKEFILE,
    'src/ringbuf.h': RINGBUF_H,
    'src/ringbuf.c': RINGBUF_C,
    'src/csv.h': CSV_H,
    'src/csv.c': CSV_C,
    'tests/check.h': CHECK_H,
    'tests/main.c': TEST_MAIN,
    'tests/test_ringbuf.c': TEST_RINGBUF,
    'tests/test_csv.c': TEST_CSV,
    'logs/ringd.log': ringdLog(),
  };
}

export const cSession: Session = {
  name: 'c-make',
  ecosystem: 'C with make: gcc -Wall -Wextra, a home-made test runner, valgrind, syslog',
  set: 'held-out',
  needs: ['cc', 'make', 'ar', 'valgrind', 'git'],
  files: cFiles,
  env: { LC_ALL: 'C.UTF-8' },
  history: [
    { message: 'ringbuf: a fixed-size FIFO of ints', paths: ['.gitignore', 'src/ringbuf.h', 'src/ringbuf.c', 'tests/check.h', 'tests/test_ringbuf.c'] },
    { message: 'csv: split a line, quoted fields may hold commas', paths: ['src/csv.h', 'src/csv.c', 'tests/test_csv.c'] },
    { message: 'Makefile, test runner, README; keep the collector log of the 19th', paths: ['.'] },
  ],
  steps: [
    bash('ls -la', 'List the project', 'enumeration', { keep: ['Makefile', 'README.md', 'src', 'tests', 'logs'] }),
    bash('git log --oneline -n 10', 'Recent history', 'git', { keep: ['ringbuf: a fixed-size FIFO of ints', 'csv: split a line, quoted fields may hold commas'] }),
    bash("find . -name '*.[ch]' -not -path './build/*' | sort", 'C files', 'enumeration', { keep: ['./src/ringbuf.c', './src/csv.c', './tests/main.c', './tests/check.h'] }),
    read('README.md', 'first-read'),
    read('Makefile', 'first-read'),
    bash('make', 'Build', 'build-lint', { keep: ["src/ringbuf.c:51:56: warning: unused parameter ‘verbose’ [-Wunused-parameter]", 'src/csv.c:11:27: warning: comparison of integer expressions of different signedness', "tests/test_csv.c:33:13: warning: unused variable ‘unused_count’ [-Wunused-variable]", 'ar rcs build/libring.a build/ringbuf.o build/csv.o'] }),
    bash('make test', 'Run the tests', 'test-fail', { fails: true, keep: ['FAIL rb_pop_after_wrap_4 (tests/test_ringbuf.c:31): expected 4, got 5', 'FAIL csv_split_count[8] (tests/test_csv.c:40): expected 3, got 4', '44 passed, 6 failed', 'make: *** [Makefile:28: test] Error 1'] }),
    read('src/ringbuf.c', 'first-read'),
    read('tests/test_ringbuf.c', 'first-read'),
    read('src/ringbuf.c', 're-read', { offset: 35, limit: 10 }),
    edit('src/ringbuf.c', 'rb->tail = (rb->tail + 1) % (rb->cap - 1);', 'rb->tail = (rb->tail + 1) % rb->cap;'),
    read('src/ringbuf.c', 're-read-after-edit'),
    bash('make test', 'Run the tests again', 'test-fail', { fails: true, keep: ['FAIL csv_split_count[9] (tests/test_csv.c:40): expected 3, got 5', '47 passed, 3 failed'] }),
    read('src/csv.c', 'first-read'),
    bash('grep -n "quote" src/csv.c src/csv.h', 'Where quotes are handled', 'enumeration', { keep: ['src/csv.c:7:\tint in_quotes = 0;'] }),
    edit('src/csv.c', "if (c == '\\'') {", "if (c == '\"') {"),
    bash('./build/run_tests -v', 'Every check, verbose (stale binary)', 'test-fail', { fails: true, keep: ['PASS rb_pop_after_wrap_6', 'FAIL csv_split_count[8]'] }),
    bash('make && ./build/run_tests -v', 'Rebuild, every check', 'chain-wrapped', { producer: 'test-pass', keep: ['PASS csv_split_last[9]', 'PASS rb_len_drained', '50 passed, 0 failed'] }),
    bash('make test', 'The suite as CI runs it', 'chain-wrapped', { producer: 'test-pass', keep: ['50 passed, 0 failed'] }),
    bash('valgrind --leak-check=full ./build/run_tests', 'Leak check', 'test-pass', { keep: ['50 passed, 0 failed', 'All heap blocks were freed -- no leaks are possible', 'ERROR SUMMARY: 0 errors from 0 contexts'] }),
    read('tests/test_csv.c', 'first-read'),
    edit('tests/test_csv.c', '\tchar *fields[CSV_MAX_FIELDS];\n\tint unused_count;\n', '\tchar *fields[CSV_MAX_FIELDS];\n'),
    edit('src/csv.c', 'for (int i = 0; i <= len; i++) {', 'for (size_t i = 0; i <= len; i++) {'),
    bash('make clean >/dev/null && make', 'Clean build', 'chain-wrapped', { producer: 'build-lint', keep: ["src/ringbuf.c:51:56: warning: unused parameter ‘verbose’ [-Wunused-parameter]", 'cc -Wall -Wextra -O2 -g -o build/run_tests'] }),
    read('src/csv.c', 're-read-after-edit'),
    bash('tail -n 60 logs/ringd.log', 'End of the collector log', 'log', { keep: ['warning: ring buffer full, dropped 11 records', 'shutting down: 160 connections, 14 records dropped'] }),
    bash('grep -n "dropped" logs/ringd.log', 'Every drop', 'enumeration', { keep: ['dropped 3 records', 'dropped 11 records'] }),
    read('src/ringbuf.c', 're-read'),
    bash('git status', 'What changed', 'git', { keep: ['modified:   src/ringbuf.c', 'modified:   src/csv.c', 'modified:   tests/test_csv.c'] }),
    bash('git diff', 'The fix', 'git', { keep: ['+\trb->tail = (rb->tail + 1) % rb->cap;', "+\t\tif (c == '\"') {", '+\tfor (size_t i = 0; i <= len; i++) {'] }),
    bash('git add -A && git commit -q -m "ringbuf: wrap the read index at cap; csv: double quotes; warnings" && git log --oneline -n 3', 'Commit', 'git', { keep: ['ringbuf: wrap the read index at cap; csv: double quotes; warnings'] }),
    bash('git show HEAD', 'The commit', 'git', { keep: ['ringbuf: wrap the read index at cap; csv: double quotes; warnings', 'diff --git a/src/csv.c b/src/csv.c'] }),
    bash('timeout 60 ./build/run_tests', 'Quiet run', 'chain-wrapped', { producer: 'test-pass', keep: ['50 passed, 0 failed'] }),
  ],
};
