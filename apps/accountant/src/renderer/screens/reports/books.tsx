import type { TBalanceSheet, TGeneralLedger, TProfitAndLoss, TTrialBalance } from "@hisob/finance/schema";
import { formatDate, QueryState, todayIso, useLocale } from "@hisob/ui";
import { keepPreviousData, type UseQueryResult, useQuery } from "@tanstack/react-query";
import { Alert, Card, Empty, Pagination, Select, Space, Typography } from "antd";
import type { CSSProperties, ReactNode } from "react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router-dom";
import { KEYS, useApi, useMoney } from "../../api-context";
import { DateInput } from "../../components/date-input";
import type { Download } from "../../components/downloads";
import {
  type BooksKind,
  type BooksParams,
  booksSearch,
  generalLedgerHref,
  ledgerDocumentHref,
  readBooksParams,
  yearToDate,
} from "./books-query";
import { ComparisonTable } from "./comparison-table";
import { DrillLink, useRestoredScroll } from "./drill";
import { DayControls, PartyReportHeading } from "./party-report-frame";
import { ReportExport } from "./report-export";
import { CompareFilter } from "./report-filters";
import { periodFields, ReportFilterBar } from "./report-frame";
import { CELL, NUM, ReportTable } from "./report-table";

/*
 * The books' reports on the general ledger (docs/decisions/0101-books-reports.md): trial balance,
 * general ledger of an account of the chart, balance sheet at a day and profit and loss. Every figure
 * is the server's (base currency, minor units), shown in the user's number format with the account's
 * name in the user's language; a figure opens the general ledger of its account for its period, a
 * general-ledger line opens its document. The period and the day are the address's, shared with the
 * other reports; print and .xlsx as every report.
 */

type Named = { code: string; nameEn: string; nameRu: string; nameUz: string };

const useAccountName = () => {
  const locale = useLocale();
  return (account: Named) =>
    locale === "ru" ? account.nameRu : locale === "uz" ? account.nameUz : account.nameEn;
};

/** What every books table formats with: the base currency's amounts, dates. */
const useBooksFormat = (baseCurrency: string | null) => {
  const { t } = useTranslation();
  const locale = useLocale();
  const money = useMoney(locale);
  const currency = baseCurrency ?? "";
  return { t, locale, currency, amount: (minor: string) => money(minor, currency) };
};

/** A report's table in its card, under the line that names the base currency. */
const BooksCard = (props: { currency: string; children: ReactNode }) => {
  const { t } = useTranslation();
  return (
    <Card>
      <Typography.Paragraph type="secondary">
        {t("booksReports.inBase", { currency: props.currency })}
      </Typography.Paragraph>
      {props.children}
    </Card>
  );
};

/** The books' filters in the address (replacing, so Back leaves the report, not a filter). */
const useBooksParams = (): [BooksParams, (change: Partial<BooksParams>) => void] => {
  const [params, setParams] = useSearchParams();
  const books = readBooksParams(params, todayIso());
  return [books, (change) => setParams(booksSearch(params, change), { replace: true })];
};

/**
 * What every books' report is: its controls, its heading (print and .xlsx beside it), and its table
 * once the server has answered — or its empty state, or the placeholder it shows before it can ask.
 * The scroll a drill-down left is restored once the figures are drawn.
 */
