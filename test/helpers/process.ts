// Runs the service as a real child process: `src/main.ts` through tsx, or with `compiled` the
// built `dist/main.js` with plain node exactly as `npm start` runs it.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { npmStartNodeArgs } from '../../scripts/npm-start.ts';

export interface ServiceProcess {
  url: string;
  child: ChildProcess;
  logs: string[];
  /**
   * Resolves with the exit code (or signal) once the process has ended and its output is read to
   * the end (every line is in `logs`).
   */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

// Generous: tsx compiles the service at start, which takes seconds on a loaded 2-core machine.
export async function spawnService(
  env: Record<string, string>,
  timeoutMs = 60_000,
  { compiled = false } = {},
): Promise<ServiceProcess> {
  const args = compiled ? [...npmStartNodeArgs(), 'dist/main.js'] : ['--import', 'tsx', 'src/main.ts'];
  const child = spawn(process.execPath, args, {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      ARCHIVE_FILES_FROM: '2026-11-16',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  const exited = once(child, 'close').then(([code, signal]) => ({
    code: code as number | null,
    signal: signal as NodeJS.Signals | null,
  }));
  createInterface({ input: child.stderr! }).on('line', (line) => logs.push(line));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`service did not start in ${timeoutMs} ms:\n${logs.join('\n')}`)),
      timeoutMs,
    );
    createInterface({ input: child.stdout! }).on('line', (line) => {
      logs.push(line);
      const match = /"msg":"Server listening at (http:\/\/127\.0\.0\.1:\d+)"/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    void exited.then(() => reject(new Error(`service exited early:\n${logs.join('\n')}`)));
  });
  return { url, child, logs, exited };
}
