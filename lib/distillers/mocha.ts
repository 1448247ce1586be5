import { checkmarkFamily, familySpec } from './runner.js';

/*
 * mocha (spec reporter): `  ✔ name` lines are passing tests. Suite headings, pending
 * `- name` tests, numbered failures `1) name`, the `N passing` / `N failing` verdict and
 * the failure details at the end all stay.
 */
export const MOCHA_FAMILY = checkmarkFamily('mocha', /^> mocha(\s|$)|^\s+\d+ passing \(\d/);
export const MOCHA = familySpec(MOCHA_FAMILY, 'test', ['mocha']);
