/**
 * The stream-path stages (frame, classify, render) import the kit through this name; the home
 * of these shapes is lib/kit/types.ts, which distillers import. New code imports lib/kit.
 */
export * from '../kit/types.js';
