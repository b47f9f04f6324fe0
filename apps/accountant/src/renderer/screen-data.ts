import { type ApiClient, createApiClient } from "@hisob/ui/api";
import { todayIso } from "@hisob/ui/dates";
import { QueryClient } from "@tanstack/react-query";
import type { HisobBridge } from "../shared/bridge";
import {
  FIRST_ACCOUNTS_PAGE,
  FIRST_DEBTS_PAGE,
  QUERIES,
  thisMonthPeriod,
  twelveMonthsPeriod,
} from "./queries";
import { screenOf } from "./screen-chunks";
import { incomeStatementInput, readReportParams } from "./screens/reports/report-query";

/*
 * A screen's data starts with its code, not after its first render (decision 0099): opening a screen
 * from the menu starts the requests the screen will make, with the same query definitions
 * (queries.ts), into the query client the app renders from. The screen then finds its data in the
 * cache or on its way, and rendering the screen overlaps the requests instead of preceding them.
 */

export const createQueryClient = () =>
  new QueryClient({
    defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 10_000 } },
  });

export type AppData = { client: QueryClient; api: ApiClient };

let browserData: AppData | null = null;

/** In a browser: the page's one query client and API client (the API is the page's own origin). */
export const browserAppData = (bridge: HisobBridge): AppData => {
  browserData ??= {
    client: createQueryClient(),
    api: createApiClient({ baseUrl: "", accessToken: () => bridge.accessToken() }),
  };
  return browserData;
};

/** Signed out: nothing the last session read stays for the next one. */
export const forgetAppData = () => {
  browserData?.client.clear();
  browserData = null;
};

type Where = { pathname: string; search: string };

/** Starts what the screen at `where` asks for when it opens (the shell's own account included). */
const startQueries = ({ client, api }: AppData, where: Where, today: string) => {
  void client.prefetchQuery(QUERIES.me(api));
  const params = new URLSearchParams(where.search);
  switch (screenOf(where.pathname)) {
    case "dashboard":
      void client.prefetchQuery(QUERIES.currencies(api));
      void client.prefetchQuery(QUERIES.settings(api));
      void client.prefetchQuery(QUERIES.allAccounts(api));
      void client.prefetchQuery(QUERIES.incomeStatement(api, thisMonthPeriod(today)));
      void client.prefetchQuery(QUERIES.cashflow(api, twelveMonthsPeriod(today)));
      void client.prefetchQuery(QUERIES.nextDebts(api));
      return;
    case "accounts":
      void client.prefetchQuery(QUERIES.currencies(api));
      void client.prefetchQuery(QUERIES.accountsPage(api, FIRST_ACCOUNTS_PAGE));
      return;
    case "debts":
      void client.prefetchQuery(QUERIES.currencies(api));
      // Filters live in the address; only the unfiltered list is known before the screen reads them.
      if (where.search === "") void client.prefetchQuery(QUERIES.debtsList(api, FIRST_DEBTS_PAGE));
      return;
    case "reports": {
      // The section opens on the income statement; its period and filters live in the address.
      const kind = where.pathname.replace(/\/$/, "").split("/").at(-1);
      if (kind !== "reports" && kind !== "income") return;
      void client.prefetchQuery(QUERIES.currencies(api));
      void client.prefetchQuery(
        QUERIES.incomeStatement(api, incomeStatementInput(readReportParams(params, today))),
      );
      return;
    }
    default:
      return;
  }
};

/**
 * Starts the requests of the screen at `href` (a path under /app, with its search) that are not
 * already fresh in the cache, and the dashboard's chart code (it comes with the dashboard's data,
 * not after it). Errors are the screen's to show: its own query reports them.
 */
export const prefetchScreen = (data: AppData, href: string) => {
  const where = new URL(href, window.location.origin);
  startQueries(data, where, todayIso());
  if (screenOf(where.pathname) === "dashboard")
    void import("./components/month-chart").catch(() => undefined);
};
