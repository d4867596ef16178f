// Processes as the kernel sees them (Linux /proc): a process's descendants, their resident memory, and whether
// a pid is still running. Used to measure the embedded chain, which is a child process of the service.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

/** State and parent of a process from /proc/<pid>/stat, or undefined when it is gone. */
function stat(pid: number): { state: string; ppid: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name may hold spaces and parentheses: the fields after it follow the last ")".
    const [state, ppid] = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { state: state!, ppid: Number(ppid) };
  } catch {
    return undefined;
  }
}

/** Running: it exists and is not a zombie (exited, waiting for its parent to reap it). */
export function isRunning(pid: number): boolean {
  const found = stat(pid);
  return found !== undefined && found.state !== "Z" && found.state !== "X";
}

/** `pid` and every process below it (children, their children, ...). */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const parent = stat(Number(entry))?.ppid;
    if (parent !== undefined) children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
  }
  const tree: number[] = [];
  for (const queue = [pid]; queue.length > 0; ) {
    const next = queue.shift()!;
    tree.push(next);
    queue.push(...(children.get(next) ?? []));
  }
  return tree;
}

/** VmRSS of one process, in bytes (undefined once it is gone). */
export function residentBytes(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** VmRSS summed over `pid` and its descendants, in bytes. */
export function treeResidentBytes(pid: number): number {
  return processTree(pid).reduce((sum, member) => sum + (residentBytes(member) ?? 0), 0);
}

/** The pids in `pid`'s tree whose command name (/proc/<pid>/comm) is `name`. */
export function namedInTree(pid: number, name: string): number[] {
  return processTree(pid).filter((member) => {
    try {
      return readFileSync(`/proc/${member}/comm`, "utf8").trim() === name;
    } catch {
      return false;
    }
  });
}

/**
 * The TCP ports a process listens on (IPv4 and IPv6), from its sockets (/proc/<pid>/fd) and the kernel's socket
 * tables: how a test reaches a server the process under test started on a port of the kernel's choosing.
 */
export function listeningPorts(pid: number): number[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (match) inodes.add(match[1]!);
    } catch {
      // closed meanwhile
    }
  }
  const ports = new Set<number>();
  for (const table of ["tcp", "tcp6"]) {
    let text: string;
    try {
      text = readFileSync(`/proc/${pid}/net/${table}`, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      // local address (hex ip:port), state 0A = LISTEN, inode
      if (fields.length > 9 && fields[3] === "0A" && inodes.has(fields[9]!)) ports.add(Number.parseInt(fields[1]!.split(":")[1]!, 16));
    }
  }
  return [...ports];
}
