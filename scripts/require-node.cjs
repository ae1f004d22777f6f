// Run before every npm script that starts the portal or its tools: on a Node.js too old for them it says
// so in one line, instead of a "bad option" or a syntax error. Written in the oldest JavaScript, so that
// an old Node.js still reads it.
'use strict';
var parts = process.versions.node.split('.');
var major = Number(parts[0]);
var minor = Number(parts[1]);
// 22.18 is the first 22 that runs TypeScript files without a flag (npm run backup and restore load the
// portal's configuration code so). 23 was never a long-term release.
if (!((major === 22 && minor >= 18) || major >= 24)) {
  console.error(
    'The portal needs Node.js 22.18 or a later 22, or Node.js 24 or later; this is Node.js ' +
      process.version +
      '.',
  );
  process.exit(1);
}
