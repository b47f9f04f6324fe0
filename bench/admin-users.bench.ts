import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { syncPermissions } from "@hisob/core";
import { createOutbox } from "@hisob/db";
import { composeServices } from "../apps/server/src/app-context";
import { type App, buildServer } from "../apps/server/src/server";
import { launchChromium } from "../e2e/browser";
import { median } from "./measure";
import type { Bench } from "./run";
import { benchEnv, benchTenantAdmin, openPglite, openPostgres, seedUsers } from "./users.bench";

/**
 * The admin Users screen on a tenant with 100,000 users, in Debian's Chromium against the server
 * listening on a port (the built /admin app, the real REST route), beside the API alone in the same run:
 *  - navigation to /admin/users → the first page of rows rendered, vs GET /users (same query) over HTTP;
 *  - search as you type: the last keystroke → the filtered rows rendered (this includes the screen's
 *    250 ms debounce), vs GET /users?email=… over HTTP.
 * PGlite by default; a throwaway PostgreSQL database when DATABASE_URL is set.
 */

const DEFAULT_USERS = 100_000;
const DEFAULT_ROUNDS = 7;
const DEBOUNCE_MS = 250;

const ms = (start: number) => performance.now() - start;

export const adminUsersBench: Bench = {
  name: "admin-users",
  run: async ({ iterations, users }) => {
    const userCount = users ?? DEFAULT_USERS;
    const rounds = iterations ?? DEFAULT_ROUNDS;
    const adminUrl = process.env.DATABASE_URL;
    const database = adminUrl ? await openPostgres(adminUrl) : await openPglite();
    const { db, sql } = database;
    const uploadsDir = mkdtempSync(path.join(tmpdir(), "hisob-bench-uploads-"));
    let app: App | undefined;
    const browser = await launchChromium();
    try {
      const outbox = createOutbox(db);
      await syncPermissions(db);
      const env = benchEnv();
      const { services } = composeServices(db, outbox, env, { uploadsDir });
      app = await buildServer({ env, db, services, logger: false });
      await app.listen({ port: 0, host: "127.0.0.1" });
      const address = app.server.address();
      const base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;

      const { tenant, token } = await benchTenantAdmin(db, outbox, services);
      await seedUsers(db, tenant.id, userCount);
      await sql.exec("ANALYZE users, user_roles, group_users, roles, groups");

      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      await context.addCookies([{ name: "session", value: token, url: base }]);
      const page = await context.newPage();
      const api = async (query: string) => {
        const start = performance.now();
        const res = await fetch(`${base}/users${query}`, { headers: { authorization: `Bearer ${token}` } });
        await res.json();
        return ms(start);
      };
      // The screen's own first query (newest first, 20 rows) and a search it makes.
      const firstPage = "?sortBy=createdAt&order=desc&limit=20&offset=0";
      const search = (term: string) =>
        `?email=${encodeURIComponent(term)}&sortBy=createdAt&order=desc&limit=20&offset=0`;

      // Warm up both paths once (JIT, caches, the browser's asset cache).
      await page.goto(`${base}/admin/users`);
      await page.locator(".ant-table-row").first().waitFor();
      await api(firstPage);

      const navigation: number[] = [];
      const searchRoundTrip: number[] = [];
      const apiFirstPage: number[] = [];
      const apiSearch: number[] = [];
      for (let round = 0; round < rounds; round++) {
        const start = performance.now();
        await page.goto(`${base}/admin/users`);
        await page.locator(".ant-table-row").first().waitFor();
        navigation.push(ms(start));
        apiFirstPage.push(await api(firstPage));

        // Type a term that matches ~1/10 of the users, then wait for the table to show only matches.
        const term = `bench${(round % 9) + 1}7`;
        const box = page.getByLabel("Search by email");
        await box.fill(term.slice(0, -1));
        const typed = performance.now();
        await box.press(term.slice(-1));
        await page.waitForFunction((expected) => {
          const rows = [...document.querySelectorAll(".ant-table-row")];
          return rows.length > 0 && rows.every((row) => row.textContent?.includes(expected));
        }, term);
        searchRoundTrip.push(ms(typed));
        apiSearch.push(await api(search(term)));
        await box.fill("");
      }
      const row = (label: string, screen: number[], apiTimes: number[]) => ({
        case: label,
        "screen median ms": Math.round(median(screen)),
        "API median ms": Math.round(median(apiTimes)),
        "screen − API ms": Math.round(median(screen) - median(apiTimes)),
      });
      return {
        name: `admin-users: the Users screen on ${userCount.toLocaleString("en")} users, Chromium, ${database.label}, ${rounds} rounds`,
        rows: [],
        tables: [
          {
            title: `Screen vs API (the search includes the screen's ${DEBOUNCE_MS} ms debounce)`,
            rows: [
              row("navigation → first page rendered", navigation, apiFirstPage),
              row("last keystroke → search results rendered", searchRoundTrip, apiSearch),
            ],
          },
        ],
      };
    } finally {
      await browser.close();
      await app?.close();
      await database.close();
      rmSync(uploadsDir, { recursive: true, force: true });
    }
  },
};
