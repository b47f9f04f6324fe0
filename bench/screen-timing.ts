import type { Page } from "playwright-core";

/*
 * A screen's time beside its API time, both as the browser saw them.
 *
 * API time: the screen's API requests (fetch/XHR to tRPC, REST or GraphQL over HTTP — not documents,
 * scripts, styles or the sign-in's OIDC requests) taken from the page's Resource Timing entries, each
 * from its startTime to its responseEnd. A request that started after another had ended may have
 * waited for it; so the API time is the longest chain of requests each started after the previous one
 * ended — the sum of the durations along the critical path. Requests in parallel count once (the
 * longest of them). Requests that started after the screen was rendered are not the screen's.
 */

/** `url`: the request's path and query (two requests for the same data have the same one). */
export type ApiRequest = { url: string; start: number; end: number };

/** Requests for an address already asked for in the same screen: a screen that asked twice for its data. */
export const repeatedRequests = (requests: ApiRequest[]): number =>
  requests.length - new Set(requests.map((request) => request.url)).size;

/** Longest chain r1 → r2 → … with each r(i+1) started at or after r(i) ended: the sum of its durations. */
export const criticalPath = (requests: ApiRequest[]): number => {
  const sorted = [...requests].sort((a, b) => a.start - b.start);
  const best: number[] = [];
  let longest = 0;
  sorted.forEach((request, i) => {
    let before = 0;
    for (let j = 0; j < i; j += 1) {
      const earlier = sorted[j] as ApiRequest;
      if (earlier.end <= request.start) before = Math.max(before, best[j] ?? 0);
    }
    best[i] = before + (request.end - request.start);
    longest = Math.max(longest, best[i] ?? 0);
  });
  return longest;
};

/** Our API paths: tRPC, REST (the admin screens call it), GraphQL over HTTP; not the apps' own files under /app and /admin. */
export const isApiPath = (pathname: string): boolean =>
  !pathname.startsWith("/oidc/") &&
  !pathname.startsWith("/.well-known/") &&
  !pathname.startsWith("/app/") &&
  !pathname.startsWith("/admin/") &&
  !/\.(js|css|svg|ico|png|woff2?)$/.test(pathname);

/** The page's API requests started in [from, until] (page milliseconds, performance.now()). */
export const apiRequests = async (page: Page, from: number, until: number): Promise<ApiRequest[]> => {
  const entries = await page.evaluate(() =>
    performance.getEntriesByType("resource").map((entry) => {
      const timing = entry as PerformanceResourceTiming;
      return {
        url: timing.name,
        initiator: timing.initiatorType,
        start: timing.startTime,
        end: timing.responseEnd,
      };
    }),
  );
  return entries
    .filter(
      (entry) =>
        (entry.initiator === "fetch" || entry.initiator === "xmlhttprequest") &&
        isApiPath(new URL(entry.url).pathname) &&
        entry.start >= from &&
        entry.start <= until,
    )
    .map(({ url, start, end }) => {
      const address = new URL(url);
      return { url: address.pathname + address.search, start, end };
    });
};

/**
 * What a person sees as the screen loaded: its h1, no skeleton or spinner in <main>, and within each
 * of `parts` (the whole of <main> without) one of `content`.
 */
export type Rendered = {
  heading: string;
  parts?: string[];
  content: string;
  /** The text of `selector` in <main> is no longer `from` (a report showing another period). */
  changed?: { selector: string; from: string };
};

export const RENDERED = {
  dashboard: {
    heading: "Dashboard",
    parts: ["balances", "this-month", "twelve-months", "next-debts"].map((card) => `[data-testid="${card}"]`),
    content: ".ant-empty, table, .ant-list, svg.recharts-surface",
  },
  table: (heading: string): Rendered => ({
    heading,
    content: ".ant-table-tbody tr.ant-table-row, .ant-table-placeholder, .ant-empty",
  }),
  /** A report: its title, and its tables' rows (or its empty state). */
  report: (heading: string): Rendered => ({ heading, content: "table tbody tr, .ant-empty" }),
} satisfies Record<string, Rendered | ((heading: string) => Rendered)>;

/**
 * Waits (checked every animation frame, in the page) until the screen is rendered, and returns the
 * page's performance.now() at that frame.
 */
export const renderedAt = async (page: Page, rendered: Rendered, timeout = 60_000): Promise<number> => {
  const handle = await page.waitForFunction(
    ({ heading, parts, content, changed }) => {
      const main = document.querySelector("main");
      if (!main) return false;
      if (changed && main.querySelector(changed.selector)?.textContent === changed.from) return false;
      if (![...main.querySelectorAll("h1")].some((h) => h.textContent?.trim() === heading)) return false;
      if (main.querySelector(".ant-skeleton, .ant-spin-spinning")) return false;
      const scopes = parts ? parts.map((part) => main.querySelector(part)) : [main];
      if (!scopes.every((scope) => scope?.querySelector(content))) return false;
      return performance.now();
    },
    rendered,
    { polling: "raf", timeout },
  );
  return (await handle.jsonValue()) as number;
};
