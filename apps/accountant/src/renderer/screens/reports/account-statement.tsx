import { formatDate, minorToDecimal, QueryState, useLocale } from "@hisob/ui";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Alert, Button, Empty } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { KEYS, useApi, useMinorUnits, useMoney } from "../../api-context";
import { periodLabel } from "./cashflow";
import { ChartCard } from "./chart-card";
import { DrillLink, useRestoredScroll } from "./drill";
import { ReportExport } from "./report-export";
import { ReportControls, ReportHeading, useReportParams } from "./report-frame";
import { accountHref, documentsHref, type Granularity, type ReportParams } from "./report-query";
import { CELL, NUM, ReportPages, ReportTable } from "./report-table";

/*
 * Any account over any period: opening balance, each entry with the balance after it, closing balance.
 * Outputs: this screen (printable as it is), the print view of screens/statement-print.tsx, and the .xlsx.
 */

const PAGE = 500;

const DAY_MS = 86_400_000;
/** The balance chart's step: days over two months, weeks over a year, months beyond. */
export const balanceStep = (start: string, end: string): Granularity => {
  const days = (Date.parse(end) - Date.parse(start)) / DAY_MS + 1;
  return days <= 62 ? "day" : days <= 371 ? "week" : "month";
};

/**
 * The account's balance at the end of each day, week or month of the period: the closing balances the
 * server's cash flow report gives per period for this one account (nothing summed here).
 */
const BalanceChart = ({ accountId, report }: { accountId: string; report: ReportParams }) => {
  const { t } = useTranslation();
  const api = useApi();
  const locale = useLocale();
  const money = useMoney(locale);
  const minorUnits = useMinorUnits();
  const granularity = balanceStep(report.start, report.end);
  const query = { startDate: report.start, endDate: report.end, granularity, accountId };
  const cashflow = useQuery({
    queryKey: [...KEYS.reports, "cashflow", query],
    queryFn: () => api.reports.cashflow.query(query),
  });
  const account = cashflow.data?.accounts[0];
  if (!account) return null;
  const { currency } = account;
  const rows = account.periods.map((period) => ({
    label: periodLabel(period, granularity, locale),
    values: { balance: Number(minorToDecimal(BigInt(period.closingBalance), minorUnits(currency))) },
    texts: { balance: money(period.closingBalance, currency) },
  }));
  return (
    <ChartCard
      title={t("reports.charts.balance", { account: `${account.name} (${currency})` })}
      testId="chart-balance"
      type="line"
      rows={rows}
      series={[{ key: "balance", name: t("reports.balance"), color: "#0f6e5c" }]}
      xLabel={t("reports.periodColumn")}
      yLabel={t("reports.amountIn", { currency })}
    />
  );
};

export const AccountStatementReport = () => {
  const { t } = useTranslation();
  const locale = useLocale();
  const money = useMoney(locale);
  const api = useApi();
  const navigate = useNavigate();
  const [report, setReport] = useReportParams();
  const [page, setPage] = useState(1);
  const accountId = report.accountId;
  const query = { startDate: report.start, endDate: report.end, limit: PAGE, offset: (page - 1) * PAGE };
  const statement = useQuery({
    queryKey: [...KEYS.statement, accountId, "report", query],
    enabled: accountId !== null,
    placeholderData: keepPreviousData,
    queryFn: () => api.reports.accountStatement.query({ accountId: accountId ?? "", query }),
  });
  useRestoredScroll(statement.isSuccess);
  const printView = accountId ? `/accounts/${accountId}/print?start=${report.start}&end=${report.end}` : "";
  return (
    <div data-testid="report-statement">
      <ReportControls
        report={report}
        onChange={(change) => {
          setPage(1);
          setReport(change);
        }}
        account="required"
      />
      <ReportHeading
        kind="statement"
        report={report}
        actions={
          accountId ? (
            <>
              <Button onClick={() => navigate(printView)} data-testid="statement-print-view">
                {t("accounts.printView")}
              </Button>
              <ReportExport
                prepare={() =>
                  api.exports.accountStatement.query({
                    accountId,
                    query: { startDate: report.start, endDate: report.end },
                  })
                }
              />
            </>
          ) : null
        }
      />
      {accountId === null ? (
        <Empty description={t("reports.chooseAccount")} />
      ) : (
        <QueryState query={statement} rows={10}>
          {(data) => {
            const currency = data.account.currency;
            return (
              <>
                {data.total > PAGE ? (
                  <Alert
                    className="no-print"
                    type="info"
                    showIcon
                    style={{ marginBottom: 12 }}
                    title={t("reports.statementPages", { count: data.total, page: PAGE })}
                  />
                ) : null}
                <BalanceChart accountId={data.account.id} report={report} />
                <ReportTable
                  testId="statement-table"
                  textColumns={3}
                  head={[
                    t("documents.date"),
                    t("accounts.type"),
                    t("documents.comment"),
                    t("accounts.change"),
                    t("accounts.runningBalance"),
                  ]}
                >
                  <tr>
                    <td style={CELL} colSpan={4}>
                      <strong>{t("accounts.opening")}</strong>
                    </td>
                    <td style={NUM} data-testid="statement-opening">
                      <strong>{money(data.openingBalance, currency)}</strong>
                    </td>
                  </tr>
                  {data.entries.map((entry) => {
                    const day = { from: entry.date, to: entry.date, accountId: data.account.id };
                    const to =
                      entry.type === "income"
                        ? documentsHref("payments", day)
                        : entry.type === "expense"
                          ? documentsHref("expenses", day)
                          : accountHref(data.account.id, { start: entry.date, end: entry.date });
                    return (
                      <tr key={entry.id}>
                        <td style={{ ...CELL, whiteSpace: "nowrap" }}>{formatDate(entry.date, locale)}</td>
                        <td style={CELL}>{t(`types.${entry.type}`)}</td>
                        <td style={CELL}>{entry.comment}</td>
                        <td style={NUM}>
                          <DrillLink to={to}>{money(entry.change, currency)}</DrillLink>
                        </td>
                        <td style={NUM}>{money(entry.runningBalance, currency)}</td>
                      </tr>
                    );
                  })}
                  <tr>
                    <td style={CELL} colSpan={4}>
                      <strong>{t("accounts.closing")}</strong>
                    </td>
                    <td style={NUM} data-testid="statement-closing">
                      <strong>{money(data.closingBalance, currency)}</strong>
                    </td>
                  </tr>
                </ReportTable>
                <ReportPages page={page} pageSize={PAGE} total={data.total} onChange={setPage} />
              </>
            );
          }}
        </QueryState>
      )}
    </div>
  );
};
