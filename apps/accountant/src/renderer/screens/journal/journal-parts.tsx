import type { TJournalDto } from "@hisob/finance/schema";
import { type Locale, useLocale } from "@hisob/ui";
import type { ApiClient } from "@hisob/ui/api";
import { useQuery } from "@tanstack/react-query";
import { Tag } from "antd";
import { useTranslation } from "react-i18next";
import { useApi } from "../../api-context";

/*
 * What the journal's screens share (docs/decisions/0100-manual-journals-and-revaluation.md): the chart's
 * leaves as a picker shows them (code and name in the user's language), the base currency, the state tag.
 */

/** An account of the chart, as the ledger's catalog answers it. */
type TGlAccountDto = Awaited<ReturnType<ApiClient["generalLedger"]["accounts"]["query"]>>[number];

export const JOURNAL_KEY = ["journal"] as const;

export const accountName = (account: Pick<TGlAccountDto, "nameEn" | "nameRu" | "nameUz">, locale: Locale) =>
  locale === "ru" ? account.nameRu : locale === "uz" ? account.nameUz : account.nameEn;

export type LeafAccount = TGlAccountDto & {
  label: string;
  /** A receivable or payable account (or a sibling of one): a line may name a counterparty. */
  takesCounterparty: boolean;
};

/** The chart's active leaves, by code, labelled "code — name" in the user's language. */
export const useLeafAccounts = () => {
  const api = useApi();
  const locale = useLocale();
  const chart = useQuery({
    queryKey: ["glAccounts"],
    queryFn: () => api.generalLedger.accounts.query(),
    staleTime: 60_000,
  });
  const all = chart.data ?? [];
  const parents = new Set(all.map((account) => account.parentId).filter(Boolean));
  const partyParents = new Set(
    all
      .filter((account) => account.role === "receivable" || account.role === "payable")
      .map((a) => a.parentId),
  );
  const leaves: LeafAccount[] = all
    .filter((account) => account.isActive && !parents.has(account.id))
    .map((account) => ({
      ...account,
      label: `${account.code} — ${accountName(account, locale)}`,
      takesCounterparty:
        account.role === "receivable" || account.role === "payable" || partyParents.has(account.parentId),
    }));
  return { query: chart, leaves, byId: new Map(leaves.map((leaf) => [leaf.id, leaf])) };
};

/**
 * The organization's base currency as the ledger has it (its setting, else its first currency by when
 * it was added — not the list's alphabetical first): the journal's own answer carries it.
 */
export const useBaseCurrency = (): string | undefined => {
  const api = useApi();
  const journal = useQuery({
    queryKey: [...JOURNAL_KEY, "base"],
    queryFn: () => api.journal.list.query({ limit: 1 }),
    staleTime: 60_000,
  });
  return journal.data?.baseCurrency ?? undefined;
};

const STATE_COLORS = { draft: "default", posted: "green", reversed: "orange" } as const;

export const JournalStateTag = ({ state }: { state: TJournalDto["state"] }) => {
  const { t } = useTranslation();
  return (
    <Tag color={STATE_COLORS[state]} data-testid="journal-state">
      {t(`journal.states.${state}`)}
    </Tag>
  );
};
