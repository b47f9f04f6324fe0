import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { launchChromium } from "../e2e/browser";
import { freePort, ROOT, serverEnv, startServer } from "../e2e/server-process";
import { buildVariants } from "./build-variants";
import { median } from "./measure";
import type { Figure } from "./report";
import type { Bench } from "./run";
import {
  type ApiRequest,
  apiRequests,
  criticalPath,
  RENDERED,
  type Rendered,
  renderedAt,
  repeatedRequests,
} from "./screen-timing";

/*
 * The accountant app in Chromium against the real server (embedded database), each screen beside its
 * API time as the browser saw it (bench/screen-timing.ts: the critical path of the screen's API
 * requests, from Resource Timing), in the same run, rounds taking turns:
 * - first screen, a new tab: /app with a live provider session but nothing kept in the tab, so the
 *   app signs in through the provider (authorize → callback → code exchange) before it asks for data;
 * - first screen, a reload of a signed-in tab (it resumes its session: decision 0089);
 * - screen changes in the reloaded tab, by the side menu: dashboard → accounts → reports → debts →
 *   dashboard, each the screen's first visit in that page load (its chunk from the HTTP cache).
 * - a report's period chosen (decision 0105): on the income statement, then on the cash flow, from the
 *   click on the period's preset to the report rendered for it (its period line changed, rows shown);
 * Also, as before, the dashboard's API requests made directly from Node with the same token.
 * First-screen times are wall time in this process from page.goto to the frame the screen showed;
 * screen changes are the page's own clock from just before the click to that frame.
 */

const EMAIL = "bench@firm.uz";
const PASSWORD = "Bench-Passw0rd-2026";

type Sample = { screenMs: number; apiMs: number; requests: number; repeated: number };

const CHANGES = [
  { from: "dashboard", to: "accounts", link: "Accounts", rendered: RENDERED.table("Accounts") },
  { from: "accounts", to: "reports", link: "Reports", rendered: RENDERED.report("Income statement") },
  { from: "reports", to: "debts", link: "Debts", rendered: RENDERED.table("Debts") },
  { from: "debts", to: "dashboard", link: "Dashboard", rendered: RENDERED.dashboard },
] as const;

/** After the screen changes: a report's period chosen, then the next report (its period kept), then its period. */
const PERIOD_CHOICES = [
  { report: "Income statement", preset: "Last year" },
  { report: "Cash flow", preset: "This year" },
] as const;

const sampleOf = (screenMs: number, requests: ApiRequest[]): Sample => ({
  screenMs,
  apiMs: criticalPath(requests),
  requests: requests.length,
  repeated: repeatedRequests(requests),
});

/** Opens /app and waits for the dashboard: wall ms, and its API requests in the final document. */
const firstScreen = async (page: Page, base: string): Promise<Sample> => {
  const started = performance.now();
  await page.goto(`${base}/app/`);
  const at = await renderedAt(page, RENDERED.dashboard);
  const screenMs = performance.now() - started;
  return sampleOf(screenMs, await apiRequests(page, 0, at));
};

const screenChange = async (page: Page, link: string, rendered: Rendered): Promise<Sample> => {
  await page.evaluate(() => performance.clearResourceTimings());
  const menu = page.locator("nav").getByRole("link", { name: link, exact: true });
  const clickedAt = await page.evaluate(() => performance.now());
  await menu.click();
  const at = await renderedAt(page, rendered).catch(async (error: unknown) => {
    await page.screenshot({ path: path.join(".tmp", "screenshots", `bench-${link}.png`) });
    throw new Error(`${link}: ${String(error)}`);
  });
  return sampleOf(at - clickedAt, await apiRequests(page, clickedAt, at));
};

/**
 * Signs the bench's administrator in at /app and gives the organization three accounts of twenty
 * payments each, so every dashboard card has something to show; `call` asks tRPC with the page's token.
 */
/**
 * On the reports screen: from choosing `preset` in the period's list to the report rendered for that
 * period (its period line changed, its skeleton gone, its rows shown), beside its API time.
 */
