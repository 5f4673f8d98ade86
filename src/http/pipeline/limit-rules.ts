// Whether the request limit counts a route is the route's own property, its Fastify route config
// `requestLimit`: counted by the front door (the default: every API endpoint, and any path no
// route matches), `uncounted` (the documents, the dashboard, /metrics: not API endpoints), or
// `self` (/mcp counts each JSON-RPC request it carries). The door decides before routing, by
// path, so the rules are handed to it once every route is known.
import type { FastifyInstance, RouteOptions } from 'fastify';

export type LimitRule = 'counted' | 'uncounted' | 'self';

/** The front door's side: which paths it must not count (FrontDoor). */
interface Counting {
  exempt(url: string): void;
  countedBy(url: string): void;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    requestLimit?: LimitRule;
  }
}

/** Route config of a route the request limit never counts. */
export const UNCOUNTED = { requestLimit: 'uncounted' } as const;
/** Route config of a route whose handler asks the request limit itself. */
export const SELF_COUNTED = { requestLimit: 'self' } as const;

/** Every route of `scope` not saying otherwise is uncounted (routes a plugin registers, too). */
export function uncountedByDefault(scope: FastifyInstance): void {
  scope.addHook('onRoute', (route) => {
    route.config = { ...UNCOUNTED, ...route.config };
  });
}

/**
 * Collects every route as registered; `apply` (once all are) tells the door each route's rule, and
 * `getPaths` lists the paths with a GET route.
 */
export function limitRules(app: FastifyInstance): { apply(door: Counting): void; getPaths(): Set<string> } {
  const routes: RouteOptions[] = [];
  // Hooks of the scopes run after this one on the same route object: read when applied.
  app.addHook('onRoute', (route) => {
    routes.push(route);
  });
  return {
    apply(door) {
      for (const route of routes) {
        const rule = route.config?.requestLimit;
        if (rule === 'uncounted') door.exempt(route.url);
        else if (rule === 'self') door.countedBy(route.url);
      }
    },
    getPaths() {
      const paths = new Set<string>();
      for (const route of routes) {
        const methods = Array.isArray(route.method) ? route.method : [route.method];
        if (methods.includes('GET')) paths.add(route.url);
      }
      return paths;
    },
  };
}
