import { startFakePortal } from './dev/fake-portal/server.ts';
import { startService } from './test/helpers/service.ts';
const portal = await startFakePortal();
const svc = await startService(portal.url);
const lim = await startService(portal.url, { RATE_LIMIT_PER_MINUTE: '1' });
console.log(svc.url, lim.url);
setTimeout(async () => { await svc.close(); await lim.close(); await portal.close(); process.exit(0); }, 120000);
