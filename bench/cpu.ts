import { readFileSync } from 'node:fs';

// CPU time spent, split between this process (the worker, sandbox, ingress and the bench's own
// client) and the Temporal server's process. Unlike a rate, a CPU time per flow does not move with
// what else the shared machine runs: it says where a flow's cost lies.

export interface CpuSpent {
  /** This process, all its threads. */
  processMs: number;
  /** The server's process; undefined when it is not a child of this machine's bench (a cluster). */
  serverMs: number | undefined;
}

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** utime + stime of a process, from /proc; undefined where there is no such process or no /proc. */
function processCpuMs(pid: number): number | undefined {
  try {
    // The fields after the command's closing parenthesis; utime and stime are the 14th and 15th of the line.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // the command may hold ') '
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return undefined;
  }
}

/** Starts a reading; the function it returns says what was spent since. */
export function cpuMeter(serverPid: number | undefined): () => CpuSpent {
  const own = process.cpuUsage();
  const server = serverPid === undefined ? undefined : processCpuMs(serverPid);
  return () => {
    const spent = process.cpuUsage(own);
    const serverNow = serverPid === undefined ? undefined : processCpuMs(serverPid);
    return {
      processMs: (spent.user + spent.system) / 1000,
      serverMs: server === undefined || serverNow === undefined ? undefined : serverNow - server,
    };
  };
}
