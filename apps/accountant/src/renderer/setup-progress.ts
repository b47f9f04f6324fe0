import { useQuery } from "@tanstack/react-query";
import { useCallback, useSyncExternalStore } from "react";
import { KEYS, useApi } from "./api-context";

/*
 * Where the first-run setup stands for this organization on this computer: the step it was left at,
 * the base currency chosen, and whether it was finished. What it creates (currencies, accounts,
 * categories) lives on the server; only the walk through it is remembered here, so leaving it and
 * coming back resumes at the same step.
 */
export type SetupProgress = { step: number; base: string | null; finished: boolean };

const keyOf = (tenantId: string) => `hisob.setup.${tenantId}`;
const listeners = new Set<() => void>();

const read = (tenantId: string): SetupProgress | null => {
  try {
    const raw = localStorage.getItem(keyOf(tenantId));
    if (!raw) return null;
    const value = JSON.parse(raw) as Partial<SetupProgress>;
    return {
      step: typeof value.step === "number" ? value.step : 0,
      base: typeof value.base === "string" ? value.base : null,
      finished: value.finished === true,
    };
  } catch {
    return null;
  }
};

// One snapshot per stored text, so useSyncExternalStore sees a stable value between writes.
const cache = new Map<string, { raw: string | null; value: SetupProgress | null }>();
const snapshot = (tenantId: string): SetupProgress | null => {
  const raw = localStorage.getItem(keyOf(tenantId));
  const hit = cache.get(tenantId);
  if (hit && hit.raw === raw) return hit.value;
  const value = read(tenantId);
  cache.set(tenantId, { raw, value });
  return value;
};

/** This organization's setup progress (null: never started), and a way to change it. */
export const useSetupProgress = () => {
  const api = useApi();
  const me = useQuery({ queryKey: KEYS.me, queryFn: () => api.session.me.query() });
  const tenantId = me.data?.tenant.id ?? null;
  const progress = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => (tenantId ? snapshot(tenantId) : null),
  );
  const save = useCallback(
    (change: Partial<SetupProgress>) => {
      if (!tenantId) return;
      const next = { step: 0, base: null, finished: false, ...read(tenantId), ...change };
      localStorage.setItem(keyOf(tenantId), JSON.stringify(next));
      for (const listener of listeners) listener();
    },
    [tenantId],
  );
  return { ready: tenantId !== null, progress, save };
};
