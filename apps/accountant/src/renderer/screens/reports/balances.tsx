import type { TBalancesReport } from "@hisob/finance/schema";
import { formatDate, QueryState, useLocale } from "@hisob/ui";
import { useQuery } from "@tanstack/react-query";
import { Card, Empty } from "antd";
import { useTranslation } from "react-i18next";
import { KEYS, useApi, useMoney } from "../../api-context";
import { DrillLink, useRestoredScroll } from "./drill";
import { DayControls, PartyReportHeading, usePartyParams } from "./party-report-frame";
import { statementToDateHref } from "./party-report-query";
import { ReportExport } from "./report-export";
import { CELL, NUM, ReportTable } from "./report-table";

/*
 * Every account's balance at the end of a chosen day (decision 0087), one section per currency with its
 * total; a balance opens the account's statement ending that day.
 */

export const BalancesReport = () => {
  const { t } = useTranslation();
  const locale = useLocale();
  const api = useApi();
  const [params, setParams] = usePartyParams();
  const date = params.date;
  const balances = useQuery({
    queryKey: [...KEYS.reports, "balances", date],
    queryFn: () => api.reports.balances.query({ date }),
  });
  useRestoredScroll(balances.isSuccess);
  return (
    <div data-testid="report-balances">
      <DayControls date={date} onChange={(day) => setParams({ date: day })} />
      <PartyReportHeading
        kind="balances"
        when={t("partyReports.asOfLine", { date: formatDate(date, locale) })}
        filters={t("reports.allAccounts")}
        fileName={date}
        actions={<ReportExport prepare={() => api.exports.balances.query({ date })} />}
      />
      <QueryState query={balances} rows={6}>
        {(data) =>
          data.totals.length === 0 ? (
            <Empty description={t("partyReports.noBalances")} />
          ) : (
            data.totals.map((total) => <CurrencySection key={total.currency} total={total} report={data} />)
          )
        }
      </QueryState>
    </div>
  );
};

const CurrencySection = ({
  total,
  report,
}: {
  total: TBalancesReport["totals"][number];
  report: TBalancesReport;
}) => {
  const { t } = useTranslation();
  const locale = useLocale();
  const money = useMoney(locale);
  const { currency } = total;
  return (
    <Card
      title={t("reports.inCurrency", { currency })}
      // On paper a currency's section starts on a page where it fits, never leaving its title behind.
      style={{ marginBottom: 24, breakInside: "avoid" }}
      data-testid={`balances-${currency}`}
    >
      <ReportTable
        testId={`balances-table-${currency}`}
        textColumns={2}
        head={[t("partyReports.account"), t("partyReports.number"), t("partyReports.balance")]}
      >
        {report.accounts
          .filter((account) => account.currency === currency)
          .map((account) => (
            <tr key={account.accountId}>
              <td style={CELL}>{account.name}</td>
              <td style={CELL}>{account.number}</td>
              <td style={NUM}>
                <DrillLink
                  to={statementToDateHref(account.accountId, report.date)}
                  testId={`balance-${account.accountId}`}
                >
                  {money(account.balance, currency)}
                </DrillLink>
              </td>
            </tr>
          ))}
        <tr>
          <th style={{ ...CELL, textAlign: "left" }} colSpan={2}>
            {t("partyReports.totalAccounts", { n: total.accounts })}
          </th>
          <th style={NUM} data-testid={`balances-total-${currency}`}>
            {money(total.balance, currency)}
          </th>
        </tr>
      </ReportTable>
    </Card>
  );
};
