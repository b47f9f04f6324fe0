import type { TJournalDto } from "@hisob/finance/schema";
import { describeFailure, type Locale, useLocale } from "@hisob/ui";
import type { ApiClient } from "@hisob/ui/api";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { App as AntApp, Tag } from "antd";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { KEYS, useApi } from "../../api-context";
import { useDateRule } from "../../components/date-input";
import { useSubmitOnce } from "../../forms";

/*
 * What the journal's screens share (docs/decisions/0100-manual-journals-and-revaluation.md): the chart's
 * leaves as a picker shows them (code and name in the user's language), the base currency, the state tag,
 * a right-aligned amount column, and the dialogs that post on a date (a reversal, a revaluation).
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

/** A right-aligned column of amounts that never wrap (a line's debit, a revaluation's balance). */
export const amountColumn = <Row,>(title: ReactNode, text: (row: Row) => ReactNode) => ({
  title,
  align: "right" as const,
  render: (_: unknown, row: Row) => <span style={{ whiteSpace: "nowrap" }}>{text(row)}</span>,
});

/**
 * A dialog that posts on a date, once (one idempotency key per dialog): the date checked as typed, then
 * `post`; on success the journal and the reports are read again and `done` is said; the server's refusal
 * goes beside the date when it names the date, else above the form.
 */
export const useDatedPosting = <T,>(options: {
  initialDate: string;
  post: (date: string, idempotencyKey: string) => Promise<T>;
  done: string;
  onPosted: (result: T) => void;
}) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { message } = AntApp.useApp();
  const once = useSubmitOnce();
  const dateRule = useDateRule();
  const [date, setDate] = useState(options.initialDate);
  const [dateError, setDateError] = useState<string | undefined>();
  const [formError, setFormError] = useState<string | null>(null);
  const submit = async () => {
    setFormError(null);
    const check = dateRule()(date);
    if (check !== true) {
      setDateError(check);
      return;
    }
    setDateError(undefined);
    try {
      const result = await options.post(date, once.key);
      await Promise.all(
        [JOURNAL_KEY, KEYS.reports].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      );
      void message.success(options.done);
      options.onPosted(result);
    } catch (error) {
      const failure = describeFailure(error, t);
      const onDate = failure.issues.find((issue) => issue.path === "date");
      if (onDate) setDateError(onDate.message);
      else setFormError(failure.message);
    }
  };
  return {
    date,
    setDate,
    dateOk: dateRule()(date) === true,
    dateError,
    formError,
    busy: once.busy,
    submit: () => void once.run(submit),
  };
};