const periodChange = async (page: Page, report: string, preset: string): Promise<Sample> => {
  const rendered = RENDERED.report(report);
  if (!(await page.locator("main h1", { hasText: report }).count())) {
    // The reports' navigation (decision 0108); a build before it had a segmented switcher.
    await page
      .locator('[data-testid^="report-nav-"], .ant-segmented-item', { hasText: report })
      .first()
      .click();
    await renderedAt(page, rendered);
  }
  const line = page.getByTestId("report-period");
  const from = (await line.textContent()) ?? "";
  await page.getByTestId("report-preset").click();
  const option = page.locator(".ant-select-item-option", { hasText: preset });
  await option.waitFor();
  await page.evaluate(() => performance.clearResourceTimings());
  const chosenAt = await page.evaluate(() => performance.now());
  await option.click();
  const at = await renderedAt(page, {
    ...rendered,
    changed: { selector: '[data-testid="report-period"]', from },
  });
  return sampleOf(at - chosenAt, await apiRequests(page, chosenAt, at));
};

export const signInWithLedger = async (page: Page, base: string) => {
  let bearer = "";
  page.on("request", (request) => {
    const header = request.headers().authorization;
    if (header?.startsWith("Bearer ")) bearer = header.slice(7);
  });
  await page.goto(`${base}/app/`);
  await page.getByLabel("Email", { exact: true }).fill(EMAIL);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Password", { exact: true }).press("Enter");
  await renderedAt(page, RENDERED.dashboard);
  // A few accounts with postings, so every card has something to show.
  const call = (procedure: string, input: unknown, method: "GET" | "POST" = "GET") =>
    fetch(
      method === "GET"
        ? `${base}/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`
        : `${base}/trpc/${procedure}`,
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
  return { call, today };
};

export const appDashboardBench: Bench = {
  name: "app-dashboard",
  run: async ({ iterations = 10 }) => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "hisob-bench-app-"));
    const env = serverEnv(dataDir, await freePort());
    env.ADMIN_EMAIL = EMAIL;
    env.ADMIN_PASSWORD = PASSWORD;
    // A start on a machine shared by several builds can take longer than the tests' 90 s (not timed).
    const server = await startServer(env, { startTimeoutMs: 300_000 });
    const browser = await launchChromium();
    try {
      const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
      page.setDefaultTimeout(120_000);
      const { call, today } = await signInWithLedger(page, server.base);
      const monthStart = `${today.slice(0, 8)}01`;
      const yearAgo = new Date(Date.UTC(Number(today.slice(0, 4)) - 1, Number(today.slice(5, 7)), 1))
        .toISOString()
        .slice(0, 10);
      const directApi = async () => {
        const started = performance.now();
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
        return performance.now() - started;
      };

      // Two builds side by side when APP_BUILDS names them (bench/build-variants.ts), else this one.
      const builds = buildVariants("APP_BUILDS", path.join(ROOT, "apps/accountant/dist/web"));
      type Samples = {
        newTab: Sample[];
        reload: Sample[];
        changes: Map<string, Sample[]>;
        periods: Map<string, Sample[]>;
      };
      const byBuild = new Map<string, Samples>(
        builds.variants.map((build) => [
          build.name,
          {
            newTab: [],
            reload: [],
            changes: new Map(CHANGES.map((change) => [change.to, []])),
            periods: new Map(PERIOD_CHOICES.map((choice) => [choice.report, []])),
          },
        ]),
      );
      const direct: number[] = [];
      try {
        // One warm-up round (chunks into the HTTP cache, V8 and the database warm), then the counted ones.
        for (let round = 0; round <= iterations; round += 1) {
          // Builds take turns, each going first in every other round.
          const order = round % 2 === 1 ? [...builds.variants].reverse() : builds.variants;
          for (const build of order) {
            build.use();
            // A new tab: nothing kept in sessionStorage, the provider's login session still live.
            await page.evaluate(() => sessionStorage.clear());
            const signedIn = await firstScreen(page, server.base);
            const resumed = await firstScreen(page, server.base);
            const changed: Sample[] = [];
            for (const change of CHANGES)
              changed.push(await screenChange(page, change.link, change.rendered));
            // The reports screen again, for its period choices (not timed: its data is cached by now).
            await screenChange(page, "Reports", RENDERED.report("Income statement"));
            const chosen: Sample[] = [];
            for (const choice of PERIOD_CHOICES)
              chosen.push(await periodChange(page, choice.report, choice.preset));
            if (round === 0) continue;
            const samples = byBuild.get(build.name) as Samples;
            samples.newTab.push(signedIn);
            samples.reload.push(resumed);
            CHANGES.forEach((change, i) => {
              samples.changes.get(change.to)?.push(changed[i] as Sample);
            });
            PERIOD_CHOICES.forEach((choice, i) => {
              samples.periods.get(choice.report)?.push(chosen[i] as Sample);
            });
          }
          const directMs = await directApi();
          if (round > 0) direct.push(directMs);
        }
      } finally {
        builds.restore();
      }

      const summary = (label: string, samples: Sample[]) => {
        const screen = median(samples.map((s) => s.screenMs));
        const api = median(samples.map((s) => s.apiMs));
        const ratios = samples.map((s) => s.screenMs / Math.max(1, s.apiMs));
        const over = samples.map((s) => s.screenMs - s.apiMs);
        return {
          figure: {
            case: `${label}: screen rendered vs its API time (critical path, as the browser saw it)`,
            ours: `${Math.round(screen)} ms`,
            baseline: `${Math.round(api)} ms`,
            ratio: screen / Math.max(1, api),
            spread: [Math.min(...ratios), Math.max(...ratios)] as [number, number],
            better: "lower" as const,
          } satisfies Figure,
          row: {
            screen: label,
            "rendered ms (median)": Math.round(screen),
            "rendered ms (min–max)": `${Math.round(Math.min(...samples.map((s) => s.screenMs)))}–${Math.round(Math.max(...samples.map((s) => s.screenMs)))}`,
            "API time ms (median)": Math.round(api),
            "API requests": median(samples.map((s) => s.requests)),
            // The same request twice (a started query whose key the screen does not share): should be 0.
            "repeated requests (max)": Math.max(...samples.map((s) => s.repeated)),
            "rendered ÷ API (median of rounds)": Number(median(ratios).toFixed(2)),
            "rendered − API ms (median)": Math.round(median(over)),
          },
        };
      };
      const several = builds.variants.length > 1;
      const results = [...byBuild.entries()].map(([build, samples]) => {
        const named = (label: string) => (several ? `${build}: ${label}` : label);
        const all = [
          summary(named("first screen, new tab (signs in through the provider)"), samples.newTab),
          summary(named("first screen, reload of a signed-in tab"), samples.reload),
          ...CHANGES.map((change) =>
            summary(
              named(`screen change ${change.from} → ${change.to}`),
              samples.changes.get(change.to) ?? [],
            ),
          ),
          ...PERIOD_CHOICES.map((choice) =>
            summary(
              named(`${choice.report}: period "${choice.preset}" chosen`),
              samples.periods.get(choice.report) ?? [],
            ),
          ),
        ];
        const reloadMedian = median(samples.reload.map((s) => s.screenMs));
        const newTabMedian = median(samples.newTab.map((s) => s.screenMs));
        return { build, all, reloadMedian, newTabMedian, named };
      });
      return {
        name: "app-dashboard (Chromium, embedded database)",
        rows: [],
        figures: results.flatMap(({ all, reloadMedian, newTabMedian, named }) => [
          ...all.map((entry) => entry.figure),
          {
            case: named(
              "first screen: reload of a signed-in tab vs a new tab (sign-in through the provider)",
            ),
            ours: `${Math.round(reloadMedian)} ms`,
            baseline: `${Math.round(newTabMedian)} ms`,
            ratio: reloadMedian / newTabMedian,
            better: "lower" as const,
          },
        ]),
        tables: [
          ...results.map(({ build, all }) => ({
            title: `${several ? `${build}: ` : ""}milliseconds, ${iterations} rounds after one warm-up round, taking turns within each round${several ? " (and with the other build)" : ""}`,
            rows: all.map((entry) => entry.row),
          })),
          {
            title: "the dashboard's 8 API requests made directly from Node, in parallel, same token",
            rows: [
              {
                "median ms": Math.round(median(direct)),
                "min–max ms": `${Math.round(Math.min(...direct))}–${Math.round(Math.max(...direct))}`,
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
