// Test tripwire: records (and blocks) any outgoing TCP connection to something other than
// loopback. Installed around the end-to-end tests so "never dial outside 127.0.0.0/8 or ::1" is
// checked, not just intended. Every net/tls/undici connection goes through Socket#connect.
import net from 'node:net';

type ConnectArgs = Parameters<net.Socket['connect']>;

function targetOf(args: unknown[]): { host?: string; path?: string } {
  // net.connect() passes its normalised arguments as one array: [options, callback].
  const first = Array.isArray(args[0]) ? (args[0] as unknown[])[0] : args[0];
  if (typeof first === 'object' && first !== null) {
    const options = first as { host?: string; path?: string };
    return { host: options.host, path: options.path };
  }
  if (typeof first === 'number' || /^\d+$/.test(String(first))) {
    return { host: typeof args[1] === 'string' ? args[1] : undefined };
  }
  return { path: String(first) };
}

function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  if (net.isIPv4(host)) return host.startsWith('127.');
  return host === '::1' || host === '::ffff:127.0.0.1';
}

export type LoopbackGuard = { violations: string[]; uninstall(): void };

export function installLoopbackGuard(): LoopbackGuard {
  const original = net.Socket.prototype.connect;
  const violations: string[] = [];
  net.Socket.prototype.connect = function guardedConnect(this: net.Socket, ...args: ConnectArgs) {
    const { host, path } = targetOf(args);
    if (path === undefined && !isLoopback(host ?? 'localhost')) {
      violations.push(String(host));
      throw new Error(`test guard: refusing to dial non-loopback host ${String(host)}`);
    }
    return original.apply(this, args);
  } as typeof original;
  return {
    violations,
    uninstall() {
      net.Socket.prototype.connect = original;
    },
  };
}
