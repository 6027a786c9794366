// A process's memory and CPU time as Linux tells them in /proc, for servers that cannot be asked
// over IPC (Bun) or whose workers are not the bench's children (node:cluster).
import { readFileSync } from 'node:fs';

/** Linux's `USER_HZ`: /proc/<pid>/stat counts CPU time in hundredths of a second. */
const TICKS_PER_SECOND = 100;

export interface ProcStats {
  /** Bytes: `VmRSS` of /proc/<pid>/status. */
  readonly rss: number;
  /** CPU time used so far, user and system, in microseconds (10 ms resolution). */
  readonly cpuMicros: number;
}

/** `VmRSS` of /proc/<pid>/status, in bytes. */
export function rssOf(pid: number): number {
  const m = /^VmRSS:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (m === null) throw new Error(`/proc/${pid}/status has no VmRSS line`);
  return Number(m[1]) * 1024;
}

/** utime + stime of /proc/<pid>/stat, in microseconds. */
export function cpuMicrosOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) is in parentheses and may hold spaces: count fields after its ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 of the line (utime, stime) are the 12th and 13th after the name.
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1e6) / TICKS_PER_SECOND;
}

export function procStats(pid: number): ProcStats {
  return { rss: rssOf(pid), cpuMicros: cpuMicrosOf(pid) };
}
