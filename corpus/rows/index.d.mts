import type { KeepStep } from '../keep.mjs';
export interface Row {
  id: string; kind: string; family: string; ns: string; dialect: string;
  fixture?: string; cwd?: string; cmd: string; cmdFrom?: string; run?: string; before?: string; after?: string;
  env: Record<string, string | null>; host?: string; keep: KeepStep[]; about?: string; timeout?: number;
}
export const NAMESPACES: Array<{ ns: string; rows: Row[]; dialect: string; env?: Record<string, string | null> }>;
export const ROWS: Row[];
