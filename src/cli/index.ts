#!/usr/bin/env node
import { main } from './main.js';

const status = main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env });
if (status instanceof Promise) void status.then((code) => (process.exitCode = code));
else if (status !== 'serving') process.exitCode = status;