const BooksReportFrame = <T,>(props: {
  kind: BooksKind;
  controls: ReactNode;
  when: string;
  filters: string;
  fileName: string;
  /** The report's .xlsx, once it can be asked for. */
  prepare: (() => Promise<Download>) | null;
  query: UseQueryResult<T>;
  rows: number;
  /** Shown instead of the report while it cannot be asked for (no account chosen). */
  placeholder?: ReactNode;
  /** The empty state's words, when the report has nothing to show. */
  empty?: { when: (data: T) => boolean; description: string };
  children: (data: T) => ReactNode;
}) => {
  const { t } = useTranslation();
  const { query, empty } = props;
  useRestoredScroll(query.isSuccess);
  return (
    <div data-testid={`report-${props.kind}`}>
      {props.controls}
      <PartyReportHeading
        title={t(`booksReports.titles.${props.kind}`)}
        when={props.when}
        filters={props.filters}
        fileName={props.fileName}
        actions={props.prepare ? <ReportExport prepare={props.prepare} /> : null}
      />
      {props.placeholder ?? (
        <QueryState query={query} rows={props.rows}>
          {(data) => (empty?.when(data) ? <Empty description={empty.description} /> : props.children(data))}
        </QueryState>
      )}
    </div>
  );
};

/** What every books' report screen starts from: words, language, the API, the address's filters. */
const useBooksScreen = () => {
  const { t } = useTranslation();
  const locale = useLocale();
  const api = useApi();
  const [params, setParams] = useBooksParams();
  return { t, locale, api, params, setParams };
};

/** The period's fields in the filter bar, then the report's own filters. */
const PeriodBar = (props: {
  params: BooksParams;
  onChange: (change: Partial<BooksParams>) => void;
  children?: ReactNode;
}) => {
  const { t } = useTranslation();
  return (
    <ReportFilterBar>
      {periodFields(t, props.params, props.onChange, todayIso())}
      {props.children}
    </ReportFilterBar>
  );
};

/** A books' report's figures from the server, under the reports' key with its kind and input. */
const useBooksQuery = <I, T>(kind: BooksKind, input: I, fetch: (input: I) => Promise<T>) =>
  useQuery({ queryKey: [...KEYS.reports, kind, input], queryFn: () => fetch(input) });

const usePeriodLine = (params: BooksParams) => {
  const { t } = useTranslation();
  const locale = useLocale();
  return t("reports.periodLine", {
    start: formatDate(params.start, locale),
    end: formatDate(params.end, locale),
  });
};

const BOLD: CSSProperties = { fontWeight: 600 };
const indent = (depth: number): CSSProperties => ({ ...CELL, paddingLeft: 8 + depth * 20 });

/** A table of the chart's accounts: their code and name, then the figures' columns. */
const AccountsTable = (props: { testId: string; figures: string[]; children: ReactNode }) => {
  const { t } = useTranslation();
  return (
    <ReportTable
      testId={props.testId}
      textColumns={2}
      head={[t("booksReports.code"), t("booksReports.account"), ...props.figures]}
    >
      {props.children}
    </ReportTable>
  );
};

/** An account's line: its code, its name indented by its depth (a group's in bold), then its figures. */
const AccountLine = (props: { line: Named & { depth: number; isGroup: boolean }; children: ReactNode }) => {
  const nameOf = useAccountName();
  return (
    <tr style={props.line.isGroup ? BOLD : undefined}>
      <td style={CELL}>{props.line.code}</td>
      <td style={indent(props.line.depth)}>{nameOf(props.line)}</td>
      {props.children}
    </tr>
  );
};

/** A total's line: its label across the code and the name, then its figures. */
const TotalLine = (props: { label: string; figures: { key: string; value: string; testId?: string }[] }) => (
  <tr style={BOLD}>
    <th style={{ ...CELL, textAlign: "left" }} colSpan={2}>
      {props.label}
    </th>
    {props.figures.map((figure) => (
      <th key={figure.key} style={NUM} data-testid={figure.testId}>
        {figure.value}
      </th>
    ))}
  </tr>
);

// ---- Trial balance --------------------------------------------------------------------------------

const TB_FIGURES = ["opening", "debit", "credit", "closing"] as const;

