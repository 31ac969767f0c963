#!/usr/bin/env node
// The `igw` command (linked into node_modules/.bin by npm through the root package's
// "@igw/cli": "file:apps/cli"). Runs the built CLI when `npm run build` has made it, else the
// TypeScript source through @swc-node/register, so `npx igw` works right after `npm ci`.
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..', '..', '..');
const built = join(root, 'dist', 'apps', 'cli', 'src', 'main.js');
let cli;
if (existsSync(built) && !process.env.IGW_CLI_FROM_SOURCE) {
  cli = require(built);
} else {
  process.env.SWC_NODE_PROJECT = process.env.SWC_NODE_PROJECT || join(root, 'tsconfig.json');
  require('@swc-node/register');
  cli = require(join(root, 'apps', 'cli', 'src', 'main.ts'));
}
cli.run(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`igw: ${(err && err.stack) || err}\n`);
    process.exitCode = 1;
  },
);
