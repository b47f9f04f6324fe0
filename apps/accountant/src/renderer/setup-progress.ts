import type { TTenantSettingsDto } from "@hisob/core/schema";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef } from "react";
import { useApi } from "./api-context";
import { QUERIES, SETTINGS_KEY } from "./queries";

/*
 * Where the first-run setup stands for this organization: the step it was left at, the base currency
 * chosen, and whether it was finished. All of it lives on the server (the organization's settings,
 * docs/decisions/0086-setup-idempotent-creates-sign-out-reasons.md), so leaving the setup and coming back
 * from another browser or computer resumes at the same step with the same base currency.
 */
export type SetupProgress = { step: number; base: string | null; finished: boolean };

export { SETTINGS_KEY } from "./queries";

/** What this browser remembered before the server kept it (moved to the server once, then forgotten). */
const legacyKeyOf = (tenantId: string) => `hisob.setup.${tenantId}`;
const readLegacy = (tenantId: string): Partial<SetupProgress> | null => {
  try {
    const raw = localStorage.getItem(legacyKeyOf(tenantId));
    return raw ? (JSON.parse(raw) as Partial<SetupProgress>) : null;
  } catch {
    return null;
  }
};

const progressOf = (settings: TTenantSettingsDto): SetupProgress | null =>
  settings.setup.step === null && !settings.setup.finished
    ? null
    : { step: settings.setup.step ?? 0, base: settings.baseCurrency, finished: settings.setup.finished };

/** The organization's settings (base currency, setup progress), read from the server. */
export const useTenantSettings = () => {
  const api = useApi();
  return useQuery(QUERIES.settings(api));
};

/** The organization's base currency (null until chosen or while loading). */
export const useBaseCurrency = (): string | null => useTenantSettings().data?.baseCurrency ?? null;

/** This organization's setup progress (null: never started), and a way to change it. */
export const useSetupProgress = () => {
  const api = useApi();
  const queryClient = useQueryClient();
  const settings = useTenantSettings();
  const me = useQuery(QUERIES.me(api));
  const tenantId = me.data?.tenant.id ?? null;

  const save = useCallback(
    async (change: Partial<SetupProgress>) => {
      const current = queryClient.getQueryData<TTenantSettingsDto>(SETTINGS_KEY);
      // Shown at once; the server's answer (or, refused, its state) replaces it.
      if (current) {
        queryClient.setQueryData<TTenantSettingsDto>(SETTINGS_KEY, {
          baseCurrency: change.base ?? current.baseCurrency,
          setup: {
            step: change.step ?? current.setup.step ?? 0,
            finished: change.finished ?? current.setup.finished,
          },
        });
      }
      try {
        const saved = await api.settings.update.mutate({
          ...(change.base ? { baseCurrency: change.base } : {}),
          setup: {
            ...(change.step === undefined ? {} : { step: change.step }),
            ...(change.finished === undefined ? {} : { finished: change.finished }),
          },
        });
        queryClient.setQueryData(SETTINGS_KEY, saved);
      } catch {
        await queryClient.invalidateQueries({ queryKey: SETTINGS_KEY });
      }
    },
    [api, queryClient],
  );

  // A setup this browser walked before the server kept it: moved to the server once.
  const moved = useRef(false);
  useEffect(() => {
    if (moved.current || !tenantId || !settings.data || progressOf(settings.data) !== null) return;
    const legacy = readLegacy(tenantId);
    if (!legacy) return;
    moved.current = true;
    void save({
      step: typeof legacy.step === "number" ? legacy.step : 0,
      finished: legacy.finished === true,
      ...(typeof legacy.base === "string" ? { base: legacy.base } : {}),
    }).then(() => localStorage.removeItem(legacyKeyOf(tenantId)));
  }, [tenantId, settings.data, save]);

  return {
    ready: settings.isSuccess,
    progress: settings.data ? progressOf(settings.data) : null,
    save,
  };
};
