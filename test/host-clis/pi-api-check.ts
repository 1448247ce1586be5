/**
 * lib/hosts/pi/api.ts holds omni's copy of the part of Pi's extension API it uses, so omni
 * type-checks without Pi installed. This file holds that copy to the pinned Pi's own
 * declarations (test/real-host/pi-api.test.ts compiles it with ./tsconfig.json): everything
 * Pi hands an extension must fit omni's types, and everything omni hands back must fit Pi's.
 */
import type * as Pi from '@mariozechner/pi-coding-agent';
import type * as Omni from '../../lib/hosts/pi/api.js';

declare const pi: Pi.ExtensionAPI;
declare const omniFactory: (pi: Omni.ExtensionAPI) => void;
declare function omniHandler<E, R = undefined>(): Omni.ExtensionHandler<E, R>;

/** omni's factory is a Pi extension: Pi's API fits the one omni is typed against. */
export const extension: Pi.ExtensionFactory = omniFactory;

// Each event omni subscribes to, with a handler typed as omni types it: Pi's event and context
// must fit omni's parameter types, and omni's result must fit what Pi accepts.
pi.on('session_start', omniHandler<Omni.SessionStartEvent>());
pi.on('session_compact', omniHandler<Omni.SessionCompactEvent>());
pi.on('session_shutdown', omniHandler<Omni.SessionShutdownEvent>());
pi.on('session_tree', omniHandler<Omni.SessionTreeEvent>());
pi.on('before_agent_start', omniHandler<Omni.BeforeAgentStartEvent, Omni.BeforeAgentStartEventResult>());
pi.on('tool_result', omniHandler<Omni.ToolResultEvent, Omni.ToolResultEventResult>());
