// Types for scripts/host-clis.mjs, which the real-host harnesses and tests import.
export declare const ROOT: string;
export declare const HOST_CLIS: string;
export declare const HOSTS: { claude: string; codex: string; gemini: string; pi: string };
export type Host = keyof typeof HOSTS;
export declare function pins(dir?: string): Record<string, string>;
export declare function installed(dir?: string): boolean;
export declare function ensureHostClis(opts?: { dir?: string; npm?: string; log?: (s: string) => void }): string;
export declare function hostModules(): string;
export declare function hostBin(host: Host): string;
