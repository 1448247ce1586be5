/**
 * omni's server in a host's `mcpServers` map (Claude Code's ~/.claude.json, Cursor's mcp.json),
 * pure: whose the slot is, omni's entry put in, omni's entry taken out. Every other server and
 * key stays where it is, and a slot holding someone else's server is never taken.
 */
import { isObj, type Obj } from './config-file.js';

/** Whose is the `name` entry in `mcpServers`: none, omni's, or someone else's (left alone). */
export function mcpSlot(json: Obj, name: string, isOmni: (entry: unknown) => boolean): 'free' | 'omni' | 'foreign' {
  const servers = json.mcpServers;
  if (!isObj(servers) || servers[name] === undefined) return 'free';
  return isOmni(servers[name]) ? 'omni' : 'foreign';
}

/** json with `entry` as server `name` (a map that is not an object is replaced; callers that must keep it check first). */
export function withMcpServer(json: Obj, name: string, entry: Obj): Obj {
  const j = structuredClone(json);
  const servers = isObj(j.mcpServers) ? j.mcpServers : {};
  servers[name] = entry;
  j.mcpServers = servers;
  return j;
}

/** json without server `name` when it is omni's; an emptied map goes too. Otherwise json itself. */
export function withoutMcpServer(json: Obj, name: string, isOmni: (entry: unknown) => boolean): Obj {
  if (mcpSlot(json, name, isOmni) !== 'omni') return json;
  const j = structuredClone(json);
  delete (j.mcpServers as Obj)[name];
  if (Object.keys(j.mcpServers as Obj).length === 0) delete j.mcpServers;
  return j;
}