export const TrialBalanceReport = () => {
  const { t, api, params, setParams } = useBooksScreen();
  const period = { startDate: params.start, endDate: params.end };
  const report = useBooksQuery("trial-balance", period, api.generalLedger.trialBalance.query);
  return (
    <BooksReportFrame
      kind="trial-balance"
      controls={<PeriodBar params={params} onChange={setParams} />}
      when={usePeriodLine(params)}
      filters={t("booksReports.whole")}
      fileName={`${params.start}—${params.end}`}
      prepare={() => api.exports.trialBalance.query(period)}
      query={report}
      rows={8}
      empty={{ when: (data) => data.tree.length === 0, description: t("booksReports.nothing") }}
    >
      {(data) => <TrialBalanceTable data={data} params={params} />}
    </BooksReportFrame>
  );
};

const TrialBalanceTable = ({ data, params }: { data: TTrialBalance; params: BooksParams }) => {
  const { t, currency, amount } = useBooksFormat(data.baseCurrency);
  return (
    <BooksCard currency={currency}>
      <AccountsTable testId="trial-balance-table" figures={TB_FIGURES.map((key) => t(`booksReports.${key}`))}>
        {data.tree.map((row) => (
          <AccountLine key={row.accountId} line={row}>
            {TB_FIGURES.map((key) => (
              <td key={key} style={NUM} data-testid={`tb-${row.code}-${key}`}>
                <DrillLink to={generalLedgerHref(row.accountId, params)}>{amount(row[key])}</DrillLink>
              </td>
            ))}
          </AccountLine>
        ))}
        <TotalLine
          label={t("booksReports.total")}
          figures={TB_FIGURES.map((key) => ({
            key,
            value: amount(data.totals[key]),
            testId: `tb-total-${key}`,
          }))}
        />
      </AccountsTable>
    </BooksCard>
  );
};

// ---- General ledger --------------------------------------------------------------------------------

const PAGE = 500;

export const GeneralLedgerReport = () => {
  const { t, api, params, setParams } = useBooksScreen();
  const nameOf = useAccountName();
  const [offset, setOffset] = useState(0);
  const chart = useQuery({
    queryKey: [...KEYS.reports, "chart"],
    queryFn: () => api.generalLedger.accounts.query(),
  });
  const accountId = params.glAccountId;
  const query = { startDate: params.start, endDate: params.end, limit: PAGE, offset };
  const ledger = useQuery({
    queryKey: [...KEYS.reports, "general-ledger", accountId, query],
    queryFn: () => api.generalLedger.generalLedger.query({ accountId: accountId ?? "", query }),
    enabled: accountId !== null,
    placeholderData: keepPreviousData,
  });
  const account = chart.data?.find((each) => each.id === accountId);
  const change = (next: Partial<BooksParams>) => {
    setOffset(0);
    setParams(next);
  };
  return (
    <BooksReportFrame
      kind="general-ledger"
      controls={
        <PeriodBar params={params} onChange={change}>
          <Select
            aria-label={t("booksReports.accountOfChart")}
            data-testid="report-gl-account"
            style={{ width: 340 }}
            showSearch={{ optionFilterProp: "label" }}
            value={accountId ?? undefined}
            placeholder={t("booksReports.chooseAccount")}
            onChange={(id: string) => change({ glAccountId: id })}
            options={(chart.data ?? []).map((each) => ({
              value: each.id,
              label: `${each.code} ${nameOf(each)}`,
            }))}
          />
        </PeriodBar>
      }
      when={usePeriodLine(params)}
      filters={
        account
          ? `${t("booksReports.account")}: ${account.code} ${nameOf(account)}`
          : t("booksReports.chooseAccount")
      }
      fileName={`${account?.code ?? ""} ${params.start}—${params.end}`}
      prepare={
        accountId
          ? () =>
              api.exports.generalLedger.query({
                accountId,
                query: { startDate: params.start, endDate: params.end },
              })
          : null
      }
      query={ledger}
      rows={10}
      placeholder={accountId === null ? <Empty description={t("booksReports.chooseAccount")} /> : undefined}
    >
      {(data) => <GeneralLedgerTable data={data} onPage={setOffset} />}
    </BooksReportFrame>
  );
};

