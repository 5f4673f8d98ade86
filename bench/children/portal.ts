// Bench-only entry: the fake portal in its own process. In the cold burst the runner is also a
// client holding 1,000 connections; a portal inside it would answer only when that client's work
// lets it, which the real portal, on another machine, never does. Options arrive as JSON in
// BENCH_PORTAL_OPTIONS; counts are read through the portal's control API (/__fake/counts).
import { startFakePortal, type FakePortalOptions } from '../../dev/fake-portal/server.ts';
import type { FromChild, ToChild } from './messages.ts';

const options = JSON.parse(process.env.BENCH_PORTAL_OPTIONS ?? '{}') as FakePortalOptions;
const portal = await startFakePortal(options);

process.on('message', (msg: ToChild) => {
  if (msg.type === 'stop') void portal.close().then(() => process.exit(0));
});
process.on('disconnect', () => process.exit(0));
process.send?.({ type: 'ready', url: portal.url } satisfies FromChild);
