import { formatDate, todayIso, useLocale } from "@hisob/ui";
import { useQuery } from "@tanstack/react-query";
import { Select, Space, Typography } from "antd";
import type { TFunction } from "i18next";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router-dom";
import { KEYS, useAllAccounts, useApi } from "../../api-context";
import { DateInput } from "../../components/date-input";
import { PrintButton } from "../../components/downloads";
import {
  AccountsFilter,
  CategoriesFilter,
  CompareFilter,
  CounterpartiesFilter,
  useCounterpartyNames,
  useReportCategories,
} from "./report-filters";
import {
  accountsOf,
  type DatedPeriod,
  GRANULARITIES,
  type Granularity,
  REPORT_PRESETS,
  type ReportParams,
  type ReportPreset,
  readReportParams,
  reportPresetOf,
  reportPresetPeriod,
  reportSearch,
  withAccounts,
} from "./report-query";

/*
 * What every report shares: its filter bar (period with presets, account, step) written to the
 * address, and one layout for paper: organization, report name, period, filters and when it was made,
 * in the user's language (the page numbers and repeated table headers come from print.css).
 */

export type ReportKind = "income" | "cashflow" | "statement";

/**
 * The report in the address, and a setter that writes it back (replacing, so Back leaves the report).
 * `prefetch` is given the report as the address will read it, before React renders it: the report's
 * request starts with the click, not after the new period's first render (decision 0108).
 */
export const useReportParams = (
  prefetch?: (next: ReportParams) => void,
): [ReportParams, (change: Partial<ReportParams>) => void] => {
  const [params, setParams] = useSearchParams();
  const report = readReportParams(params, todayIso());
  const update = (change: Partial<ReportParams>) => {
    // One account chosen replaces several.
    const accounts = "accountId" in change && !("accountIds" in change) ? { accountIds: undefined } : {};
    const next = new URLSearchParams(reportSearch({ ...report, ...accounts, ...change }));
    prefetch?.(readReportParams(next, todayIso()));
    setParams(next, { replace: true });
  };
  return [report, update];
};

/**
 * The period every report with one shows: a preset (this month … last year; "custom" once the dates
 * are typed) and the two dates, which never cross. Elements, not a component, so the filter bar
 * spaces each of them.
 */
export const periodFields = (
  t: TFunction,
  period: DatedPeriod,
  onChange: (change: Partial<DatedPeriod>) => void,
  today: string,
): ReactNode[] => [
  <Select
    key="preset"
    aria-label={t("reports.period")}
    data-testid="report-preset"
    style={{ width: 190 }}
    value={reportPresetOf(period, today)}
    onChange={(key: ReportPreset | "custom") => key !== "custom" && onChange(reportPresetPeriod(key, today))}
    options={[
      ...REPORT_PRESETS.map((key) => ({ value: key, label: t(`reports.presets.${key}`) })),
      { value: "custom", label: t("reports.presets.custom"), disabled: true },
    ]}
  />,
  <label key="from-label" htmlFor="report-from">
    {t("documents.from")}
  </label>,
  <DateInput
    key="from"
    id="report-from"
    width={140}
    value={period.start}
    onChange={(date) => date && date <= period.end && onChange({ start: date })}
  />,
  <label key="to-label" htmlFor="report-to">
    {t("documents.to")}
  </label>,
  <DateInput
    key="to"
    id="report-to"
    width={140}
    value={period.end}
    onChange={(date) => date && date >= period.start && onChange({ end: date })}
  />,
];

/** The filter bar above a report: wraps on a narrow window, left off paper. */
export const ReportFilterBar = ({ children }: { children: ReactNode }) => {
  const { t } = useTranslation();
  return (
    <Space
      wrap
      className="no-print"
      role="search"
      aria-label={t("reports.filters")}
      style={{ marginBottom: 16 }}
    >
      {children}
    </Space>
  );
};

