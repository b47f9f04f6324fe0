import { createReadStream } from "node:fs";
import path from "node:path";
import type { FastifyPluginAsync } from "fastify";
import { spaRoutes } from "./spa";

/** The repository's root, from apps/server/src/transports/rest. */
const ROOT = path.resolve(import.meta.dirname, "../../../../..");

/** The single-page apps the server hosts: built by `npm run build:web` (run by `npm install`). */
export const WEB_APPS = [
  { prefix: "/app", dir: path.join(ROOT, "apps/accountant/dist/web"), workspace: "@hisob/accountant" },
  { prefix: "/admin", dir: path.join(ROOT, "apps/admin/dist/web"), workspace: "@hisob/admin" },
] as const;

export type WebApp = { prefix: string; dir: string; workspace: string };

/** The icon of every page we serve (both apps' builds copy the same file beside their index.html). */
export const FAVICON = path.join(ROOT, "packages/ui/public/favicon.ico");

/**
 * `/` sends a signed-in browser (a valid session cookie) to the accountant app and anyone else to
 * the login page, which comes back to the app afterwards; then each app under its prefix.
 */
export const webAppsRoutes: FastifyPluginAsync<{ apps?: readonly WebApp[] }> = async (app, options) => {
  app.get("/", { config: { public: true }, schema: { hide: true } }, async (request, reply) =>
    reply
      .header("cache-control", "no-store")
      .redirect(request.ctx ? "/app/" : `/login?next=${encodeURIComponent("/app/")}`, 302),
  );
  // Browsers ask for /favicon.ico on any page (the login page, an API response opened in a tab);
  // without it every such load logged a 404.
  app.get("/favicon.ico", { config: { public: true }, schema: { hide: true } }, async (_request, reply) =>
    reply
      .type("image/x-icon")
      .header("cache-control", "public, max-age=86400")
      .header("x-content-type-options", "nosniff")
      .send(createReadStream(FAVICON)),
  );
  for (const web of options.apps ?? WEB_APPS) {
    await app.register(spaRoutes, {
      mount: web.prefix,
      dir: web.dir,
      missingHint: `Build it with "npm run build:web -w ${web.workspace}" (npm install does this).`,
    });
  }
};
