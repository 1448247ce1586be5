import { familySpec, type Family, type Hit } from './runner.js';

/*
 * C/C++ builds (make, gcc/clang, cmake, ninja): compile commands (`gcc … -c x.c -o x.o`),
 * `make[1]: Entering/Leaving directory`, cmake's configure probes (`-- Detecting …`,
 * `-- Check for working …`, `-- Looking for …`, `-- Performing Test …`) and per-object
 * progress (`[ 16%] Building C object …`, `Linking …`, `Scanning dependencies …`, ninja's
 * `[3/9] Building …`) are recognised as progress. Diagnostics with their `file:line:col`,
 * code excerpts and carets, `In function` context, link commands, `Built target`, cmake's
 * `Configuring done`/`Build files have been written`, and every `make: *** … Error` stay.
 */
const COMPILE: Hit = { noun: 'compile commands' };
const DIRECTORY: Hit = { noun: 'make directory lines' };
const PROBE: Hit = { noun: 'configure checks' };
const STEP: Hit = { noun: 'build steps' };

const COMPILE_LINE = /^\s*(\S*\/)?(gcc|g\+\+|cc|c\+\+|clang|clang\+\+)(-\d+)? [^;&|]* -c [^;&|]*$/;
const MAKE_DIR = /^g?make(\[\d+\])?: (Entering|Leaving) directory /;
const CMAKE_PROBE = /^-- (Detecting \S|Check for working |Looking for \S|Performing Test \S|Check if \S|Checking whether \S|Check size of \S)/;
const CMAKE_STEP = /^(\[\s*\d+%\] (Building|Linking) \S|Scanning dependencies of target \S|\[\d+\/\d+\] (Building|Linking) \S)/;

export const CC_FAMILY: Family = {
  name: 'cc',
  detect: (p) => MAKE_DIR.test(p) || CMAKE_STEP.test(p) || /^-- (Configuring done|Build files have been written)/.test(p),
  recogniser: () => ({
    see: (_l, p) =>
      COMPILE_LINE.test(p) ? COMPILE : MAKE_DIR.test(p) ? DIRECTORY : CMAKE_PROBE.test(p) ? PROBE : CMAKE_STEP.test(p) ? STEP : null,
  }),
};

export const CC = familySpec(CC_FAMILY, 'build', ['make', 'gmake', 'cmake', 'ninja', 'gcc', 'g++', 'cc', 'c++', 'clang', 'clang++']);
