import { createHash } from "node:crypto";
import { AppError } from "@hisob/kernel";
import type { FastifyReply } from "fastify";
import { z } from "zod";
import type { App } from "../../app";

/*
 * GraphiQL at /graphql (on outside production): the page and every asset it loads — the IDE, its styles,
 * the editor's workers, the icon — come from @graphql-yoga/render-graphiql in node_modules, so it works
 * offline and runs nothing from a CDN. The page carries no inline script (its options travel as JSON in a
 * non-executable <script type="application/json">), so the CSP allows scripts and workers from our own
 * origin only; GraphiQL and its editor write <style> elements at run time, hence 'unsafe-inline' for
 * styles. It is never framed. docs/decisions/0013-graphiql-self-hosted.md
 */

export const GRAPHIQL_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "worker-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  // Queries over HTTP and subscriptions over WebSocket, both to our own origin ('self' covers ws: and wss:).
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join("; ");

/** The editor's workers by the label the editor asks for (Monaco's getWorkerUrl). */
const WORKERS = {
  editorWorkerService: "editor.worker.js",
  json: "json.worker.js",
  graphql: "graphql.worker.js",
} as const;

/** Runs before the IDE's script: where the editor's workers are, then the IDE once the page is parsed. */
const BOOT = `(() => {
  "use strict";
  const base = document.currentScript.src.replace(/boot\\.js$/, "");
  const workers = ${JSON.stringify(WORKERS)};
  self.MonacoEnvironment = {
    globalAPI: false,
    getWorkerUrl: (_moduleId, label) => base + (workers[label] || workers.editorWorkerService),
  };
  window.addEventListener("DOMContentLoaded", () => {
    const options = JSON.parse(document.getElementById("graphiql-options").textContent);
    YogaGraphiQL.renderYogaGraphiQL(document.getElementById("root"), options);
  });
})();
`;

type Asset = { type: string; body: string | Buffer };

/** An asset's path: a content hash (base64url) and a file name as ours are written. */
const ZAssetParams = z.object({
  version: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  file: z.string().regex(/^[a-z][a-z.]{0,38}\.(js|css|ico)$/),
});

const loadAssets = async () => {
  const bundle = await import("@graphql-yoga/render-graphiql/graphiql");
  const favicon = Buffer.from(bundle.favicon.slice(bundle.favicon.indexOf(",") + 1), "base64");
  const script = "text/javascript; charset=utf-8";
  const assets = new Map<string, Asset>([
    ["boot.js", { type: script, body: BOOT }],
    ["graphiql.js", { type: script, body: bundle.js }],
    ["graphiql.css", { type: "text/css; charset=utf-8", body: bundle.css }],
    [WORKERS.editorWorkerService, { type: script, body: bundle.editorWorkerService }],
    [WORKERS.json, { type: script, body: bundle.jsonWorker }],
    [WORKERS.graphql, { type: script, body: bundle.graphqlWorker }],
    ["favicon.ico", { type: "image/x-icon", body: favicon }],
  ]);
  // The assets' path names their content: cached for good, a new version is a new path.
  const hash = createHash("sha256");
  for (const asset of assets.values()) hash.update(asset.body);
  return { assets, version: hash.digest("base64url").slice(0, 16) };
};

/** JSON inside <script type="application/json">: no "<" can close the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const secured = (reply: FastifyReply) =>
  reply
    .header("content-security-policy", GRAPHIQL_CSP)
    .header("x-content-type-options", "nosniff")
    .header("x-frame-options", "DENY")
    .header("referrer-policy", "no-referrer");

export const graphiqlRoutes = (app: App, options: { path: string; endpoint: string; title: string }) => {
  let loading: ReturnType<typeof loadAssets> | undefined;
  const assets = () => {
    loading ??= loadAssets().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
  const route = { config: { public: true }, schema: { hide: true } };

  app.get(options.path, route, async (_request, reply) => {
    const { version } = await assets();
    const base = `${options.path}/assets/${version}/`;
    const settings = {
      endpoint: options.endpoint,
      title: options.title,
      subscriptionsProtocol: "WS",
      credentials: "same-origin",
    };
    const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(options.title)}</title>
<link rel="icon" href="${base}favicon.ico">
<link rel="stylesheet" href="${base}graphiql.css">
</head>
<body id="body" class="no-focus-outline">
<noscript>GraphiQL needs JavaScript.</noscript>
<div id="root"></div>
<script type="application/json" id="graphiql-options">${scriptJson(settings)}</script>
<script src="${base}boot.js"></script>
<script src="${base}graphiql.js"></script>
</body>
</html>
`;
    return secured(reply).type("text/html; charset=utf-8").header("cache-control", "no-store").send(page);
  });

  app.get(
    `${options.path}/assets/:version/:file`,
    { ...route, schema: { ...route.schema, params: ZAssetParams } },
    async (request, reply) => {
      const { version, file } = request.params as z.infer<typeof ZAssetParams>;
      const loaded = await assets();
      const asset = loaded.assets.get(file);
      // Another version's path, or a file we do not serve: the same NOT_FOUND body as every route.
      if (!asset || version !== loaded.version) throw new AppError("NOT_FOUND");
      return secured(reply)
        .type(asset.type)
        .header("cache-control", "public, max-age=31536000, immutable")
        .send(asset.body);
    },
  );
};
