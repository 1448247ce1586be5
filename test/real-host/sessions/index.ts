/**
 * Every scripted session, and which set it is in.
 *
 * Development set (distillers may be tuned against these): python-pytest, node-jest, rust-cargo.
 * Held-out set (nobody tunes a distiller against these; their figures say what omni does on
 * sessions it has never seen): go-module, ruby-gem, c-make. Keep it that way: a change made to win on a
 * held-out session moves it to the development set and needs a new held-out session.
 */
import { cSession } from './projects/c.js';
import { goSession } from './projects/go.js';
import { nodeSession } from './projects/node.js';
import { pythonSession } from './projects/python.js';
import { rubySession } from './projects/ruby.js';
import { rustSession } from './projects/rust.js';
import type { Session } from './session.js';

export const SESSIONS: Session[] = [pythonSession, nodeSession, rustSession, goSession, rubySession, cSession];

export const DEV = SESSIONS.filter((s) => s.set === 'dev').map((s) => s.name);
export const HELD_OUT = SESSIONS.filter((s) => s.set === 'held-out').map((s) => s.name);
