import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserSkipReason, confineToLocal, launchChromium, requireChromium } from "./browser";
import { freePort, ROOT, serverEnv, startServer } from "./server-process";

// GraphiQL at /graphql (development) in Chromium: everything it loads comes from our own server
// (nothing from a CDN: any other origin is blocked and recorded), under its CSP with no violation, and
// it runs a query as the signed-in user and opens a subscription over WebSocket. A screenshot goes to
// .tmp/shots/sec-graphql/ for a human to look at.

const SHOTS = path.join(ROOT, ".tmp/shots/sec-graphql");
const EMAIL = "owner@graphiql.uz";
const PASSWORD = "GraphiQL-Passw0rd-2026";

const skipReason = browserSkipReason();
if (skipReason) console.warn(`graphiql.browser.spec.ts skipped: ${skipReason}`);

describe.skipIf(skipReason !== undefined)("GraphiQL, served by us, in a real browser", () => {
  let dataDir = "";
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    requireChromium();
    mkdirSync(SHOTS, { recursive: true });
    dataDir = mkdtempSync(path.join(tmpdir(), "hisob-e2e-graphiql-"));
    const env = serverEnv(dataDir, await freePort());
    env.ADMIN_EMAIL = EMAIL;
    env.ADMIN_PASSWORD = PASSWORD;
    const launching = launchChromium();
    launching.catch(() => undefined);
    server = await startServer(env);
    browser = await launching;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /**
   * Replaces the query in the editor (Monaco) by pasting it: typed, the editor would close every brace twice.
   * Pastes again until the editor shows exactly the query: on a busy machine the first keys can reach the
   * editor before it takes the focus, and the run would send GraphiQL's default comments instead.
   */
  const typeQuery = async (page: Page, query: string) => {
    await page.evaluate((text) => navigator.clipboard.writeText(text), query);
    const editor = page.locator(".graphiql-query-editor .monaco-editor").first();
    await expect
      .poll(
        async () => {
          await editor.click();
          await page.keyboard.press("Control+A");
          await page.keyboard.press("Control+V");
          return (await editor.locator(".view-lines").innerText()).replace(/\s+/g, " ").trim();
        },
        { timeout: 30_000 },
      )
      .toBe(query);
  };

  it("loads only from our origin, under its CSP, and runs a query and a subscription as the signed-in user", async () => {
    const base = server?.base ?? "";
    const login = await fetch(`${base}/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
    });
    expect(login.status).toBe(200);
    const session = (login.headers.get("set-cookie") ?? "").split(";")[0]?.split("=")[1] ?? "";
    const context = await (browser as Browser).newContext({ viewport: { width: 1280, height: 800 } });
    await context.addCookies([{ name: "session", value: session, url: base }]);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
    const page = await context.newPage();
    const confinement = await confineToLocal(page, { allowed: [base], stubbed: [] });
    const violations: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
    });
    const sockets: string[] = [];
    page.on("websocket", (socket) => sockets.push(socket.url()));

    const response = await page.goto(`${base}/graphql`);
    expect(response?.headers()["content-security-policy"]).toMatch(/frame-ancestors 'none'/);
    await page.locator(".graphiql-query-editor .monaco-editor").first().waitFor({ timeout: 60_000 });

    await typeQuery(page, "{ me { email } }");
    await page.keyboard.press("Control+Enter");
    const result = page.locator(".graphiql-response");
    await expect.poll(async () => result.innerText(), { timeout: 30_000 }).toContain(EMAIL);
    await page.screenshot({ path: path.join(SHOTS, "graphiql-query.png") });

    // A subscription: GraphiQL opens a graphql-ws socket to our own origin (the CSP's connect-src).
    await typeQuery(page, "subscription { sessionDeleted { token } }");
    await page.keyboard.press("Control+Enter");
    await expect.poll(() => sockets.length, { timeout: 30_000 }).toBeGreaterThan(0);
    expect(new URL(sockets[0] as string).host).toBe(new URL(base).host);

    expect(confinement.blocked).toEqual([]);
    expect(violations).toEqual([]);
    await context.close();
  });
});
