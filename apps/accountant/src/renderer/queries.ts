import type { ApiClient } from "@hisob/ui/api";
import { queryOptions } from "@tanstack/react-query";

/*
 * The queries a screen opens with, defined once: the screens read them, and the shell starts them
 * before the screen renders (screen-data.ts) — the same key and request either way, so the screen
 * finds its data in the cache or already on its way. Light on purpose (no React, no Ant Design):
 * the entry loads this beside the app's own code (docs/decisions/0099-first-screens-start-their-data.md).
 */

/** Query keys by what they show: a posting invalidates every view of money. */
export const KEYS = {
  me: ["me"],
  currencies: ["currencies"],
  accounts: ["accounts"],
  statement: ["statement"],
  payments: ["payments"],
  expenses: ["expenses"],
  reports: ["reports"],
  debts: ["debts"],
  counterparties: ["counterparties"],
  paymentCategories: ["paymentCategories"],
  expenseCategories: ["expenseCategories"],
} as const;

/** The organization's settings (base currency, setup progress). */
export const SETTINGS_KEY = ["tenantSettings"] as const;

type Input<P extends { query: (input: never) => unknown }> = Parameters<P["query"]>[0];
export type AccountsPageInput = Input<ApiClient["accounts"]["list"]>;
export type DebtsListInput = Input<ApiClient["debts"]["list"]>;
export type IncomeStatementInput = Input<ApiClient["reports"]["incomeStatement"]>;
export type CashflowInput = Input<ApiClient["reports"]["cashflow"]>;

/** The first day of the month `back` months before today's ("2026-11-29", 1 → "2026-10-01"). */
export const monthStart = (today: string, back: number) => {
  const [year, month] = today.split("-").map(Number);
  const date = new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1 - back, 1));
  return date.toISOString().slice(0, 10);
};

/** The last twelve months' first days, oldest first, ending with this month's. */
export const lastTwelveMonths = (today: string) =>
  Array.from({ length: 12 }, (_, i) => monthStart(today, 11 - i));

/** Rows per page of the accounts and debts lists. */
export const LIST_PAGE_SIZE = 20;

/** The accounts list as it opens: by name, its first page. */
export const FIRST_ACCOUNTS_PAGE = {
  limit: LIST_PAGE_SIZE,
  offset: 0,
  sortBy: "name",
  order: "asc",
} as const;

/** The debts list as it opens without filters: due first, its first page. */
export const FIRST_DEBTS_PAGE = {
  sortBy: "dueDate",
  order: "asc",
  limit: LIST_PAGE_SIZE,
  offset: 0,
} as const;

export const QUERIES = {
  me: (api: ApiClient) => queryOptions({ queryKey: KEYS.me, queryFn: () => api.session.me.query() }),
  currencies: (api: ApiClient) =>
    queryOptions({
      queryKey: KEYS.currencies,
      queryFn: () => api.currencies.selected.query(),
      staleTime: 5 * 60_000,
    }),
  settings: (api: ApiClient) =>
    queryOptions({ queryKey: SETTINGS_KEY, queryFn: () => api.settings.get.query(), staleTime: 60_000 }),
  /** Every account (an organization has tens, not thousands): for pickers and the dashboard. */
  allAccounts: (api: ApiClient) =>
    queryOptions({
      queryKey: [...KEYS.accounts, "all"],
      queryFn: () => api.accounts.list.query({ limit: 100, sortBy: "name", order: "asc" }),
    }),
  accountsPage: (api: ApiClient, input: AccountsPageInput) =>
    queryOptions({
      queryKey: [...KEYS.accounts, "page", input],
      queryFn: () => api.accounts.list.query(input),
    }),
  debtsList: (api: ApiClient, input: DebtsListInput) =>
    queryOptions({ queryKey: [...KEYS.debts, "list", input], queryFn: () => api.debts.list.query(input) }),
  incomeStatement: (api: ApiClient, input: IncomeStatementInput) =>
    queryOptions({
      queryKey: [...KEYS.reports, "income", input],
      queryFn: () => api.reports.incomeStatement.query(input),
    }),
  cashflow: (api: ApiClient, input: CashflowInput) =>
    queryOptions({
      queryKey: [...KEYS.reports, "cashflow", input],
      queryFn: () => api.reports.cashflow.query(input),
    }),
  /** The dashboard's five open debts due first (pending or partly settled), with their counterparties' names. */
  nextDebts: (api: ApiClient) =>
    queryOptions({
      queryKey: [...KEYS.debts, "next"],
      queryFn: async () => {
        const open = { sortBy: "dueDate", order: "asc", limit: 5 } as const;
        const [pending, partial, counterparties] = await Promise.all([
          api.debts.list.query({ ...open, status: "pending" }),
          api.debts.list.query({ ...open, status: "partial" }),
          api.counterparties.list.query({ limit: 100 }),
        ]);
        const names = new Map(counterparties.items.map((c) => [c.id, c.name]));
        const rows = [...pending.items, ...partial.items]
          .sort((a, b) => (a.dueDate ?? "9999").localeCompare(b.dueDate ?? "9999"))
          .slice(0, 5);
        return rows.map((row) => ({ ...row, counterparty: names.get(row.counterpartyId) ?? "" }));
      },
    }),
};

/** The dashboard's "this month": income and expenses from the month's first day to today. */
export const thisMonthPeriod = (today: string): IncomeStatementInput => ({
  startDate: monthStart(today, 0),
  endDate: today,
});

/** The dashboard's twelve months, by month. */
export const twelveMonthsPeriod = (today: string): CashflowInput => ({
  startDate: lastTwelveMonths(today)[0] ?? today,
  endDate: today,
  granularity: "month",
});
