/**
 * Lines that state a failure without the words the first FAILURE patterns know (error, fail,
 * fatal…): a process killed, memory exhausted, git refusing, the network refusing or timing
 * out, a runtime crash. Written from what the tools print; classify must call each a failure,
 * so no built-in distiller folds one and no rule hides one.
 */
export const FAILURE_VOCABULARY = [
  'Killed',
  '/bin/sh: line 1:  4242 Killed                  node build.js',
  'make: *** [Makefile:3: all] Killed',
  'Out of memory: Killed process 1234 (node) total-vm:4194304kB, anon-rss:2097152kB',
  'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory',
  'runtime: out of memory: cannot allocate 1073741824-byte block',
  '    Reason:       OOMKilled',
  'CONFLICT (content): Merge conflict in lib/app.ts',
  'CONFLICT (modify/delete): lib/old.ts deleted in HEAD and modified in feature.',
  ' ! [rejected]        main -> main (fetch first)',
  ' ! [remote rejected] main -> main (pre-receive hook declined)',
  'Error: connect ECONNREFUSED 127.0.0.1:5432',
  'connect ECONNREFUSED 127.0.0.1:5432',
  'getaddrinfo ENOTFOUND registry.npmjs.org',
  'read ECONNRESET',
  'ETIMEDOUT',
  'curl: (7) Failed to connect to localhost port 8080 after 0 ms: Connection refused',
  'ssh: connect to host example.com port 22: Connection timed out',
  'psql: could not connect to server: Connection refused',
  'Timed out waiting for the server to start',
  'Request timed out after 30000 ms',
  'context deadline exceeded',
  'Unhandled promise rejection: TypeError: cannot read x',
  '(node:4242) UnhandledPromiseRejectionWarning: boom',
  'Segmentation fault (core dumped)',
  'Aborted (core dumped)',
  'Bus error',
  'Illegal instruction (core dumped)',
  'Command was killed by signal 9',
  'qemu: process terminated by signal SIGKILL',
  "thread 'main' has overflowed its stack",
  '17/17 Test #13: slow_network .....................***Timeout   1.00 sec',
];

/** Lines that only look like one of them: a built-in distiller may still fold these. */
export const NOT_FAILURES = [
  '1: Test timeout computed to be: 10000000',
  '  ✓ retries after a timeout (5 ms)',
  'root          33       2  0.0  0.0      0     0 ?        S    23:02   0:00 [oom_reaper]',
  '2026/12/01 07:30:02.688668 main.go:23: shutting down: signal: terminated',
  'node_modules/mocha/node_modules/signal-exit/dist/cjs/index.js',
  'checking whether strsignal is declared without a macro... yes',
  'const timer = setTimeout(() => {}, 60000)',
  'Downloading conflict-resolver-1.2.0.tgz',
  'Connection established to 127.0.0.1:5432',
];
