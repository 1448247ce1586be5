/**
 * Milliseconds from a monotonic clock. The global `performance` loads eight perf_hooks
 * modules on first touch, a cost every hook call would pay for two subtractions.
 */
export const monotonicMs = (): number => Number(process.hrtime.bigint()) / 1e6;
