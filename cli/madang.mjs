#!/usr/bin/env node
// The `madang` bin on a machine with only Node.js and npm: the same bootstrap as `npm start` (pinned Bun,
// dependencies), then the CLI with these arguments.
process.argv.splice(2, 0, "cli");
await import("../scripts/bootstrap.mjs");
