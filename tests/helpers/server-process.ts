/** Server processes started by a test (as an operator or a container starts them). */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/** The exit code of `child`, once it has exited. */
export function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}

/**
 * A temp data folder for the processes of one describe block; `track` a process to have it
 * killed after the block if a failed test left it running. Both are cleaned up after the block.
 */
export function processSandbox(prefix: string): { dataDir: string; track(child: ChildProcess): ChildProcess } {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    dataDir,
    track(child) {
      children.push(child);
      return child;
    },
  };
}
