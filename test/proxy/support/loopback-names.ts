// How the in-process proxies resolve target names: a fixed table onto loopback, so no test proxy
// can ever be talked into dialling a real host. Unknown names fail like NXDOMAIN would.
import net from 'node:net';

const NAMES: Readonly<Record<string, string>> = {
  localhost: '127.0.0.1',
  // Resolves to the HTTPS target, whose certificate does not name it: for the mismatch tests.
  'wrong.test': '127.0.0.1',
};

export function resolveToLoopback(host: string): string | undefined {
  if (net.isIP(host) !== 0) return host === '::1' || host.startsWith('127.') ? host : undefined;
  return NAMES[host.toLowerCase()];
}
