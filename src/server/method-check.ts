/**
 * Tells a wrong method on a known path (405) from an unknown path (404). Asked only when no
 * route matched, so it costs nothing on the paths that are served.
 */
import type { Hono } from 'hono';
import { TrieRouter } from 'hono/router/trie-router';

export function createMethodCheck(app: Pick<Hono, 'routes'>): (path: string) => string[] {
  let router: TrieRouter<string[]> | null = null;
  return (path) => {
    if (router === null) {
      const byPath = new Map<string, Set<string>>();
      for (const route of app.routes) {
        if (route.method === 'ALL' || route.method === 'HEAD') continue;
        const methods = byPath.get(route.path) ?? new Set<string>();
        methods.add(route.method);
        if (route.method === 'GET') methods.add('HEAD');
        methods.add('OPTIONS'); // answered for every known path (app.ts), preflight or not
        byPath.set(route.path, methods);
      }
      const built = new TrieRouter<string[]>();
      for (const [routePath, methods] of byPath) built.add('ALL', routePath, [...methods]);
      router = built;
    }
    const allowed = new Set<string>();
    for (const [methods] of router.match('ALL', path)[0]) for (const m of methods) allowed.add(m);
    return [...allowed];
  };
}
