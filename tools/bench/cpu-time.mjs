// CPU time of processes from /proc (Linux): what the system under test spends per request, apart
// from the loader on the same cores. utime + stime of a process covers all its threads (PGlite,
// libuv's pool); child processes are not included, so every process of a system is listed.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

let ticksPerSecond;

/** Clock ticks per second of /proc's utime/stime (CLK_TCK, 100 on common kernels). */
function clockTicks() {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** Total CPU seconds (user + system) used so far by `pids`; null when /proc cannot tell. */
export function cpuSeconds(pids) {
  try {
    let ticks = 0;
    for (const pid of pids) {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Fields after the parenthesised command name: state is field 3, utime 14, stime 15.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    }
    return ticks / clockTicks();
  } catch {
    return null;
  }
}
