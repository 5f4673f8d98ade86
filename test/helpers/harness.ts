// One fake portal per test file, and a fresh service per test (its own cache), torn down after
// each test with the portal's failure rules and counts reset.
import { after, afterEach, before } from 'node:test';
import { startFakePortal, type FakePortal } from '../../dev/fake-portal/server.ts';
import { startService, type RunningService } from './service.ts';

export interface Harness {
  /** The file's fake portal (set once `before` has run). */
  readonly portal: FakePortal;
  /** A new service against the portal, closed after the current test. */
  fresh(env?: Record<string, string>): Promise<RunningService>;
}

export function portalHarness(): Harness {
  let portal: FakePortal | undefined;
  const services: RunningService[] = [];
  before(async () => {
    portal = await startFakePortal();
  });
  afterEach(async () => {
    portal!.clear();
    portal!.resetCounts();
    while (services.length) await services.pop()!.close();
  });
  after(async () => {
    await portal!.close();
  });
  return {
    get portal() {
      return portal!;
    },
    async fresh(env = {}) {
      const svc = await startService(portal!.url, env);
      services.push(svc);
      return svc;
    },
  };
}
