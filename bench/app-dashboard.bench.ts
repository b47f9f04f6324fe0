import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { launchChromium } from "../e2e/browser";
import { freePort, serverEnv, startServer } from "../e2e/server-process";
import { median } from "./measure";
import type { Bench } from "./run";

/*
 * The accountant app in Chromium against the real server (embedded database): time from opening
 * /app with a live provider session to the dashboard rendered (every card past its skeleton; a reload
 * signs in again through the provider, as the browser host keeps tokens in memory only), beside the
 * time of the dashboard's own API requests made directly with the same bearer token, in the same run.
 */

const EMAIL = "bench@firm.uz";
const PASSWORD = "Bench-Passw0rd-2026";

export const appDashboardBench: Bench = {
  name: "app-dashboard",
  run: async ({ iterations = 10 }) => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "hisob-bench-app-"));
    const env = serverEnv(dataDir, await freePort());
    env.ADMIN_EMAIL = EMAIL;
    env.ADMIN_PASSWORD = PASSWORD;
    const server = await startServer(env);
    const browser = await launchChromium();
    try {
      const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
      let bearer = "";
      page.on("request", (request) => {
        const header = request.headers().authorization;
        if (header?.startsWith("Bearer ")) bearer = header.slice(7);
      });
      await page.goto(`${server.base}/app/`);
      await page.getByLabel("Email", { exact: true }).fill(EMAIL);
      await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
      await page.getByLabel("Password", { exact: true }).press("Enter");
      const rendered = async () => {
        await page.getByRole("heading", { name: "Dashboard" }).waitFor();
        for (const card of ["balances", "this-month", "twelve-months", "next-debts"]) {
          await page.getByTestId(card).locator(".ant-empty, table, .ant-list, svg").first().waitFor();
        }
      };
      await rendered();
      // A few accounts with postings, so every card has something to show.
      const call = (procedure: string, input: unknown, method: "GET" | "POST" = "GET") =>
        fetch(
          method === "GET"
            ? `${server.base}/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`
            : `${server.base}/trpc/${procedure}`,
          {
            method,
            headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
            ...(method === "POST" ? { body: JSON.stringify(input) } : {}),
          },
        ).then(async (response) => {
          if (!response.ok) throw new Error(`${procedure}: ${response.status} ${await response.text()}`);
          return response.json() as Promise<{ result: { data: { id: string } } }>;
        });
      const today = new Date().toISOString().slice(0, 10);
      for (const name of ["Cash", "Bank", "Card"]) {
        const account = await call("accounts.create", { name, currency: "UZS" }, "POST");
        for (let i = 0; i < 20; i += 1) {
          await call(
            "payments.create",
            { accountId: account.result.data.id, amount: "150000", date: today },
            "POST",
          );
        }
      }

      const pageMs: number[] = [];
      const apiMs: number[] = [];
      const monthStart = `${today.slice(0, 8)}01`;
      const yearAgo = new Date(Date.UTC(Number(today.slice(0, 4)) - 1, Number(today.slice(5, 7)), 1))
        .toISOString()
        .slice(0, 10);
      for (let i = 0; i < iterations; i += 1) {
        const started = performance.now();
        await page.goto(`${server.base}/app/`);
        await rendered();
        pageMs.push(performance.now() - started);
        const apiStarted = performance.now();
        await Promise.all([
          call("session.me", undefined),
          call("currencies.selected", undefined),
          call("accounts.list", { limit: 100, sortBy: "name", order: "asc" }),
          call("reports.incomeStatement", { startDate: monthStart, endDate: today }),
          call("reports.cashflow", { startDate: yearAgo, endDate: today, granularity: "month" }),
          call("debts.list", { sortBy: "dueDate", order: "asc", limit: 5, status: "pending" }),
          call("debts.list", { sortBy: "dueDate", order: "asc", limit: 5, status: "partial" }),
          call("counterparties.list", { limit: 100 }),
        ]);
        apiMs.push(performance.now() - apiStarted);
      }
      const pageMedian = median(pageMs);
      const apiMedian = median(apiMs);
      return {
        name: "app-dashboard (Chromium, embedded database)",
        rows: [
          {
            label: "open /app → dashboard rendered (incl. silent OIDC sign-in)",
            opsPerSecond: 1000 / pageMedian,
            ratio: 1,
          },
          {
            label: "the dashboard's 8 API requests, in parallel, same token",
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
                "dashboard rendered": Math.round(pageMedian),
                "API requests": Math.round(apiMedian),
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