const GeneralLedgerTable = ({ data, onPage }: { data: TGeneralLedger; onPage: (offset: number) => void }) => {
  const { t, locale, currency, amount } = useBooksFormat(data.baseCurrency);
  const group = data.account.isGroup;
  const turnover = (minor: string) => (minor === "0" ? "" : amount(minor));
  const textColumns = group ? 4 : 3;
  const edge = (label: string, balance: string, testId: string, debit = "", credit = "") => (
    <tr style={BOLD}>
      <td style={CELL} colSpan={textColumns}>
        {label}
      </td>
      <td style={NUM}>{debit}</td>
      <td style={NUM}>{credit}</td>
      <td style={NUM} data-testid={testId}>
        {amount(balance)}
      </td>
    </tr>
  );
  return (
    <BooksCard currency={currency}>
      <ReportTable
        testId="general-ledger-table"
        textColumns={textColumns}
        head={[
          t("booksReports.date"),
          ...(group ? [t("booksReports.code")] : []),
          t("booksReports.document"),
          t("booksReports.description"),
          t("booksReports.debit"),
          t("booksReports.credit"),
          t("booksReports.balanceAfter"),
        ]}
      >
        {edge(
          `${t("booksReports.opening")}, ${formatDate(data.startDate, locale)}`,
          data.opening,
          "gl-opening",
        )}
        {data.lines.map((line) => {
          const href = ledgerDocumentHref(line);
          const label = t(`booksReports.documents.${line.document.kind}`);
          return (
            <tr key={line.lineId} data-testid="gl-line">
              <td style={{ ...CELL, whiteSpace: "nowrap" }}>{formatDate(line.date, locale)}</td>
              {group ? <td style={CELL}>{line.code}</td> : null}
              <td style={CELL}>
                {href ? (
                  <DrillLink to={href} testId={`gl-document-${line.lineId}`}>
                    {label}
                  </DrillLink>
                ) : (
                  label
                )}
              </td>
              <td style={CELL}>{[line.counterpartyName, line.description].filter(Boolean).join(" · ")}</td>
              <td style={NUM}>{turnover(line.debit)}</td>
              <td style={NUM}>{turnover(line.credit)}</td>
              <td style={NUM}>{amount(line.balance)}</td>
            </tr>
          );
        })}
        {edge(
          `${t("booksReports.closing")}, ${formatDate(data.endDate, locale)}`,
          data.closing,
          "gl-closing",
          amount(data.debit),
          amount(data.credit),
        )}
      </ReportTable>
      {data.total > data.limit ? (
        <Space className="no-print">
          <Typography.Text type="secondary">
            {t("booksReports.pageOf", {
              from: data.offset + 1,
              to: data.offset + data.lines.length,
              total: data.total,
            })}
          </Typography.Text>
          <Pagination
            simple
            current={Math.floor(data.offset / data.limit) + 1}
            pageSize={data.limit}
            total={data.total}
            onChange={(page) => onPage((page - 1) * data.limit)}
          />
        </Space>
      ) : null}
    </BooksCard>
  );
};

// ---- Balance sheet ------------------------------------------------------------------------------------

export const BalanceSheetReport = () => {
  const { t, locale, api, params, setParams } = useBooksScreen();
  const input = { date: params.date, ...(params.compareDate ? { compareDate: params.compareDate } : {}) };
  const report = useBooksQuery("balance-sheet", input, api.generalLedger.balanceSheet.query);
  return (
    <BooksReportFrame
      kind="balance-sheet"
      controls={
        <Space wrap className="no-print" align="start">
          <DayControls date={params.date} onChange={(date) => setParams({ date })} />
          <Space style={{ marginBottom: 16 }}>
            <label htmlFor="report-compare-day">{t("booksReports.compareDate")}</label>
            <DateInput
              id="report-compare-day"
              width={150}
              allowClear
              value={params.compareDate ?? ""}
              onChange={(date) => setParams({ compareDate: date || null })}
            />
          </Space>
        </Space>
      }
      when={t("partyReports.asOfLine", { date: formatDate(params.date, locale) })}
      filters={
        params.compareDate
          ? `${t("booksReports.compareDate")}: ${formatDate(params.compareDate, locale)}`
          : t("booksReports.whole")
      }
      fileName={params.date}
      prepare={() => api.exports.balanceSheet.query(input)}
      query={report}
      rows={8}
      empty={{
        when: (data) =>
          data.assets.lines.length + data.liabilities.lines.length + data.equity.lines.length === 0 &&
          data.retainedEarnings.amount === "0",
        description: t("booksReports.nothingAtDay"),
      }}
    >
      {(data) => <BalanceSheetTable data={data} />}
    </BooksReportFrame>
  );
};

