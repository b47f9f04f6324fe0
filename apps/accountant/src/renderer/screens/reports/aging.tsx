import type { TAgingReport } from "@hisob/finance/schema";
import { formatDate, minorToDecimal, QueryState, todayIso, useLocale } from "@hisob/ui";
import { useQuery } from "@tanstack/react-query";
import { Card, Empty, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router-dom";
import { KEYS, useApi, useMinorUnits, useMoney } from "../../api-context";
import { AgingDebtsDrawer } from "./aging-debts";
import { ChartCard } from "./chart-card";
import { DrillLink, useRestoredScroll } from "./drill";
import { DayControls, PartyReportHeading, usePartyParams } from "./party-report-frame";
import { AGING_BUCKETS, type AgingBucket, agingFigureHref, readAgingFigure } from "./party-report-query";
import { ReportExport } from "./report-export";
import { CELL, NUM, ReportTable } from "./report-table";

/*
 * Receivables and payables aging at the end of a day (decision 0087): per currency — never summed
 * across — what each counterparty owed us and we owed them, by days past due, with the totals; a chart
 * of the buckets (and its table); every figure opens the debts behind it.
 */

type Line = TAgingReport["totals"][number];
type Row = TAgingReport["rows"][number];
type Kind = Line["kind"];
const KINDS: Kind[] = ["receivable", "payable"];
const COLUMNS: (AgingBucket | "total")[] = [...AGING_BUCKETS, "total"];

export const AgingReport = () => {
  const { t } = useTranslation();
  const locale = useLocale();
  const api = useApi();
  const [params, setParams] = usePartyParams();
  const asOf = params.date;
  const aging = useQuery({
    queryKey: [...KEYS.reports, "aging", asOf],
    queryFn: () => api.reports.aging.query({ asOf }),
  });
  useRestoredScroll(aging.isSuccess);
  // A past day's figure opens its debts here (decision 0106); Back or the close button shuts them.
  const [search, setSearch] = useSearchParams();
  const figure = readAgingFigure(search);
  const closeFigure = () => {
    const next = new URLSearchParams(search);
    next.delete("debts");
    setSearch(next, { replace: true });
  };
  const currencies = [...new Set(aging.data?.totals.map((line) => line.currency) ?? [])];
  return (
    <div data-testid="report-aging" className="report-wide">
      <DayControls date={asOf} onChange={(date) => setParams({ date })} />
      <PartyReportHeading
        kind="aging"
        when={t("partyReports.asOfLine", { date: formatDate(asOf, locale) })}
        filters={t("partyReports.allCounterparties")}
        fileName={asOf}
        actions={<ReportExport prepare={() => api.exports.aging.query({ asOf })} />}
      />
      <QueryState query={aging} rows={8}>
        {(data) =>
          currencies.length === 0 ? (
            <Empty description={t("partyReports.noDebts")} />
          ) : (
            currencies.map((currency) => <CurrencySection key={currency} currency={currency} report={data} />)
          )
        }
      </QueryState>
      {figure ? (
        <AgingDebtsDrawer
          asOf={asOf}
          figure={figure}
          counterpartyName={
            figure.counterpartyId
              ? (aging.data?.rows.find((row) => row.counterpartyId === figure.counterpartyId)
                  ?.counterpartyName ?? null)
              : null
          }
          onClose={closeFigure}
        />
      ) : null}
    </div>
  );
};

const CurrencySection = ({ currency, report }: { currency: string; report: TAgingReport }) => {
  const { t } = useTranslation();
  const locale = useLocale();
  const money = useMoney(locale);
  const minorUnits = useMinorUnits();
  const today = todayIso();
  const [search] = useSearchParams();
  const totals = report.totals.filter((line) => line.currency === currency);
  const totalOf = (kind: Kind) => totals.find((line) => line.kind === kind);
  const number = (minor: string) => Number(minorToDecimal(BigInt(minor), minorUnits(currency)));
  /** A figure opens the debts behind it; a zero has none, and stays plain text. */
  const figure = (line: Line | Row, bucket: AgingBucket | "total", testId: string) => {
    const text = <span data-testid={testId}>{money(line[bucket], currency)}</span>;
    if (line[bucket] === "0") return text;
    return (
      <DrillLink
        to={agingFigureHref(
          {
            kind: line.kind,
            currency,
            bucket,
            counterpartyId: "counterpartyId" in line ? line.counterpartyId : null,
          },
          { asOf: report.asOf, today, search },
        )}
      >
        {text}
      </DrillLink>
    );
  };
  const chartRows = COLUMNS.filter((bucket) => bucket !== "total").map((bucket) => ({
    label: t(`partyReports.bucketsShort.${bucket}`),
    values: Object.fromEntries(KINDS.map((kind) => [kind, number(totalOf(kind)?.[bucket] ?? "0")])),
    texts: Object.fromEntries(KINDS.map((kind) => [kind, money(totalOf(kind)?.[bucket] ?? "0", currency)])),
  }));
  return (
    <Card
      title={t("reports.inCurrency", { currency })}
      // On paper a currency's section starts on a page where it fits, never leaving its title behind.
      style={{ marginBottom: 24, breakInside: "avoid" }}
      data-testid={`aging-${currency}`}
    >
      {KINDS.map((kind) => {
        const total = totalOf(kind);
        if (!total) return null;
        const rows = report.rows.filter((row) => row.kind === kind && row.currency === currency);
        return (
          <section key={kind} aria-label={`${t(`partyReports.kinds.${kind}`)}, ${currency}`}>
            <Typography.Title level={2} style={{ fontSize: 16, margin: "0 0 8px" }}>
              {t(`partyReports.kinds.${kind}`)}
            </Typography.Title>
            <ReportTable
              testId={`aging-${kind}-${currency}`}
              head={[
                t("partyReports.counterparty"),
                t("partyReports.debtCount"),
                ...COLUMNS.map((bucket) => t(`partyReports.buckets.${bucket}`)),
              ]}
            >
              {rows.map((row) => (
                <tr
                  key={row.counterpartyId}
                  data-testid={`aging-row-${kind}-${currency}-${row.counterpartyId}`}
                >
                  <td style={CELL}>{row.counterpartyName}</td>
                  <td style={NUM}>{row.debts}</td>
                  {COLUMNS.map((bucket) => (
                    <td key={bucket} style={NUM}>
                      {figure(row, bucket, `aging-${kind}-${currency}-${row.counterpartyId}-${bucket}`)}
                    </td>
                  ))}
                </tr>
              ))}
              <tr data-testid={`aging-total-${kind}-${currency}`}>
                <th style={{ ...CELL, textAlign: "left" }}>{t("partyReports.total")}</th>
                <th style={NUM}>{total.debts}</th>
                {COLUMNS.map((bucket) => (
                  <th key={bucket} style={NUM}>
                    {figure(total, bucket, `aging-total-${kind}-${currency}-${bucket}`)}
                  </th>
                ))}
              </tr>
            </ReportTable>
          </section>
        );
      })}
      <ChartCard
        title={t("partyReports.agingChart", { currency })}
        testId={`chart-aging-${currency}`}
        rows={chartRows}
        series={KINDS.filter((kind) => totalOf(kind)).map((kind) => ({
          key: kind,
          name: t(`partyReports.kinds.${kind}`),
          color: kind === "receivable" ? "#0f6e5c" : "#d4634a",
        }))}
        xLabel={t("partyReports.ageing")}
        yLabel={t("reports.amountIn", { currency })}
      />
    </Card>
  );
};
