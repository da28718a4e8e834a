// CPU time of one PostgreSQL cluster, read from /proc (Linux): what the server spent on a run.

import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time (µs) of the PostgreSQL cluster listening on `port`: its postmaster and every child.
 * @param {number} port
 */
export function postgresCpuUs(port) {
  const ticks = 1e6 / 100; // USER_HZ is 100 on Linux
  /** @param {string} pid */
  const stat = (pid) => {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  };
  let postmaster = null;
  const all = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (cmdline[0]?.endsWith('/postgres') && cmdline.includes(String(port))) postmaster = entry;
      all.push(entry);
    } catch {
      // ended while we looked
    }
  }
  let total = 0;
  for (const pid of all) {
    try {
      const fields = stat(pid);
      // utime and stime are fields 14 and 15 of /proc/<pid>/stat, 12 and 13 after the name.
      if (pid === postmaster || fields[1] === postmaster) total += (Number(fields[11]) + Number(fields[12])) * ticks;
    } catch {
      // ended while we looked
    }
  }
  return total;
}
