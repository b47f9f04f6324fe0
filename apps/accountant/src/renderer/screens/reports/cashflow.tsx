import type { TCashflowReport } from "@hisob/finance/schema";
import { formatDate, formatMonth, type Locale, minorToDecimal, QueryState, useLocale } from "@hisob/ui";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Card, Empty } from "antd";
import { useTranslation } from "react-i18next";
import { useApi, useMinorUnits, useMoney } from "../../api-context";
import { QUERIES } from "../../queries";
import { ChartCard } from "./chart-card";
import { ComparisonTable } from "./comparison-table";
import { DrillLink, useRestoredScroll } from "./drill";
import { ReportExport } from "./report-export";
import { ReportControls, ReportHeading, useReportParams } from "./report-frame";
import { accountHref, documentsHref, type ReportParams, reportFilters } from "./report-query";
import { CELL, NUM, ReportTable } from "./report-table";

/* Cash in and out per account and per day, week or month, each period between its opening and closing. */

type AccountFlow = TCashflowReport["accounts"][number];
type PeriodFlow = AccountFlow["periods"][number];

const FLOWS = ["income", "expense", "transfersIn", "transfersOut", "exchangesIn", "exchangesOut"] as const;

const toQuery = (report: ReportParams) => ({
  startDate: report.start,
  endDate: report.end,
  granularity: report.granularity,
  ...reportFilters(report, { compare: true }),
});

type Compared = TCashflowReport["comparedPeriods"][number];
type WithCompared = Pick<
  AccountFlow,
  "openingBalance" | "inflows" | "outflows" | "closingBalance" | "compared"
>;
const COMPARED_FIGURES = ["openingBalance", "inflows", "outflows", "closingBalance"] as const;
const COMPARED_LABELS = {
  openingBalance: "reports.opening",
  inflows: "reports.inflows",
  outflows: "reports.outflows",
  closingBalance: "reports.closing",
} as const;

/** An account's or a currency's opening, in, out and closing beside the compared period's. */
const Comparison = (props: {
  testId: string;
  currency: string;
  report: ReportParams;
  compared: Compared;
  figures: WithCompared;
}) => {
  const { t } = useTranslation();
  const entry = props.figures.compared.find((c) => c.compare === props.compared.compare);
  return (
    <ComparisonTable
      testId={props.testId}
      currency={props.currency}
      period={{ startDate: props.report.start, endDate: props.report.end }}
      compared={props.compared}
      columns={COMPARED_FIGURES.map((key) => ({
        key,
        label: t(COMPARED_LABELS[key]),
        value: props.figures[key],
        figure: entry?.[key],
      }))}
    />
  );
};

export const periodLabel = (
  row: Pick<PeriodFlow, "startDate" | "endDate">,
  by: ReportParams["granularity"],
  locale: Locale,
) =>
  by === "month"
    ? formatMonth(row.startDate, locale)
    : by === "day"
      ? formatDate(row.startDate, locale)
      : `${formatDate(row.startDate, locale)} – ${formatDate(row.endDate, locale)}`;

export const CashflowReport = () => {
  const { t } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const [report, setReport] = useReportParams(
    (next) => void queryClient.prefetchQuery(QUERIES.cashflow(api, toQuery(next))),
  );
  const query = toQuery(report);
  const cashflow = useQuery(QUERIES.cashflow(api, query));
  useRestoredScroll(cashflow.isSuccess);
  return (
    <div data-testid="report-cashflow" className="report-wide">
      <ReportControls
        report={report}
        onChange={setReport}
        account="optional"
        accounts="multiple"
        granularity
        compare
      />
      <ReportHeading
        kind="cashflow"
        report={report}
        compared={cashflow.data?.comparedPeriods[0]}
        actions={<ReportExport prepare={() => api.exports.cashflow.query(query)} />}
      />
      <QueryState query={cashflow} rows={8}>
        {(data) =>
          data.accounts.length === 0 ? (
            <Empty description={t("reports.nothing")} />
          ) : (
            <>
              <Totals data={data} report={report} />
              {data.accounts.map((account) => (
                <AccountSection
                  key={account.accountId}
                  account={account}
                  report={report}
                  compared={data.comparedPeriods[0]}
                />
              ))}
            </>
          )
        }
      </QueryState>
    </div>
  );
};

