import fs from 'node:fs';
import { inheritableDescriptors } from './descriptors.js';
import { NAMESPACES, unexpectedEnvironment, type SandboxMarker } from './sandboxEnvironment.js';

function read(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function statusField(status: string, field: string): string | undefined {
  return new RegExp(`^${field}:\\s*(\\S+)`, 'm').exec(status)?.[1];
}

/** Capability sets that are not empty, by their /proc/self/status names. */
function heldCapabilities(status: string): string[] {
  return ['CapInh', 'CapPrm', 'CapEff', 'CapBnd', 'CapAmb'].filter((set) => {
    const value = statusField(status, set);
    return value === undefined || /[^0]/.test(value);
  });
}

/** Numbers of the processes /proc lists. */
function visibleProcesses(): number[] {
  try {
    return fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number);
  } catch {
    return [];
  }
}

/** A place that takes a new file: access(2) says EROFS on a read-only mount without writing anything. */
function writable(folder: string): boolean {
  try {
    fs.accessSync(folder, fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** The checks bubblewrap's sandbox must pass, each a name and what is missing when it fails. */
function bubblewrapGaps(marker: SandboxMarker, env: NodeJS.ProcessEnv, pid: number): string[] {
  const gaps: string[] = [];
  const status = read('/proc/self/status') ?? '';

  const held = heldCapabilities(status);
  if (held.length > 0) gaps.push(`capabilities are held (${held.join(', ')} not empty)`);

  const shared = NAMESPACES.filter((name) => {
    const outside = marker.outside?.[name];
    if (outside === undefined) return false; // the kernel has no such namespace
    let inside: string | undefined;
    try {
      inside = fs.readlinkSync(`/proc/self/ns/${name}`);
    } catch {
      inside = undefined;
    }
    return inside === undefined || inside === outside;
  });
  if (shared.length > 0) gaps.push(`no ${shared.join(', ')} namespace of its own`);

  // In a PID namespace of its own, numbers count from 1 and the server starts nothing: any larger number is a process from outside.
  let self: string | undefined;
  try {
    self = fs.readlinkSync('/proc/self');
  } catch {
    self = undefined;
  }
  const outsiders = visibleProcesses().filter((other) => other > pid);
  if (self !== String(pid) || outsiders.length > 0) gaps.push(`processes outside the sandbox are visible (${outsiders.length} in /proc)`);

  if (statusField(status, 'Seccomp') !== '2') {
    gaps.push(marker.seccomp === false ? `no seccomp filter (none is built for ${process.arch})` : 'no seccomp filter');
  }
  if (statusField(status, 'NoNewPrivs') !== '1') gaps.push('no_new_privs is not set');

  // /proc/self/stat: pid (comm) state ppid pgrp session tty_nr ...; comm may hold spaces and parentheses.
  // A session led from outside the PID namespace shows as 0; a new one is led from inside.
  const stat = read('/proc/self/stat') ?? '';
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  if (Number(fields[3]) === 0 || Number(fields[4]) !== 0) gaps.push('it shares a session or a controlling terminal with the launcher');

  const descriptors = inheritableDescriptors().filter((fd) => fd !== marker.channel);
  if (descriptors.length > 0) gaps.push(`descriptors were inherited (${descriptors.join(', ')})`);

  const network = (read('/proc/self/net/dev') ?? '')
    .split('\n')
    .slice(2)
    .map((line) => line.split(':')[0]!.trim())
    .filter((name) => name !== '' && name !== 'lo');
  if (network.length > 0) gaps.push(`network interfaces are visible (${network.join(', ')})`);

  const places = ['/', '/tmp', '/dev', '/dev/shm'].filter(writable);
  if (places.length > 0) gaps.push(`${places.join(', ')} can be written`);

  gaps.push(...environmentGaps(env));
  return gaps;
}

function environmentGaps(env: NodeJS.ProcessEnv): string[] {
  const extra = unexpectedEnvironment(env);
  return extra.length > 0 ? [`the environment holds more than the allowlist (${extra.sort().join(', ')})`] : [];
}

/**
 * What the server, inside, finds missing from what its sandbox promises: empty when every check
 * holds. Run once at start-up, before serving; each entry names the gap in words a person can act on.
 */
export function sandboxGaps(marker: SandboxMarker, env: NodeJS.ProcessEnv, pid: number = process.pid): string[] {
  return marker.mechanism === 'bubblewrap' ? bubblewrapGaps(marker, env, pid) : environmentGaps(env);
}
