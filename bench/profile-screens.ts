import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { CDPSession, Page } from "playwright-core";
import { launchChromium } from "../e2e/browser";
import { freePort, serverEnv, startServer } from "../e2e/server-process";
import { signInWithLedger } from "./app-dashboard.bench";
import { apiRequests, criticalPath, RENDERED, type Rendered, renderedAt } from "./screen-timing";

/*
 * Where a screen's time goes in Chromium (decision 0105): for a reload of the signed-in app to its
 * dashboard and for each change of screen by the menu, the main thread's time by kind (Chromium's
 * Performance.getMetrics: script, style recalculation, layout, all tasks) and a CPU profile's self
 * time by script and by function (top 15), beside the screen's API time.
 *
 *   [ROUNDS=3] npx tsx bench/profile-screens.ts
 *
 * Not a benchmark (profiling slows the page): `npm run bench -- --only app-dashboard` is the record.
 */

const ROUNDS = Number(process.env.ROUNDS ?? 3);

type Node = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
};
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] };

const METRICS = ["TaskDuration", "ScriptDuration", "RecalcStyleDuration", "LayoutDuration"] as const;

const metrics = async (cdp: CDPSession) => {
  const { metrics: list } = (await cdp.send("Performance.getMetrics")) as {
    metrics: Array<{ name: string; value: number }>;
  };
  return Object.fromEntries(list.map((m) => [m.name, m.value])) as Record<string, number>;
};

const selfTimes = (profile: Profile) => {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const byFunction = new Map<string, number>();
  const byScript = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    if (!node) return;
    const file = node.callFrame.url.split("/").at(-1) || "(native)";
    const fn = `${node.callFrame.functionName || "(anonymous)"} ${file}:${node.callFrame.lineNumber}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + ms);
    byScript.set(file, (byScript.get(file) ?? 0) + ms);
  });
  const top = (map: Map<string, number>, n: number) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, ms]) => `${ms.toFixed(0).padStart(6)} ms  ${name}`);
  return { functions: top(byFunction, 15), scripts: top(byScript, 10) };
};

const measure = async (
  page: Page,
  cdp: CDPSession,
  label: string,
  act: () => Promise<number>,
  rendered: Rendered,
) => {
  const before = await metrics(cdp);
  await cdp.send("Profiler.start");
  const from = await act();
  const at = await renderedAt(page, rendered).catch(async (error: unknown) => {
    await page.screenshot({ path: path.join(".tmp", "screenshots", "profile-failed.png") });
    console.log(
      page.url(),
      await page
        .locator("main")
        .innerText()
        .catch(() => "(no main)"),
    );
    throw error;
  });
  const { profile } = (await cdp.send("Profiler.stop")) as { profile: Profile };
  const after = await metrics(cdp);
  const api = criticalPath(await apiRequests(page, from, at));
  const { functions, scripts } = selfTimes(profile);
  const timeline = await page.evaluate((since) => {
    const entries = performance
      .getEntriesByType("resource")
      .map((e) => e as PerformanceResourceTiming)
      .filter((e) => e.startTime >= since)
      .map(
        (e) =>
          `${e.startTime.toFixed(0).padStart(6)}–${e.responseEnd.toFixed(0).padStart(6)} ${e.initiatorType.padEnd(8)} ${new URL(e.name).pathname.split("/").at(-1)?.slice(0, 40)}`,
      );
    const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
    const paints = performance.getEntriesByType("paint").map((p) => `${p.name} ${p.startTime.toFixed(0)}`);
    return [
      nav && since === 0
        ? `document ${nav.requestStart.toFixed(0)}–${nav.responseEnd.toFixed(0)}, DOMContentLoaded ${nav.domContentLoadedEventEnd.toFixed(0)}`
        : "",
      ...paints,
      ...entries,
    ];
  }, from);
  console.log(`timeline (page ms):\n${timeline.join("\n")}\nrendered at ${at.toFixed(0)}`);
  console.log(`\n## ${label}: rendered ${(at - from).toFixed(0)} ms, API ${api.toFixed(0)} ms`);
  console.log(
    METRICS.map(
      (name) => `${name} ${(((after[name] ?? 0) - (before[name] ?? 0)) * 1000).toFixed(0)} ms`,
    ).join(", "),
  );
  console.log(`self time by script:\n${scripts.join("\n")}`);
  console.log(`self time by function:\n${functions.join("\n")}`);
};

const main = async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "hisob-profile-screens-"));
  const env = serverEnv(dataDir, await freePort());
  env.ADMIN_EMAIL = "bench@firm.uz";
  env.ADMIN_PASSWORD = "Bench-Passw0rd-2026";
  const server = await startServer(env, { startTimeoutMs: 300_000 });
  const browser = await launchChromium();
  try {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    page.setDefaultTimeout(120_000);
    await signInWithLedger(page, server.base);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Performance.enable");
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
    for (let round = 0; round < ROUNDS; round += 1) {
      console.log(`\n# round ${round + 1}`);
      await measure(
        page,
        cdp,
        "reload → dashboard",
        async () => {
          await page.goto(`${server.base}/app/`, { waitUntil: "commit" });
          return 0;
        },
        RENDERED.dashboard,
      );
      for (const [link, rendered] of [
        ["Accounts", RENDERED.table("Accounts")],
        ["Reports", RENDERED.report("Income statement")],
        ["Debts", RENDERED.table("Debts")],
        ["Dashboard", RENDERED.dashboard],
      ] as const) {
        await measure(
          page,
          cdp,
          `→ ${link}`,
          async () => {
            await page.evaluate(() => performance.clearResourceTimings());
            const at = await page.evaluate(() => performance.now());
            await page.locator("nav").getByRole("link", { name: link, exact: true }).click();
            return at;
          },
          rendered,
        );
      }
    }
  } finally {
    await browser.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
};

await main();
