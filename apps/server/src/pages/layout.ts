import { createHash } from "node:crypto";
import type { Locale } from "@hisob/kernel";
import type { FastifyReply } from "fastify";
import { html, type SafeHtml } from "./html";

// One stylesheet for every server-rendered page, inline so a page works alone; the CSP allows it by hash.
const STYLE = html`<style>
:root{color-scheme:light;--ink:#1f2933;--muted:#52606d;--line:#7b8794;--brand:#0b5cad;--brand-dark:#08477f;--focus:#1d4ed8;--danger:#b42318}
*{box-sizing:border-box}
body{margin:0;padding:1rem;min-height:100vh;display:grid;place-items:center;background:#f2f4f7;color:var(--ink);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{width:100%;min-width:0;max-width:25rem;padding:2rem;background:#fff;border:1px solid #d9e2ec;border-radius:.75rem;box-shadow:0 1px 3px rgb(0 0 0 / 8%)}
h1{margin:0 0 .25rem;font-size:1.5rem;line-height:1.3}
p{margin:0 0 1.5rem;color:var(--muted)}
.error{margin:0 0 1.25rem;padding:.75rem 1rem;border:1px solid var(--danger);border-left-width:4px;border-radius:.375rem;background:#fef3f2;color:var(--danger)}
label{display:block;margin:0 0 .25rem;font-weight:600}
input{display:block;width:100%;margin:0 0 1rem;padding:.625rem .75rem;border:1px solid var(--line);border-radius:.375rem;background:#fff;color:inherit;font:inherit}
button{width:100%;margin-top:.5rem;padding:.7rem 1rem;border:0;border-radius:.375rem;background:var(--brand);color:#fff;font:inherit;font-weight:600;cursor:pointer}
button:hover{background:var(--brand-dark)}
a{color:var(--brand)}
.separator{margin:1rem 0 .5rem;text-align:center;font-size:.875rem}
a.button{display:block;padding:.65rem 1rem;border:1px solid var(--brand);border-radius:.375rem;text-align:center;font-weight:600;text-decoration:none}
a.button:hover{background:#eef4fb}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
nav{margin-top:1.5rem;padding-top:1rem;border-top:1px solid #d9e2ec}
nav ul{display:flex;flex-wrap:wrap;justify-content:center;gap:.5rem 1.25rem;margin:0;padding:0;list-style:none}
nav a[aria-current]{color:var(--ink);font-weight:600;text-decoration:none}
ul.scopes{margin:0 0 1.5rem;padding-left:1.25rem}
ul.scopes li{margin:.25rem 0}
button.secondary{background:#fff;color:var(--brand);border:1px solid var(--brand)}
button.secondary:hover{background:#eef4fb}
.hint{margin:1rem 0 0;font-size:.875rem}
</style>`;

const STYLE_HASH = createHash("sha256")
  .update(STYLE.value.slice("<style>".length, -"</style>".length))
  .digest("base64");

/**
 * Nothing but our inline style (and our own icon) may load or run. No `form-action`: Chrome applies it to the redirect
 * that follows a submit, which would block the OIDC flow's redirect back to a client.
 */
export const PAGE_CSP = `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; img-src 'self'; base-uri 'none'; frame-ancestors 'none'`;

export const layout = (page: {
  locale: Locale;
  title: string;
  body: SafeHtml;
}): SafeHtml => html`<!doctype html>
<html lang="${page.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title}</title>
<link rel="icon" href="/favicon.ico" sizes="any">
${STYLE}
</head>
<body>
${page.body}
</body>
</html>
`;

/** Sends a page: never cached (it carries a CSRF token), never framed, referrer kept to our own origin. */
export const sendPage = (reply: FastifyReply, status: number, locale: Locale, page: SafeHtml): FastifyReply =>
  reply
    .code(status)
    .header("content-type", "text/html; charset=utf-8")
    .header("content-language", locale)
    .header("cache-control", "no-store")
    .header("content-security-policy", PAGE_CSP)
    .header("x-frame-options", "DENY")
    .header("x-content-type-options", "nosniff")
    // "same-origin", not "no-referrer": with no-referrer some browsers send `Origin: null` on our own posts.
    .header("referrer-policy", "same-origin")
    .send(page.value);
