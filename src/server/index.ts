import { runServer } from './main.js';

const status = runServer(process.argv.slice(2));
if (status !== 'serving') process.exitCode = status;