/** Per currency (never summed across currencies): the accounts' opening, in, out and closing, and a chart. */
const Totals = ({ data, report }: { data: TCashflowReport; report: ReportParams }) => {
  const { t } = useTranslation();
  const locale = useLocale();
  const money = useMoney(locale);
  const minorUnits = useMinorUnits();
  return (
    <>
      {data.totals.map((total) => {
        const { currency } = total;
        const accounts = data.accounts.filter((account) => account.currency === currency);
        const first = accounts[0]?.periods ?? [];
        // Per period: the same currency's accounts added (never another currency's).
        const rows = first.map((period, index) => {
          const sum = (key: "inflows" | "outflows") =>
            accounts.reduce((acc, account) => acc + BigInt(account.periods[index]?.[key] ?? "0"), 0n);
          const [inflows, outflows] = [sum("inflows"), sum("outflows")];
          const number = (minor: bigint) => Number(minorToDecimal(minor, minorUnits(currency)));
          return {
            label: periodLabel(period, report.granularity, locale),
            values: { inflows: number(inflows), outflows: number(outflows) },
            texts: { inflows: money(inflows, currency), outflows: money(outflows, currency) },
          };
        });
        return (
          <Card
            key={currency}
            title={t("reports.inCurrency", { currency })}
            style={{ marginBottom: 24 }}
            data-testid={`cashflow-total-${currency}`}
          >
            <ReportTable
              head={[t("reports.opening"), t("reports.inflows"), t("reports.outflows"), t("reports.closing")]}
            >
              <tr>
                <td style={{ ...CELL, textAlign: "right" }}>{money(total.openingBalance, currency)}</td>
                <td style={NUM} data-testid={`inflows-${currency}`}>
                  {money(total.inflows, currency)}
                </td>
                <td style={NUM} data-testid={`outflows-${currency}`}>
                  {money(total.outflows, currency)}
                </td>
                <td style={NUM} data-testid={`closing-${currency}`}>
                  {money(total.closingBalance, currency)}
                </td>
              </tr>
            </ReportTable>
            {data.comparedPeriods[0] ? (
              <Comparison
                testId={`cashflow-compare-${currency}`}
                currency={currency}
                report={report}
                compared={data.comparedPeriods[0]}
                figures={total}
              />
            ) : null}
            <ChartCard
              title={t("reports.charts.cash", { currency })}
              testId={`chart-cash-${currency}`}
              rows={rows}
              series={[
                { key: "inflows", name: t("reports.inflows"), color: "#0f6e5c" },
                { key: "outflows", name: t("reports.outflows"), color: "#d4634a" },
              ]}
              xLabel={t("reports.periodColumn")}
              yLabel={t("reports.amountIn", { currency })}
            />
          </Card>
        );
      })}
    </>
  );
};

const AccountSection = ({
  account,
  report,
  compared,
}: {
  account: AccountFlow;
  report: ReportParams;
  compared: Compared | undefined;
}) => {
  const { t } = useTranslation();
  const locale = useLocale();
  const money = useMoney(locale);
  const amount = (minor: string) => money(minor, account.currency);
  /** Income and expenses open their lists; moves between accounts open the account's entries. */
  const drill = (flow: (typeof FLOWS)[number], period: PeriodFlow) => {
    const dates = { from: period.startDate, to: period.endDate, accountId: account.accountId };
    return flow === "income"
      ? documentsHref("payments", dates)
      : flow === "expense"
        ? documentsHref("expenses", dates)
        : accountHref(account.accountId, { start: period.startDate, end: period.endDate });
  };
  // Exchange columns only for an account that exchanged money in the period (most never do).
  const flows = FLOWS.filter(
    (flow) => !flow.startsWith("exchange") || account.exchangesIn !== "0" || account.exchangesOut !== "0",
  );
  return (
    <Card
      title={`${account.name} (${account.currency})`}
      size="small"
      style={{ marginBottom: 24 }}
      data-testid={`cashflow-account-${account.accountId}`}
    >
      <ReportTable
        head={[
          t("reports.periodColumn"),
          t("reports.opening"),
          ...flows.map((flow) => t(`reports.flows.${flow}`)),
          t("reports.closing"),
        ]}
      >
        {account.periods.map((period, row) => (
          <tr key={period.period}>
            <td style={{ ...CELL, whiteSpace: "nowrap" }}>
              {periodLabel(period, report.granularity, locale)}
            </td>
            <td style={NUM}>{amount(period.openingBalance)}</td>
            {flows.map((flow) => (
              <td key={flow} style={NUM}>
                {period[flow] === "0" ? (
                  amount(period[flow])
                ) : (
                  <DrillLink to={drill(flow, period)} testId={`drill-${flow}-${account.accountId}-${row}`}>
                    {amount(period[flow])}
                  </DrillLink>
                )}
              </td>
            ))}
            <td style={NUM}>{amount(period.closingBalance)}</td>
          </tr>
        ))}
      </ReportTable>
      {compared ? (
        <Comparison
          testId={`cashflow-compare-${account.accountId}`}
          currency={account.currency}
          report={report}
          compared={compared}
          figures={account}
        />
      ) : null}
    </Card>
  );
};
