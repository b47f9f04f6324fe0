import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Select, type SelectProps } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { KEYS, useAllAccounts, useApi } from "../../api-context";
import { COMPARE_PERIODS, type ComparePeriod } from "./report-query";

/*
 * The filters a report adds to the period (docs/decisions/0088-report-filters-and-comparison.md):
 * several accounts, categories (payment and expense ones, in two groups) and counterparties, each a
 * multi-select whose choice lives in the address, and the period the report is compared with.
 */

const PAGE = 100;

type MultiProps = { value: string[]; onChange: (ids: string[]) => void };

/**
 * What every filter shares: several choices, cleared at once, as many tags as fit, named for the
 * screen reader and the tests; "all" (the placeholder) when none is chosen.
 */
const MultiFilter = (
  props: MultiProps & { label: string; testId: string } & Pick<
      SelectProps<string[]>,
      "placeholder" | "options" | "showSearch" | "notFoundContent"
    >,
) => {
  const { label, testId, ...rest } = props;
  return (
    <Select<string[]>
      mode="multiple"
      aria-label={label}
      data-testid={testId}
      style={{ minWidth: 220, maxWidth: 420 }}
      maxTagCount="responsive"
      allowClear
      {...rest}
    />
  );
};

/** Every account (an organization has tens): "all" when none is chosen. */
export const AccountsFilter = ({ value, onChange }: MultiProps) => {
  const { t } = useTranslation();
  const accounts = useAllAccounts();
  return (
    <MultiFilter
      label={t("reports.accounts")}
      testId="report-accounts"
      showSearch={{ optionFilterProp: "label" }}
      placeholder={t("reports.allAccounts")}
      value={value}
      onChange={onChange}
      options={(accounts.data?.items ?? []).map((a) => ({ value: a.id, label: `${a.name} (${a.currency})` }))}
    />
  );
};

/** The categories of both kinds, by name (an organization keeps tens of each); `enabled`: when needed. */
export const useReportCategories = (enabled = true) => {
  const api = useApi();
  const list = { limit: PAGE, sortBy: "name" as const, order: "asc" as const };
  const payments = useQuery({
    queryKey: [...KEYS.paymentCategories, "report-filter"],
    enabled,
    queryFn: () => api.paymentCategories.list.query(list),
  });
  const expenses = useQuery({
    queryKey: [...KEYS.expenseCategories, "report-filter"],
    enabled,
    queryFn: () => api.expenseCategories.list.query(list),
  });
  return { payments: payments.data?.items ?? [], expenses: expenses.data?.items ?? [] };
};

export const CategoriesFilter = ({ value, onChange }: MultiProps) => {
  const { t } = useTranslation();
  const categories = useReportCategories();
  return (
    <MultiFilter
      label={t("reports.categories")}
      testId="report-categories"
      showSearch={{ optionFilterProp: "label" }}
      placeholder={t("reports.allCategories")}
      value={value}
      onChange={onChange}
      options={[
        {
          label: t("reports.revenue"),
          options: categories.payments.map((c) => ({ value: c.id, label: c.name })),
        },
        {
          label: t("reports.expenses"),
          options: categories.expenses.map((c) => ({ value: c.id, label: c.name })),
        },
      ]}
    />
  );
};

/**
 * Counterparties, searched by the server (an organization may have thousands); the chosen ones are
 * fetched by id so their names show whatever the search.
 */
export const CounterpartiesFilter = ({ value, onChange }: MultiProps) => {
  const { t } = useTranslation();
  const api = useApi();
  const [search, setSearch] = useState("");
  const found = useQuery({
    queryKey: [...KEYS.counterparties, "report-filter", search],
    placeholderData: keepPreviousData,
    queryFn: () =>
      api.counterparties.list.query({
        limit: 20,
        sortBy: "name",
        order: "asc",
        search: search.slice(0, 100) || undefined,
      }),
  });
  const chosen = useCounterpartyNames(value);
  const options = new Map<string, string>();
  for (const [id, name] of chosen) options.set(id, name);
  for (const c of found.data?.items ?? []) options.set(c.id, c.name);
  return (
    <MultiFilter
      label={t("reports.counterparties")}
      testId="report-counterparties"
      showSearch={{ filterOption: false, onSearch: setSearch }}
      placeholder={t("reports.allCounterparties")}
      notFoundContent={t("picker.noMatch")}
      value={value}
      onChange={(ids: string[]) => {
        setSearch("");
        onChange(ids);
      }}
      options={[...options].map(([id, name]) => ({ value: id, label: name }))}
    />
  );
};

/** The names of counterparties by id (for the chosen ones and the report's heading). */
export const useCounterpartyNames = (ids: string[]): Map<string, string> => {
  const api = useApi();
  const names = useQuery({
    queryKey: [...KEYS.counterparties, "report-names", ids],
    enabled: ids.length > 0,
    placeholderData: keepPreviousData,
    queryFn: async () =>
      Promise.all(ids.map(async (id) => [id, (await api.counterparties.get.query({ id })).name] as const)),
  });
  return new Map(ids.length > 0 ? (names.data ?? []) : []);
};

export const CompareFilter = (props: {
  value: ComparePeriod | undefined;
  onChange: (value: ComparePeriod | undefined) => void;
}) => {
  const { t } = useTranslation();
  return (
    <Select
      aria-label={t("reports.compare.label")}
      data-testid="report-compare"
      style={{ width: 240 }}
      value={props.value ?? "none"}
      onChange={(value: ComparePeriod | "none") => props.onChange(value === "none" ? undefined : value)}
      options={[
        { value: "none", label: t("reports.compare.none") },
        ...COMPARE_PERIODS.map((value) => ({ value, label: t(`reports.compare.${value}`) })),
      ]}
    />
  );
};
