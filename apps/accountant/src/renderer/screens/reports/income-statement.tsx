import type { TIncomeStatement } from "@hisob/finance/schema";
import { formatMonth, minorToDecimal, QueryState, useLocale } from "@hisob/ui";
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
import { documentsHref, incomeStatementInput, monthWithin, type ReportParams } from "./report-query";
import { CELL, NUM, ReportTable } from "./report-table";

/* Revenue, expenses and net income over a period: one section per currency, by category and by month. */

type Section = TIncomeStatement["currencies"][number];
type CategoryLine = Section["revenueByCategory"][number];

export const IncomeStatementReport = () => {
  const { t } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const [report, setReport] = useReportParams(
    (next) => void queryClient.prefetchQuery(QUERIES.incomeStatement(api, incomeStatementInput(next))),
  );
  const query = incomeStatementInput(report);
  const statement = useQuery(QUERIES.incomeStatement(api, query));
  useRestoredScroll(statement.isSuccess);
  return (
    <div data-testid="report-income">
      <ReportControls
        report={report}
        onChange={setReport}
        account="optional"
        accounts="multiple"
        categories
        counterparties
        compare
      />
      <ReportHeading
        kind="income"
        report={report}
        compared={statement.data?.comparedPeriods[0]}
        actions={<ReportExport prepare={() => api.exports.incomeStatement.query(query)} />}
      />
      <QueryState query={statement} rows={8}>
        {(data) =>
          data.currencies.length === 0 ? (
            <Empty description={t("reports.nothing")} />
          ) : (
            data.currencies.map((section) => (
              <CurrencySection
                key={section.currency}
                section={section}
                report={report}
                compared={data.comparedPeriods[0]}
              />
            ))
          )
        }
      </QueryState>
    </div>
  );
};

const CurrencySection = ({
  section,
  report,
  compared,
}: {
  section: Section;
  report: ReportParams;
  compared: TIncomeStatement["comparedPeriods"][number] | undefined;
}) => {
  const { t } = useTranslation();
  const locale = useLocale();
  const money = useMoney(locale);
  const minorUnits = useMinorUnits();
  const { currency } = section;
  const amount = (minor: string) => money(minor, currency);
  const period = { from: report.start, to: report.end, accountId: report.accountId };
  const categoryCell = (kind: "payments" | "expenses", line: CategoryLine, index: number) =>
    // The lists cannot filter for "no category": that line is shown, not linked.
    line.categoryId ? (
      <DrillLink
        to={documentsHref(kind, { ...period, categoryId: line.categoryId })}
        testId={`drill-${kind}-${currency}-${index}`}
      >
        {amount(line.amount)}
      </DrillLink>
    ) : (
      amount(line.amount)
    );
  const categoryRows = (kind: "payments" | "expenses", lines: CategoryLine[]) =>
    lines.map((line, index) => (
      <tr key={line.categoryId ?? "none"}>
        <td style={{ ...CELL, paddingLeft: 32 }}>{line.categoryName ?? t("reports.noCategory")}</td>
        <td style={NUM}>{categoryCell(kind, line, index)}</td>
      </tr>
    ));
  const number = (minor: string) => Number(minorToDecimal(BigInt(minor), minorUnits(currency)));
  const months = section.byMonth.map((row) => ({
    label: formatMonth(`${row.month}-01`, locale),
    values: { revenue: number(row.revenue), expenses: number(row.expenses) },
    texts: { revenue: amount(row.revenue), expenses: amount(row.expenses) },
  }));
  const categories = section.expensesByCategory.map((line) => ({
    label: line.categoryName ?? t("reports.noCategory"),
    values: { expenses: number(line.amount) },
    texts: { expenses: amount(line.amount) },
  }));
  return (
    <Card
      title={t("reports.inCurrency", { currency })}
      style={{ marginBottom: 24 }}
      data-testid={`income-${currency}`}
    >
      <ReportTable
        testId={`income-categories-${currency}`}
        head={[t("reports.category"), t("reports.amount")]}
      >
        <tr>
          <th style={{ ...CELL, textAlign: "left" }}>{t("reports.revenue")}</th>
          <th style={NUM}>
            <DrillLink to={documentsHref("payments", period)} testId={`drill-revenue-${currency}`}>
              <span data-testid={`revenue-${currency}`}>{amount(section.revenue)}</span>
            </DrillLink>
          </th>
        </tr>
        {categoryRows("payments", section.revenueByCategory)}
        <tr>
          <th style={{ ...CELL, textAlign: "left" }}>{t("reports.expenses")}</th>
          <th style={NUM}>
            <DrillLink to={documentsHref("expenses", period)} testId={`drill-expenses-${currency}`}>
              <span data-testid={`expenses-${currency}`}>{amount(section.expenses)}</span>
            </DrillLink>
          </th>
        </tr>
        {categoryRows("expenses", section.expensesByCategory)}
        <tr>
          <th style={{ ...CELL, textAlign: "left" }}>{t("reports.netIncome")}</th>
          <th style={NUM} data-testid={`net-${currency}`}>
            {amount(section.netIncome)}
          </th>
        </tr>
      </ReportTable>
      {compared ? (
        <ComparisonTable
          testId={`income-compare-${currency}`}
          currency={currency}
          period={{ startDate: report.start, endDate: report.end }}
          compared={compared}
          columns={(["revenue", "expenses", "netIncome"] as const).map((key) => ({
            key,
            label: t(`reports.${key}`),
            value: section[key],
            figure: section.compared.find((entry) => entry.compare === compared.compare)?.[key],
          }))}
        />
      ) : null}
      <ReportTable
        testId={`income-months-${currency}`}
        head={[t("reports.month"), t("reports.revenue"), t("reports.expenses"), t("reports.netIncome")]}
      >
        {section.byMonth.map((row) => {
          const dates = monthWithin(row.month, report);
          const month = { ...period, from: dates.start, to: dates.end };
          return (
            <tr key={row.month}>
              <td style={CELL}>{formatMonth(`${row.month}-01`, locale)}</td>
              <td style={NUM}>
                <DrillLink to={documentsHref("payments", month)}>{amount(row.revenue)}</DrillLink>
              </td>
              <td style={NUM}>
                <DrillLink to={documentsHref("expenses", month)}>{amount(row.expenses)}</DrillLink>
              </td>
              <td style={NUM}>{amount(row.netIncome)}</td>
            </tr>
          );
        })}
      </ReportTable>
      <ChartCard
        title={t("reports.charts.byMonth", { currency })}
        testId={`chart-months-${currency}`}
        rows={months}
        series={[
          { key: "revenue", name: t("reports.revenue"), color: "#0f6e5c" },
          { key: "expenses", name: t("reports.expenses"), color: "#d4634a" },
        ]}
        xLabel={t("reports.month")}
        yLabel={t("reports.amountIn", { currency })}
      />
      {categories.length > 0 ? (
        <ChartCard
          title={t("reports.charts.byCategory", { currency })}
          testId={`chart-categories-${currency}`}
          rows={categories}
          series={[{ key: "expenses", name: t("reports.expenses"), color: "#d4634a" }]}
          xLabel={t("reports.category")}
          yLabel={t("reports.amountIn", { currency })}
          layout="vertical"
        />
      ) : null}
    </Card>
  );
};
