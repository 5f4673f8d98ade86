// The node arguments `npm start` runs the compiled service with (package.json), so the tests and
// the benchmarks start the service, and measure it, the way it is deployed.
import { readFileSync } from 'node:fs';

/** The flags before `dist/main.js` in package.json's `start` script. */
export function npmStartNodeArgs(packageJson = new URL('../package.json', import.meta.url)): string[] {
  const script: string = JSON.parse(readFileSync(packageJson, 'utf8')).scripts.start;
  const match = /\bnode ((?:--\S+ )*)dist\/main\.js/.exec(script);
  if (!match) throw new Error(`cannot read the node arguments of npm start from "${script}"`);
  return match[1]!.trim().split(/\s+/).filter(Boolean);
}