export const ReportControls = (props: {
  report: ReportParams;
  onChange: (change: Partial<ReportParams>) => void;
  /** The statement needs one account; the other reports take one or all. */
  account: "optional" | "required";
  granularity?: boolean;
  /** Several accounts at once instead of one or all; the filters and comparison a report takes. */
  accounts?: "multiple";
  categories?: boolean;
  counterparties?: boolean;
  compare?: boolean;
}) => {
  const { t } = useTranslation();
  const accounts = useAllAccounts();
  const { report, onChange } = props;
  const today = todayIso();
  return (
    <ReportFilterBar>
      {periodFields(t, report, onChange, today)}
      {props.accounts === "multiple" ? (
        <AccountsFilter value={accountsOf(report)} onChange={(ids) => onChange(withAccounts(ids))} />
      ) : (
        <Select
          aria-label={t("reports.account")}
          data-testid="report-account"
          style={{ width: 220 }}
          showSearch={{ optionFilterProp: "label" }}
          value={report.accountId ?? ""}
          onChange={(value: string) => onChange({ accountId: value || null })}
          options={[
            ...(props.account === "optional" ? [{ value: "", label: t("reports.allAccounts") }] : []),
            ...(accounts.data?.items ?? []).map((a) => ({ value: a.id, label: `${a.name} (${a.currency})` })),
          ]}
          placeholder={t("reports.chooseAccount")}
        />
      )}
      {props.categories ? (
        <CategoriesFilter
          value={report.categoryIds ?? []}
          onChange={(ids) => onChange({ categoryIds: ids.length > 0 ? ids : undefined })}
        />
      ) : null}
      {props.counterparties ? (
        <CounterpartiesFilter
          value={report.counterpartyIds ?? []}
          onChange={(ids) => onChange({ counterpartyIds: ids.length > 0 ? ids : undefined })}
        />
      ) : null}
      {props.compare ? (
        <CompareFilter value={report.compare} onChange={(compare) => onChange({ compare })} />
      ) : null}
      {props.granularity ? (
        <Select
          aria-label={t("reports.granularity")}
          data-testid="report-granularity"
          style={{ width: 180 }}
          value={report.granularity}
          onChange={(value: Granularity) => onChange({ granularity: value })}
          options={GRANULARITIES.map((value) => ({ value, label: t(`reports.by.${value}`) }))}
        />
      ) : null}
    </ReportFilterBar>
  );
};

/** The report's heading, on screen and on paper: whose, what, which period, which filters, when. */
export const ReportHeading = (props: {
  kind: ReportKind;
  report: ReportParams;
  actions: ReactNode;
  /** The period the report is compared with, as the server answered it. */
  compared?: { startDate: string; endDate: string } | undefined;
}) => {
  const { t } = useTranslation();
  const locale = useLocale();
  const api = useApi();
  const accounts = useAllAccounts();
  const me = useQuery({ queryKey: KEYS.me, queryFn: () => api.session.me.query() });
  const account = accounts.data?.items.find((a) => a.id === props.report.accountId);
  const chosen = accountsOf(props.report);
  // Names for the filter line, asked for only when the report is limited to categories.
  const categories = useReportCategories((props.report.categoryIds?.length ?? 0) > 0);
  const counterparties = useCounterpartyNames(props.report.counterpartyIds ?? []);
  const categoryNames = new Map([...categories.payments, ...categories.expenses].map((c) => [c.id, c.name]));
  const named = (label: string, ids: string[] | undefined, names: (id: string) => string | undefined) =>
    ids && ids.length > 0 ? [`${label}: ${ids.map((id) => names(id) ?? "…").join(", ")}`] : [];
  const now = new Date();
  const time = now.toLocaleTimeString(locale === "uz" ? "ru" : locale, {
    hour: "2-digit",
    minute: "2-digit",
  });
  const filters = [
    chosen.length > 1
      ? `${t("reports.accounts")}: ${chosen
          .map((id) => accounts.data?.items.find((a) => a.id === id))
          .map((a) => (a ? `${a.name} (${a.currency})` : "…"))
          .join(", ")}`
      : account
        ? `${t("reports.account")}: ${account.name} (${account.currency})`
        : t("reports.allAccounts"),
    ...named(t("reports.categories"), props.report.categoryIds, (id) => categoryNames.get(id)),
    ...named(t("reports.counterparties"), props.report.counterpartyIds, (id) => counterparties.get(id)),
    ...(props.report.compare && props.compared
      ? [
          t("reports.compare.line", {
            what: t(`reports.compare.${props.report.compare}`),
            start: formatDate(props.compared.startDate, locale),
            end: formatDate(props.compared.endDate, locale),
          }),
        ]
      : []),
    ...(props.kind === "cashflow"
      ? [`${t("reports.granularity")}: ${t(`reports.by.${props.report.granularity}`)}`]
      : []),
  ];
  return (
    <header data-testid="report-heading" style={{ marginBottom: 16 }}>
      <Space style={{ width: "100%", justifyContent: "space-between" }} wrap align="start">
        <div>
          <Typography.Text strong data-testid="report-organization">
            {me.data?.tenant.name ?? ""}
          </Typography.Text>
          <Typography.Title level={1} style={{ margin: "4px 0" }}>
            {t(`reports.titles.${props.kind}`)}
          </Typography.Title>
          <Typography.Text data-testid="report-period">
            {t("reports.periodLine", {
              start: formatDate(props.report.start, locale),
              end: formatDate(props.report.end, locale),
            })}
          </Typography.Text>
          <br />
          <Typography.Text type="secondary" data-testid="report-filters">
            {filters.join(" · ")}
          </Typography.Text>
          <br />
          <Typography.Text type="secondary" data-testid="report-generated">
            {t("reports.generatedAt", { date: `${formatDate(todayIso(), locale)} ${time}` })}
          </Typography.Text>
        </div>
        <Space className="no-print" wrap>
          {props.actions}
          <PrintButton
            name={`${t(`reports.titles.${props.kind}`)} ${props.report.start}—${props.report.end}.pdf`}
            testId="report-print"
          />
        </Space>
      </Space>
    </header>
  );
};