const BalanceSheetTable = ({ data }: { data: TBalanceSheet }) => {
  const { t, locale, currency, amount } = useBooksFormat(data.baseCurrency);
  const compared = data.compareDate !== null;
  const period = yearToDate(data.date);
  const cells = (figure: string, other: string | null, testId?: string) => (
    <>
      <td style={NUM} data-testid={testId}>
        {amount(figure)}
      </td>
      {compared ? <td style={NUM}>{amount(other ?? "0")}</td> : null}
    </>
  );
  const total = (label: string, figure: string, other: string | null, testId: string) => (
    <TotalLine
      label={label}
      figures={[
        { key: "day", value: amount(figure), testId },
        ...(compared ? [{ key: "compared", value: amount(other ?? "0") }] : []),
      ]}
    />
  );
  const side = (key: "assets" | "liabilities" | "equity") =>
    data[key].lines.map((line) => (
      <AccountLine key={line.accountId} line={line}>
        <td style={NUM} data-testid={`bs-${line.code}`}>
          <DrillLink to={generalLedgerHref(line.accountId, period)}>{amount(line.amount)}</DrillLink>
        </td>
        {compared ? <td style={NUM}>{amount(line.compared ?? "0")}</td> : null}
      </AccountLine>
    ));
  const heading = (label: string) => (
    <tr>
      <th colSpan={compared ? 4 : 3} style={{ ...CELL, textAlign: "left", fontSize: 14 }}>
        {label}
      </th>
    </tr>
  );
  return (
    <BooksCard currency={currency}>
      {data.balanced ? null : (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 12 }}
          data-testid="bs-unbalanced"
          message={t("booksReports.unbalanced", { amount: amount(data.difference) })}
        />
      )}
      <AccountsTable
        testId="balance-sheet-table"
        figures={[
          t("booksReports.atDay", { date: formatDate(data.date, locale) }),
          ...(data.compareDate
            ? [t("booksReports.atDay", { date: formatDate(data.compareDate, locale) })]
            : []),
        ]}
      >
        {heading(t("booksReports.assets"))}
        {side("assets")}
        {total(t("booksReports.assets"), data.assets.total, data.assets.comparedTotal, "bs-assets")}
        {heading(t("booksReports.liabilities"))}
        {side("liabilities")}
        {total(
          t("booksReports.liabilities"),
          data.liabilities.total,
          data.liabilities.comparedTotal,
          "bs-liabilities",
        )}
        {heading(t("booksReports.equity"))}
        {side("equity")}
        <tr>
          <td style={CELL} />
          <td style={CELL}>{t("booksReports.retainedEarnings")}</td>
          {cells(data.retainedEarnings.amount, data.retainedEarnings.compared, "bs-retained")}
        </tr>
        {total(t("booksReports.equity"), data.equity.total, data.equity.comparedTotal, "bs-equity")}
        {total(
          t("booksReports.liabilitiesAndEquity"),
          data.liabilitiesAndEquity.amount,
          data.liabilitiesAndEquity.compared,
          "bs-liabilities-and-equity",
        )}
      </AccountsTable>
    </BooksCard>
  );
};

// ---- Profit and loss ---------------------------------------------------------------------------------

