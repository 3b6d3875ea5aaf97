/**
 * CPU time of a process and its descendants from /proc (Linux), for the console performance
 * test: how much CPU the agent's server, the console and Chromium each spend per agent call.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's utime/stime (USER_HZ, 100 on Linux). */
const USER_HZ = 100;

function stat(pid: number): { ppid: number; ticks: number } | undefined {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state ppid … utime(14) stime(15).
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) };
  } catch {
    return undefined;
  }
}

/** Milliseconds of CPU (user + system) used so far by `pid` and all its live descendants. */
export function treeCpuMs(pid: number): number {
  const children = new Map<number, number[]>();
  const ticks = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    const p = Number(name);
    if (!Number.isInteger(p)) continue;
    const st = stat(p);
    if (!st) continue;
    ticks.set(p, st.ticks);
    const list = children.get(st.ppid) ?? [];
    list.push(p);
    children.set(st.ppid, list);
  }
  let total = 0;
  const todo = [pid];
  while (todo.length) {
    const p = todo.pop()!;
    total += ticks.get(p) ?? 0;
    todo.push(...(children.get(p) ?? []));
  }
  return (total * 1000) / USER_HZ;
}

/** Milliseconds of CPU (user + system) used so far by `pid` alone. */
export function selfCpuMs(pid: number): number {
  return ((stat(pid)?.ticks ?? 0) * 1000) / USER_HZ;
}

/** Direct children of `pid` whose command name (/proc/PID/comm) starts with `name`. */
export function childrenNamed(pid: number, name: string): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    const p = Number(entry);
    if (!Number.isInteger(p) || stat(p)?.ppid !== pid) continue;
    try {
      if (readFileSync(`/proc/${p}/comm`, 'utf8').startsWith(name)) out.push(p);
    } catch {
      // gone meanwhile
    }
  }
  return out;
}
