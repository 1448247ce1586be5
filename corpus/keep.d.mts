export type KeepStep = { re: string[] } | { lit: string[] } | { gitLog: 'strict' | 'loose' };
export interface Dialect { lines: 'any' | 'lf'; ansi: 'full' | 'csi' | 'sgr' | 'none'; pieces: boolean; alnum: boolean; invalid: 'drop' | 'keep'; order: 'line' | 'pattern'; dedupe?: boolean; strip?: 'blanks' }
export const DIALECTS: Record<string, Dialect>;
export function re(...patterns: string[]): KeepStep;
export function lit(...strings: string[]): KeepStep;
export function gitLog(how?: 'strict' | 'loose'): KeepStep;
export function compile(pattern: string): RegExp;
export function mustKeep(output: Buffer, steps: KeepStep[] | undefined, dialect?: string): string[];
export function mustKeepFile(lines: string[]): string;
export function notInOutput(output: Buffer, lines: string[]): string[];
export const RANGES: Record<string, [number, number]>;
export function idNumber(id: string): number;
export function nextId(range: string, used: Iterable<string | number>): number;
export function caseId(n: number, name: string): string;
