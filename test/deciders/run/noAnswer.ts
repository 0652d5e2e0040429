// An agent's run that sent nothing back for the scripted call.
import type { CaseFixture, Ran } from '../fixture.js';
import type { Observation } from '../recording.js';
import type { StandIn } from '../standins/service.js';

/**
 * An agent that exits with an error before asking its model anything refused to start (a
 * configuration it rejects, a folder it does not trust): nothing is read or written, a deny.
 * Anything else (a time limit, a run that ended mid-way) is left unobserved.
 */
export function withoutAnswer(ran: Ran, standIn: StandIn, fx: CaseFixture, timeoutMs: number): Pick<Observation, 'decision' | 'message' | 'detail'> {
  // What it said, without a stack trace's frames.
  const said = fx
    .unexpand(ran.stderr.trim() || ran.stdout.trim())
    .split('\n')
    .filter((line) => !/^\s+at /.test(line))
    .join('\n')
    .slice(-800);
  if (ran.timedOut) return { decision: 'unobserved', message: `no answer within ${timeoutMs} ms` };
  if (ran.code !== 0 && standIn.offered === undefined) return { decision: 'deny', message: said, detail: { exitCode: ran.code, refusedToStart: true } };
  return { decision: 'unobserved', message: `no answer to the call; the run ended ${ran.code}: ${said}`, detail: { exitCode: ran.code } };
}
