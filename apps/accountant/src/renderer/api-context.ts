import type { ApiClient, Locale } from "@hisob/ui";
import { formatMoney } from "@hisob/ui";
import { type QueryClient, useQuery } from "@tanstack/react-query";
import { createContext, useContext } from "react";
import type { HisobBridge } from "../shared/bridge";
import { KEYS, QUERIES } from "./queries";

export { KEYS } from "./queries";

export const ApiContext = createContext<ApiClient | null>(null);

export const useApi = (): ApiClient => {
  const api = useContext(ApiContext);
  if (!api) throw new Error("useApi outside ApiContext");
  return api;
};

/** What a posting (payment, expense, transfer, exchange, or its edit or deletion) changes. */
export const invalidateMoney = (client: QueryClient) =>
  Promise.all(
    [KEYS.accounts, KEYS.statement, KEYS.payments, KEYS.expenses, KEYS.reports, KEYS.debts].map((queryKey) =>
      client.invalidateQueries({ queryKey }),
    ),
  );

export const useCurrencies = () => {
  const api = useApi();
  return useQuery(QUERIES.currencies(api));
};

/** Digits after the point per currency code (2 when unknown: the ISO default). */
export const useMinorUnits = () => {
  const currencies = useCurrencies();
  return (code: string) => currencies.data?.find((currency) => currency.code === code)?.minorUnits ?? 2;
};

/** Every account (an organization has tens, not thousands): for pickers and the dashboard. */
export const useAllAccounts = () => {
  const api = useApi();
  return useQuery(QUERIES.allAccounts(api));
};

export const useMoney = (locale: Locale) => {
  const minorUnits = useMinorUnits();
  return (minor: string | bigint, currency: string) =>
    formatMoney(minor, currency, minorUnits(currency), locale);
};

/** The host (browser or Electron) and the server's origin ("" for the page's own). */
export type Host = { bridge: HisobBridge; serverUrl: string };
export const HostContext = createContext<Host | null>(null);

export const useHost = (): Host => {
  const host = useContext(HostContext);
  if (!host) throw new Error("useHost outside HostContext");
  return host;
};
