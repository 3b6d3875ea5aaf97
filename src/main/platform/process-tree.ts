/** The process tree under a pid, from one snapshot of the process table (either port's rows). */
export function descendantsIn<T extends { pid: number; ppid: number }>(rows: Iterable<T>, root: number, alive: (row: T) => boolean): number[] {
  const children = new Map<number, number[]>();
  for (const row of rows) {
    if (!alive(row)) continue;
    const list = children.get(row.ppid);
    if (list) list.push(row.pid);
    else children.set(row.ppid, [row.pid]);
  }
  const out: number[] = [];
  const queue = [...(children.get(root) ?? [])];
  while (queue.length) {
    const pid = queue.shift()!;
    out.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return out;
}