export const ProfitAndLossReport = () => {
  const { t, locale, api, params, setParams } = useBooksScreen();
  const input = {
    startDate: params.start,
    endDate: params.end,
    ...(params.compare ? { compare: params.compare } : {}),
  };
  const report = useBooksQuery("profit-and-loss", input, api.generalLedger.profitAndLoss.query);
  const compared = report.data?.comparedPeriods[0];
  return (
    <BooksReportFrame
      kind="profit-and-loss"
      controls={
        <PeriodBar params={params} onChange={setParams}>
          <CompareFilter value={params.compare} onChange={(compare) => setParams({ compare })} />
        </PeriodBar>
      }
      when={usePeriodLine(params)}
      filters={
        params.compare && compared
          ? t("reports.compare.line", {
              what: t(`reports.compare.${params.compare}`),
              start: formatDate(compared.startDate, locale),
              end: formatDate(compared.endDate, locale),
            })
          : t("booksReports.whole")
      }
      fileName={`${params.start}—${params.end}`}
      prepare={() => api.exports.profitAndLoss.query(input)}
      query={report}
      rows={8}
      empty={{
        when: (data) => data.incomeLines.length + data.expenseLines.length === 0,
        description: t("booksReports.nothing"),
      }}
    >
      {(data) => <ProfitAndLossTable data={data} params={params} />}
    </BooksReportFrame>
  );
};

const ProfitAndLossTable = ({ data, params }: { data: TProfitAndLoss; params: BooksParams }) => {
  const { t, locale, currency, amount } = useBooksFormat(data.baseCurrency);
  const periods = data.comparedPeriods;
  const dates = (period: { startDate: string; endDate: string }) =>
    `${formatDate(period.startDate, locale)} – ${formatDate(period.endDate, locale)}`;
  const lines = (rows: TProfitAndLoss["incomeLines"]) =>
    rows.map((line) => (
      <AccountLine key={line.accountId} line={line}>
        <td style={NUM} data-testid={`pl-${line.code}`}>
          <DrillLink to={generalLedgerHref(line.accountId, params)}>{amount(line.amount)}</DrillLink>
        </td>
        {line.compared.map((value, index) => (
          <td key={periods[index]?.compare ?? index} style={NUM}>
            {amount(value)}
          </td>
        ))}
      </AccountLine>
    ));
  const total = (key: "income" | "expenses" | "netResult", testId: string) => (
    <TotalLine
      label={t(`booksReports.${key}`)}
      figures={[
        { key: "period", value: amount(data[key]), testId },
        ...data.compared.map((each, index) => ({
          key: periods[index]?.compare ?? String(index),
          value: amount(each[key].value),
        })),
      ]}
    />
  );
  const first = periods[0];
  const comparedFigures = data.compared[0];
  return (
    <BooksCard currency={currency}>
      <AccountsTable
        testId="profit-and-loss-table"
        figures={[
          dates(data),
          ...periods.map((period) => `${t(`reports.compare.${period.compare}`)}: ${dates(period)}`),
        ]}
      >
        {lines(data.incomeLines)}
        {total("income", "pl-income")}
        {lines(data.expenseLines)}
        {total("expenses", "pl-expenses")}
        {total("netResult", "pl-net")}
      </AccountsTable>
      {first && comparedFigures ? (
        <ComparisonTable
          testId="pl-comparison"
          currency={currency}
          period={data}
          compared={first}
          columns={[
            {
              key: "income",
              label: t("booksReports.income"),
              value: data.income,
              figure: comparedFigures.income,
            },
            {
              key: "expenses",
              label: t("booksReports.expenses"),
              value: data.expenses,
              figure: comparedFigures.expenses,
            },
            {
              key: "netResult",
              label: t("booksReports.netResult"),
              value: data.netResult,
              figure: comparedFigures.netResult,
            },
          ]}
        />
      ) : null}
    </BooksCard>
  );
};
