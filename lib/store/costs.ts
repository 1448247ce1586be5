/**
 * omni's own cost: bytes omni adds to what the model reads, netted against the saving by
 * `omni stats`. Today one kind: `mcp-tools`, the definitions of omni's MCP tools, which ride on
 * every model request of a session where the server offers them (one row per request seen,
 * lib/mcp/offer-cost.ts). A default install offers none, so it records nothing.
 */
import type { Store } from './open.js';

export interface CostRow {
  at?: number;
  session?: string | null;
  what: string;
  requests: number;
  bytes: number;
}

/** Records one cost. One INSERT. */
export function recordCost(store: Store, r: CostRow): void {
  store.stmt('INSERT INTO costs(at, session, what, requests, bytes) VALUES (?, ?, ?, ?, ?)').run(r.at ?? Date.now(), r.session ?? null, r.what, r.requests, r.bytes);
}

export interface CostTotals {
  /** Model requests that carried the cost. */
  requests: number;
  bytes: number;
}

/** Totals since `since` (ms epoch). */
export function costSummary(store: Store, a: { since: number }): CostTotals {
  return store.stmt('SELECT coalesce(sum(requests), 0) AS requests, coalesce(sum(bytes), 0) AS bytes FROM costs WHERE at >= ?').get(a.since) as CostTotals;
}
