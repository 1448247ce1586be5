/**
 * Entry for Pi's extension loader (`pi -e`, settings `extensions`, or the bundle
 * dist/omni-pi.cjs): Pi imports the default export and calls it with its ExtensionAPI.
 */
export { default } from './doors/pi.js';
