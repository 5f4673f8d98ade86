#!/usr/bin/env node
// `psx-market-data-client mcp --url http://host:8000`: for MCP clients that speak only stdio (desktop
// apps), a bridge from stdin/stdout to a running service's POST /mcp. Every message is passed on
// as it is; the service does the work. Kept out of the package's main entry, so browser users of
// the typed client never load the MCP SDK. The SDK is an optional peer dependency (its ~90
// packages are for this bridge only): installed beside the client, or named to npx with `-p`.
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { isolatingFetch } from './isolating-fetch.ts';

// The package is typed for browsers too (no Node types): what this file uses of Node.
declare const process: {
  argv: string[];
  exit(code: number): never;
  stderr: { write(text: string): void };
  on(event: 'SIGINT' | 'SIGTERM', listener: () => void): void;
};

const USAGE = `usage: psx-market-data-client mcp --url http://host:8000

Bridges an MCP client speaking stdio to the PSX market data service's /mcp endpoint.`;

const SDK_MISSING = `psx-market-data-client mcp needs the MCP SDK, an optional peer dependency of this package:
  npm install @modelcontextprotocol/sdk
or run the bridge with npx naming both packages:
  npx -y -p psx-market-data-client -p @modelcontextprotocol/sdk psx-market-data-client mcp --url http://host:8000`;

async function loadSdk(): Promise<{
  StdioServerTransport: typeof import('@modelcontextprotocol/sdk/server/stdio.js').StdioServerTransport;
  StreamableHTTPClientTransport: typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js').StreamableHTTPClientTransport;
}> {
  try {
    const [stdio, http] = await Promise.all([
      import('@modelcontextprotocol/sdk/server/stdio.js'),
      import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    ]);
    return {
      StdioServerTransport: stdio.StdioServerTransport,
      StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
    };
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') fail(SDK_MISSING);
    throw err;
  }
}

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

function endpointOf(argv: string[]): URL {
  const [command, ...rest] = argv;
  if (command !== 'mcp') fail(USAGE);
  let raw: string | undefined;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] as string;
    if (arg === '--url') raw = rest[++i];
    else if (arg.startsWith('--url=')) raw = arg.slice('--url='.length);
    else if (arg === '--help' || arg === '-h') fail(USAGE);
    else fail(`unknown argument ${arg}\n\n${USAGE}`);
  }
  if (raw === undefined) fail(`--url is required\n\n${USAGE}`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    fail(`--url must be an http(s) URL, got ${raw}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail(`--url must be an http(s) URL, got ${raw}`);
  // The service's base URL, or its /mcp itself.
  if (!url.pathname.endsWith('/mcp')) url.pathname = `${url.pathname.replace(/\/+$/, '')}/mcp`;
  return url;
}

function isRequest(m: JSONRPCMessage): m is JSONRPCMessage & { id: string | number; method: string } {
  return 'method' in m && 'id' in m;
}

async function main(): Promise<void> {
  const endpoint = endpointOf(process.argv.slice(2));
  const { StdioServerTransport, StreamableHTTPClientTransport } = await loadSdk();
  const local = new StdioServerTransport();
  const remote = new StreamableHTTPClientTransport(endpoint, { fetch: isolatingFetch });
  const initializing = new Set<string | number>();

  local.onmessage = (message) => {
    if (isRequest(message) && message.method === 'initialize') initializing.add(message.id);
    remote.send(message).catch((err: unknown) => {
      // A request the service could not be asked still gets an answer, so the client does not wait.
      if (!isRequest(message)) return;
      void local.send({
        jsonrpc: '2.0',
        id: message.id,
        error: {
          code: -32000,
          message: `the service at ${endpoint.href} could not be reached: ${err instanceof Error ? err.message : String(err)}`,
        },
      });
    });
  };
  remote.onmessage = (message) => {
    // The negotiated version goes on every later request's MCP-Protocol-Version header.
    if ('id' in message && initializing.delete(message.id as string | number) && 'result' in message) {
      const version = (message.result as { protocolVersion?: unknown }).protocolVersion;
      if (typeof version === 'string') remote.setProtocolVersion(version);
    }
    void local.send(message);
  };
  remote.onerror = (err) => process.stderr.write(`psx-market-data-client mcp: ${err.message}\n`);
  const close = (): void => {
    void remote.close().finally(() => process.exit(0));
  };
  local.onclose = close;
  process.on('SIGINT', close);
  process.on('SIGTERM', close);
  await remote.start();
  await local.start();
}

main().catch((err: unknown) => fail(err instanceof Error ? err.message : String(err)));
