// CPU time of one MariaDB server, read from /proc (Linux): what the server spent on a run.

import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time (µs) of the `mariadbd` (or `mysqld`) listening on `port`: one process, all its threads.
 * @param {number} port
 */
export function mariadbCpuUs(port) {
  const ticks = 1e6 / 100; // USER_HZ is 100 on Linux
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (!/\/(mariadbd|mysqld)$/.test(cmdline[0] ?? '') || !cmdline.includes(`--port=${port}`)) continue;
      const text = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      // utime and stime are fields 14 and 15 of /proc/<pid>/stat, 12 and 13 after the name.
      return (Number(fields[11]) + Number(fields[12])) * ticks;
    } catch {
      // ended while we looked
    }
  }
  return Number.NaN;
}
