import {
  formatDate,
  formatMonth,
  lazyLoaded,
  minorToDecimal,
  QueryState,
  todayIso,
  totalsByCurrency,
  useLocale,
} from "@hisob/ui";
import { useQuery } from "@tanstack/react-query";
import { Card, Col, List, Row, Segmented, Skeleton, Statistic, Tag, Typography } from "antd";
import { Suspense, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useAllAccounts, useApi, useMinorUnits, useMoney } from "../api-context";
import { DownloadButton, PrintButton } from "../components/downloads";
import { PrintHeader } from "../components/print-header";
import { SetupGate } from "../components/setup-gate";
import { lastTwelveMonths, QUERIES, thisMonthPeriod, twelveMonthsPeriod } from "../queries";
import { useBaseCurrency } from "../setup-progress";

const CARD_HEIGHT = 300;

// The chart library is fetched beside the cards' data (from here, as the dashboard's code arrives),
// not before the first screen can show; arrived, it draws with the data at once (0105).
const MonthChart = lazyLoaded(() => import("../components/month-chart").then((m) => m.default));
void MonthChart.preload().catch(() => undefined);

export const DashboardScreen = () => {
  const { t } = useTranslation();
  return (
    <div>
      <SetupGate />
      <PrintHeader printOnly />
      <div
        style={{ display: "flex", justifyContent: "space-between", alignItems: "center", marginBottom: 16 }}
      >
        <Typography.Title level={1} style={{ margin: 0 }}>
          {t("dashboard.title")}
        </Typography.Title>
        <PrintButton name={t("dashboard.title")} testId="print-dashboard" />
      </div>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={14}>
          <Balances />
        </Col>
        <Col xs={24} xl={10}>
          <ThisMonth />
        </Col>
        <Col xs={24} xl={14}>
          <TwelveMonths />
        </Col>
        <Col xs={24} xl={10}>
          <NextDebts />
        </Col>
      </Row>
    </div>
  );
};

