import { runServer } from './runServer.js';

const status = runServer(process.argv.slice(2));
if (status !== 'serving') process.exitCode = status;
