import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { launchChromium } from "../e2e/browser";
import { seedLedger } from "../e2e/seed-ledger";
import { freePort, serverEnv, startServer } from "../e2e/server-process";
import { median } from "./measure";
import type { Bench } from "./run";

/*
 * The accountant app in Chromium against the real server (embedded database), on an account with
 * 100,000 transactions (seeded through the ledger tables, e2e/seed-ledger.ts): time from opening the
 * account's screen (the app already signed in and loaded: an in-app navigation) to its first rows
 * rendered, beside the same screen's API requests made directly with the same bearer token (the
 * account and the newest statement page), in the same run.
 */

const EMAIL = "bench-100k@firm.uz";
const PASSWORD = "Bench-100k-Passw0rd-2026";
const COUNT = 100_000;

export const appAccount100kBench: Bench = {
  name: "app-account-100k",
  run: async ({ iterations = 10 }) => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "hisob-bench-100k-"));
    const env = serverEnv(dataDir, await freePort());
    env.ADMIN_EMAIL = EMAIL;
    env.ADMIN_PASSWORD = PASSWORD;
    let server = await startServer(env);
    const browser = await launchChromium();
    try {
      const login = await fetch(`${server.base}/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
      });
      const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
      const me = (await (await fetch(`${server.base}/account`, { headers: { cookie } })).json()) as {
        id: string;
        tenant: { id: string };
      };
      const created = await fetch(`${server.base}/finance/accounts`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie },
        body: JSON.stringify({ name: "Main till", currency: "UZS" }),
      });
      const accountId = ((await created.json()) as { id: string }).id;
      await server.stop();
      const seeded = await seedLedger({
        dataDir,
        tenantId: me.tenant.id,
        accountId,
        userId: me.id,
        count: COUNT,
        lastDate: "2026-10-31",
      });
      server = await startServer(env);

      const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
      let bearer = "";
      page.on("request", (request) => {
        const header = request.headers().authorization;
        if (header?.startsWith("Bearer ")) bearer = header.slice(7);
      });
      await page.goto(`${server.base}/app/accounts`);
      await page.getByLabel("Email", { exact: true }).fill(EMAIL);
      await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
      await page.getByLabel("Password", { exact: true }).press("Enter");
      await page.getByRole("link", { name: "Main till", exact: true }).waitFor();

      const firstRow = page.getByTestId("statement-scroller").locator('tr[aria-rowindex="2"] td');
      const get = (procedure: string, input: unknown) =>
        fetch(`${server.base}/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`, {
          headers: { authorization: `Bearer ${bearer}` },
        }).then(async (response) => {
          if (!response.ok) throw new Error(`${procedure}: ${response.status} ${await response.text()}`);
          return response.json();
        });
      const pageMs: number[] = [];
      const apiMs: number[] = [];
      for (let i = 0; i < iterations; i += 1) {
        // From the accounts list into the account, on a fresh page load (an empty query cache).
        await page.goto(`${server.base}/app/accounts`);
        await page.getByRole("link", { name: "Main till", exact: true }).waitFor();
        const started = performance.now();
        await page.getByRole("link", { name: "Main till", exact: true }).click();
        await firstRow.nth(4).waitFor();
        pageMs.push(performance.now() - started);
        const apiStarted = performance.now();
        await Promise.all([
          get("accounts.get", { id: accountId }),
          get("reports.accountStatement", {
            accountId,
            query: { startDate: "1900-01-01", endDate: "9999-12-31", limit: 200, offset: 0, order: "desc" },
          }),
        ]);
        apiMs.push(performance.now() - apiStarted);
      }
      // For the record, what a jump costs: the server finds a page's first day and its balance from
      // the per-day balance checkpoints (account_day_totals), so the middle (offset 49,800) costs
      // about what the ends do (it took ~4 s when the window sum ran over every entry before it).
      const timed = async (query: Record<string, unknown>) => {
        const started = performance.now();
        await get("reports.accountStatement", {
          accountId,
          query: { startDate: "1900-01-01", endDate: "9999-12-31", limit: 200, ...query },
        });
        return performance.now() - started;
      };
      const oldestMs = await timed({ offset: 0, order: "asc" });
      const middleMs = await timed({ offset: COUNT / 2 - 200, order: "desc" });
      const pageMedian = median(pageMs);
      const apiMedian = median(apiMs);
      return {
        name: `app-account-100k (Chromium, embedded database, ${COUNT.toLocaleString("en")} entries)`,
        rows: [
          { label: "open the account → first rows rendered", opsPerSecond: 1000 / pageMedian, ratio: 1 },
          {
            label: "its 2 API requests (account, newest statement page), in parallel, same token",
            opsPerSecond: 1000 / apiMedian,
            ratio: apiMedian / pageMedian,
          },
        ],
        tables: [
          {
            title: "milliseconds (median of the runs)",
            rows: [
              {
                iterations,
                "seed (one statement)": Math.round(seeded.ms),
                "first rows rendered": Math.round(pageMedian),
                "API requests": Math.round(apiMedian),
                "page ÷ API": Number((pageMedian / apiMedian).toFixed(2)),
                "oldest page (asc, offset 0)": Math.round(oldestMs),
                "middle page (desc, offset 49,800)": Math.round(middleMs),
              },
            ],
          },
        ],
      };
    } finally {
      await browser.close();
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
};
