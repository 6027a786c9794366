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

/** A core's time so far, in USER_HZ ticks, from /proc/stat: all of it, and how much it was idle (idle + iowait). */
export function coreTicks(core: number): { total: number; idle: number } | undefined {
  let stat: string;
  try {
    stat = readFileSync('/proc/stat', 'utf8');
  } catch {
    return undefined;
  }
  const line = stat.split('\n').find((l) => l.startsWith(`cpu${core} `));
  if (line === undefined) return undefined;
  const ticks = line.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal (guest time is counted in user already).
  const total = ticks.slice(0, 8).reduce((a, b) => a + b, 0);
  return { total, idle: ticks[3]! + ticks[4]! };
}
