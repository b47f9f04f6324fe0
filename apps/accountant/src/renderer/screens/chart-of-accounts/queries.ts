import { useQuery } from "@tanstack/react-query";
import { useApi } from "../../api-context";

/** The chart's queries: its accounts and where money accounts and categories post. */
export const GL_ACCOUNTS_KEY = ["glAccounts"] as const;
export const GL_MAPPINGS_KEY = ["glMappings"] as const;

/** The organization's chart of accounts (tens of accounts: all of them, in one request). */
export const useGlAccounts = () => {
  const api = useApi();
  return useQuery({ queryKey: GL_ACCOUNTS_KEY, queryFn: () => api.generalLedger.accounts.query() });
};

/** Where every money account and category posts (one request). */
export const useGlMappings = () => {
  const api = useApi();
  return useQuery({ queryKey: GL_MAPPINGS_KEY, queryFn: () => api.generalLedger.mappings.query() });
};