const TABLE = { width: "100%", borderCollapse: "collapse", tableLayout: "fixed" } as const;
const CELL = { padding: "8px", borderBottom: "1px solid #f0f0f0", textAlign: "left" } as const;
const HEAD = { position: "sticky", top: 0, background: "#fafafa", fontWeight: 600, zIndex: 1 } as const;
const ELLIPSIS = { overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" } as const;

const Balances = () => {
  const { t } = useTranslation();
  const locale = useLocale();
  const money = useMoney(locale);
  const accounts = useAllAccounts();
  return (
    <Card title={t("dashboard.balances")} style={{ minHeight: CARD_HEIGHT }} data-testid="balances">
      <QueryState
        query={accounts}
        isEmpty={(page) => page.items.length === 0}
        empty={t("dashboard.noAccounts")}
      >
        {(page) => (
          <>
            {/* A plain table, not antd's: the dashboard is the first screen, and antd's Table (with
                its tree filters and pagination, ~63 kB gzipped) then loads only with the lists. */}
            <div style={{ maxHeight: 260, overflowY: "auto" }}>
              <table style={TABLE} aria-label={t("dashboard.balances")}>
                <thead>
                  <tr>
                    <th style={{ ...CELL, ...HEAD }}>{t("accounts.name")}</th>
                    <th style={{ ...CELL, ...HEAD, width: 90 }}>{t("accounts.currency")}</th>
                    <th style={{ ...CELL, ...HEAD, textAlign: "right" }}>{t("accounts.balance")}</th>
                  </tr>
                </thead>
                <tbody>
                  {page.items.map((row) => (
                    <tr key={row.id}>
                      <td style={{ ...CELL, ...ELLIPSIS }} title={row.name}>
                        {row.name}
                      </td>
                      <td style={CELL}>{row.currency}</td>
                      <td style={{ ...CELL, textAlign: "right" }}>
                        <span data-testid={`balance-${row.name}`} style={{ whiteSpace: "nowrap" }}>
                          {money(row.balance, row.currency)}
                        </span>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Typography.Title level={2} style={{ marginTop: 16, fontSize: 16 }}>
              {t("dashboard.totals")}
            </Typography.Title>
            <div style={{ display: "flex", gap: 24, flexWrap: "wrap" }} data-testid="totals">
              {totalsByCurrency(
                page.items,
                (row) => row.currency,
                (row) => row.balance,
              ).map((total) => (
                <Statistic
                  key={total.currency}
                  title={total.currency}
                  value={money(total.total, total.currency)}
                  styles={{ content: { fontSize: 20 } }}
                />
              ))}
            </div>
          </>
        )}
      </QueryState>
    </Card>
  );
};

const ThisMonth = () => {
  const { t } = useTranslation();
  const locale = useLocale();
  const money = useMoney(locale);
  const api = useApi();
  const today = todayIso();
  const period = thisMonthPeriod(today);
  const report = useQuery(QUERIES.incomeStatement(api, period));
  return (
    <Card
      title={t("dashboard.thisMonth")}
      extra={
        <DownloadButton testId="download-income" prepare={() => api.exports.incomeStatement.query(period)} />
      }
      style={{ minHeight: CARD_HEIGHT }}
      data-testid="this-month"
    >
      <QueryState
        query={report}
        isEmpty={(data) => data.currencies.length === 0}
        empty={t("dashboard.noMovement")}
      >
        {(data) => (
          <List
            dataSource={data.currencies}
            renderItem={(row) => (
              <List.Item style={{ display: "block" }}>
                <Tag>{row.currency}</Tag>
                {(
                  [
                    ["dashboard.income", row.revenue, "#0f6e5c"],
                    ["dashboard.expenses", row.expenses, "#b42318"],
                    ["dashboard.net", row.netIncome, undefined],
                  ] as const
                ).map(([label, amount, color]) => (
                  <div
                    key={label}
                    style={{ display: "flex", justifyContent: "space-between", gap: 12, marginTop: 8 }}
                  >
                    <Typography.Text type="secondary">{t(label)}</Typography.Text>
                    <Typography.Text strong style={{ color, whiteSpace: "nowrap", fontSize: 16 }}>
                      {money(amount, row.currency)}
                    </Typography.Text>
                  </div>
                ))}
              </List.Item>
            )}
          />
        )}
      </QueryState>
    </Card>
  );
};

type MonthRow = { period: string; income: bigint; expense: bigint };

/** Per currency, income and expenses of each of the last 12 months (summed within a currency only). */
const monthlyByCurrency = (
  accounts: readonly {
    currency: string;
    periods: readonly { period: string; income: string; expense: string }[];
  }[],
  months: readonly string[],
) => {
  const byCurrency = new Map<string, Map<string, MonthRow>>();
  for (const account of accounts) {
    let rows = byCurrency.get(account.currency);
    if (!rows) {
      // Keyed "2026-11": the report labels a month period so (its rows keep the month's first day).
      rows = new Map(months.map((period) => [period.slice(0, 7), { period, income: 0n, expense: 0n }]));
      byCurrency.set(account.currency, rows);
    }
    for (const period of account.periods) {
      const row = rows.get(period.period.slice(0, 7));
      if (!row) continue;
      row.income += BigInt(period.income);
      row.expense += BigInt(period.expense);
    }
  }
  return byCurrency;
};

const TwelveMonths = () => {
  const { t } = useTranslation();
  const locale = useLocale();
  const money = useMoney(locale);
  const minorUnits = useMinorUnits();
  const api = useApi();
  const today = todayIso();
  const months = useMemo(() => lastTwelveMonths(today), [today]);
  const period = twelveMonthsPeriod(today);
  const report = useQuery(QUERIES.cashflow(api, period));
  const [chosen, setChosen] = useState<string | null>(null);
  // The organization's base currency opens the chart when it has movements.
  const base = useBaseCurrency();
  return (
    <Card
      title={t("dashboard.last12Months")}
      extra={<DownloadButton testId="download-cashflow" prepare={() => api.exports.cashflow.query(period)} />}
      style={{ minHeight: CARD_HEIGHT }}
      data-testid="twelve-months"
    >
      <QueryState
        query={report}
        isEmpty={(data) => data.accounts.length === 0}
        empty={t("dashboard.noMovement")}
        rows={8}
      >
        {(data) => {
          const byCurrency = monthlyByCurrency(data.accounts, months);
          // The base currency, then the one with the most months of income or expenses (never compared by amount).
          const activeMonths = (code: string) =>
            [...(byCurrency.get(code)?.values() ?? [])].filter(
              (row) => row.income !== 0n || row.expense !== 0n,
            ).length;
          const currencies = [...byCurrency.keys()].sort(
            (a, b) =>
              Number(b === base) - Number(a === base) ||
              activeMonths(b) - activeMonths(a) ||
              a.localeCompare(b),
          );
          const currency = chosen && byCurrency.has(chosen) ? chosen : (currencies[0] ?? "");
          const units = minorUnits(currency);
          // Bar heights only: amounts are shown (tooltip) from the exact bigint.
          const rows = [...(byCurrency.get(currency)?.values() ?? [])].map((row) => ({
            label: formatMonth(row.period, locale),
            income: Number(minorToDecimal(row.income, units)),
            expense: Number(minorToDecimal(row.expense, units)),
            incomeText: money(row.income, currency),
            expenseText: money(row.expense, currency),
          }));
          return (
            <>
              {currencies.length > 1 ? (
                <Segmented
                  aria-label={t("dashboard.currency")}
                  options={currencies}
                  value={currency}
                  onChange={(value) => setChosen(String(value))}
                  style={{ marginBottom: 12 }}
                />
              ) : null}
              <div
                style={{ height: 240 }}
                role="img"
                aria-label={`${t("dashboard.last12Months")} (${currency})`}
              >
                <Suspense fallback={<Skeleton.Node active style={{ width: "100%", height: 240 }} />}>
                  <MonthChart rows={rows} locale={locale} />
                </Suspense>
              </div>
            </>
          );
        }}
      </QueryState>
    </Card>
  );
};

const NextDebts = () => {
  const { t } = useTranslation();
  const locale = useLocale();
  const money = useMoney(locale);
  const api = useApi();
  const debts = useQuery(QUERIES.nextDebts(api));
  return (
    <Card title={t("dashboard.nextDebts")} style={{ minHeight: CARD_HEIGHT }} data-testid="next-debts">
      <QueryState query={debts} isEmpty={(rows) => rows.length === 0} empty={t("dashboard.noDebts")}>
        {(rows) => (
          <List
            dataSource={rows}
            renderItem={(row) => (
              <List.Item>
                {/* Not List.Item.Meta: its title is an h4, out of the page's heading order. */}
                <div>
                  <Typography.Text strong style={{ display: "block" }}>
                    {row.counterparty || row.description}
                  </Typography.Text>
                  <Typography.Text type="secondary">
                    <Tag color={row.kind === "receivable" ? "green" : "orange"}>
                      {t(row.kind === "receivable" ? "dashboard.receivable" : "dashboard.payable")}
                    </Tag>
                    {row.dueDate
                      ? `${t("dashboard.due")}: ${formatDate(row.dueDate, locale)}`
                      : t("dashboard.noDueDate")}
                  </Typography.Text>
                </div>
                <span style={{ whiteSpace: "nowrap" }}>{money(row.outstanding, row.currency)}</span>
              </List.Item>
            )}
          />
        )}
      </QueryState>
    </Card>
  );
};
