import type { DistillerSpec } from '../kit/spec.js';
import { NOTHING } from './hide.js';
import { programOf } from './shared.js';

/*
 * Reads (`cat`, `head`, `tail`, `sed -n`, `bat`): a file's contents are the answer, so they
 * pass unchanged (render still prints them without ANSI colour). A log file's read is logs.ts's
 * (the registry's COLLISIONS say so).
 */
const READERS = new Set(['cat', 'head', 'tail', 'bat', 'batcat', 'less', 'more', 'nl']);

/** The example's output, a file's contents are the answer: they come back as they were. */
const UNCHANGED = `/*!
 * express
 * Copyright(c) 2009-2013 TJ Holowaychuk
 * Copyright(c) 2013 Roman Shtylman
 * Copyright(c) 2014-2015 Douglas Christopher Wilson
 * MIT Licensed
 */

'use strict';

/**
 * Module dependencies.
`;

export default {
  name: 'read',
  family: 'read',
  matches: (argv) => READERS.has(programOf(argv)) || (programOf(argv) === 'sed' && argv.includes('-n')),
  answer: true,
  lines: () => NOTHING,
  examples: [
    // corpus/cases/725-cat-source, lines 1-12
    {
      command: 'cat node_modules/express/lib/router/route.js',
      input: UNCHANGED,
      output: UNCHANGED,
    },
  ],
} satisfies DistillerSpec;
