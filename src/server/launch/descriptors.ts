import fs from 'node:fs';

/** O_CLOEXEC as /proc/<pid>/fdinfo writes it (octal `flags:`). */
const O_CLOEXEC = 0o2000000;

/**
 * This process's descriptors above stdio that a child would inherit: those without close-on-exec,
 * read from /proc/self/fdinfo. Node and libuv open everything they use with O_CLOEXEC, so these are
 * the descriptors this process itself inherited (a launcher's folder, a terminal's) and passes on
 * to every child, since Node closes nothing when it spawns. Empty without /proc.
 */
export function inheritableDescriptors(): number[] {
  let names: string[];
  try {
    names = fs.readdirSync('/proc/self/fd');
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const name of names) {
    const fd = Number(name);
    if (fd <= 2) continue;
    let info: string;
    try {
      info = fs.readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8');
    } catch {
      continue; // the descriptor readdir itself used, closed since
    }
    const flags = /^flags:\s*([0-7]+)/m.exec(info);
    if (flags !== null && (parseInt(flags[1]!, 8) & O_CLOEXEC) === 0) found.push(fd);
  }
  return found.sort((a, b) => a - b);
}

/**
 * Closes what `inheritableDescriptors` finds, so that nothing but stdio and what the launch hands
 * over on purpose reaches the sandbox. Node's IPC channel to its own parent, if it has one, is kept.
 */
export function closeInheritedDescriptors(env: NodeJS.ProcessEnv): number[] {
  const channel = env.NODE_CHANNEL_FD === undefined ? -1 : Number(env.NODE_CHANNEL_FD);
  const closed: number[] = [];
  for (const fd of inheritableDescriptors()) {
    if (fd === channel) continue;
    try {
      fs.closeSync(fd);
      closed.push(fd);
    } catch {
      // already gone
    }
  }
  return closed;
}
