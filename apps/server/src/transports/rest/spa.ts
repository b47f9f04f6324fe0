import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import type { FastifyPluginAsync, FastifyReply } from "fastify";

/*
 * Serves a built single-page app (Vite's output directory) under a URL prefix: `/app` for the
 * accountant app, `/admin` for the management screens. Files are served as they are; any other path
 * under the prefix gets index.html, so the app's own router handles deep links and reloads. Hashed
 * assets are cached for a year, index.html never (it names the current assets). A file with a gzip
 * copy beside it (written at build time by scripts/precompress.mjs) is sent compressed to browsers
 * that accept gzip.
 */

export type SpaOptions = {
  /** The URL prefix, e.g. "/app" (no trailing slash; not named `prefix`, which Fastify would apply twice). */
  mount: string;
  /** The build directory holding index.html and assets/. */
  dir: string;
  /** What to say when the build is missing (e.g. the command that builds it). */
  missingHint: string;
  /** The Content-Security-Policy of the app's pages. */
  contentSecurityPolicy?: string;
};

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".txt": "text/plain; charset=utf-8",
  ".map": "application/json; charset=utf-8",
};

/** Scripts and styles from the app's own origin only; API calls to the same origin. */
export const DEFAULT_SPA_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // Ant Design writes its CSS-in-JS into <style> elements at run time.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
].join("; ");

const fileOf = async (file: string) => {
  try {
    const info = await stat(file);
    return info.isFile() ? info : null;
  } catch {
    return null;
  }
};

/** Whether `accept-encoding` allows gzip (a `gzip` or `*` token whose q is not 0). */
export const acceptsGzip = (header: string | string[] | undefined): boolean => {
  const value = Array.isArray(header) ? header.join(",") : (header ?? "");
  let star = false;
  for (const part of value.split(",")) {
    const [token = "", ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const allowed = q === undefined || Number(q.slice(2)) > 0;
    if (token.trim() === "gzip") return allowed;
    if (token.trim() === "*") star = allowed;
  }
  return star;
};

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export const spaRoutes: FastifyPluginAsync<SpaOptions> = async (app, options) => {
  const root = path.resolve(options.dir);
  const csp = options.contentSecurityPolicy ?? DEFAULT_SPA_CSP;
  const index = path.join(root, "index.html");

  const sendIndex = async (reply: FastifyReply) => {
    const info = await fileOf(index);
    if (!info) {
      const hint = escapeHtml(options.missingHint);
      return reply
        .code(503)
        .type("text/html; charset=utf-8")
        .header("cache-control", "no-store")
        .send(
          `<!doctype html><html lang="en"><meta charset="utf-8"><title>Hisob</title>` +
            `<p>This app has not been built yet. ${hint}</p></html>`,
        );
    }
    return reply
      .type(CONTENT_TYPES[".html"] as string)
      .header("cache-control", "no-cache")
      .header("content-security-policy", csp)
      .header("x-content-type-options", "nosniff")
      .header("referrer-policy", "no-referrer")
      .send(createReadStream(index));
  };

  const route = { config: { public: true }, schema: { hide: true } };
  app.get(options.mount, route, (_request, reply) => reply.redirect(`${options.mount}/`, 302));
  app.get(`${options.mount}/*`, route, async (request, reply) => {
    const rest = (request.params as { "*": string })["*"];
    let relative: string;
    try {
      relative = decodeURIComponent(rest.split("?")[0] ?? "");
    } catch {
      return sendIndex(reply);
    }
    // Only files inside the build directory: "..", absolute paths and NUL never leave it.
    const file = path.resolve(root, `.${path.posix.sep}${relative}`);
    const inside = file.startsWith(`${root}${path.sep}`) && !relative.includes("\0");
    const info = inside && relative !== "" ? await fileOf(file) : null;
    if (info && path.basename(file) !== "index.html") {
      const hashed = relative.startsWith("assets/");
      const gzipped = acceptsGzip(request.headers["accept-encoding"]) ? await fileOf(`${file}.gz`) : null;
      reply
        .type(CONTENT_TYPES[path.extname(file).toLowerCase()] ?? "application/octet-stream")
        .header("cache-control", hashed ? "public, max-age=31536000, immutable" : "no-cache")
        .header("x-content-type-options", "nosniff")
        .header("vary", "accept-encoding");
      if (gzipped) {
        return reply
          .header("content-encoding", "gzip")
          .header("content-length", gzipped.size)
          .send(createReadStream(`${file}.gz`));
      }
      return reply.header("content-length", info.size).send(createReadStream(file));
    }
    // A missing asset is a 404 (a stale page asking for an old chunk must not get HTML as script).
    if (relative.startsWith("assets/") || /\.[a-z0-9]{1,8}$/i.test(relative)) {
      return reply.code(404).type("text/plain; charset=utf-8").send("Not found");
    }
    return sendIndex(reply);
  });
};
