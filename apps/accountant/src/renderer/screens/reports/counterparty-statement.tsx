import type { TCounterpartyStatement } from "@hisob/finance/schema";
import { formatDate, QueryState, useLocale } from "@hisob/ui";
import { useQuery } from "@tanstack/react-query";
import { Card, Empty, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { KEYS, useApi, useMoney } from "../../api-context";
import { DrillLink, useRestoredScroll } from "./drill";
import { CounterpartyControls, PartyReportHeading, usePartyParams } from "./party-report-frame";
import { statementEntryHref } from "./party-report-query";
import { ReportExport } from "./report-export";
import { CELL, NUM, ReportTable } from "./report-table";

/*
 * Everything with one counterparty over a period (decision 0087) — payments, expenses, debts recorded,
 * settlements, write-offs, transfers and exchanges through them — per currency, between what was owed
 * each way at the start and at the end: the statement an accountant hands the client to agree on.
 */

type Section = TCounterpartyStatement["currencies"][number];

export const CounterpartyStatementReport = () => {
  const { t } = useTranslation();
  const locale = useLocale();
  const api = useApi();
  const [params, setParams] = usePartyParams();
  const { counterpartyId, start, end } = params;
  const query = { startDate: start, endDate: end };
  const statement = useQuery({
    queryKey: [...KEYS.reports, "counterparty", counterpartyId, query],
    enabled: counterpartyId !== null,
    queryFn: () => api.reports.counterpartyStatement.query({ counterpartyId: counterpartyId ?? "", query }),
  });
  useRestoredScroll(statement.isSuccess);
  const party = statement.data?.counterparty;
  const filters = party
    ? [
        `${t("partyReports.counterparty")}: ${party.name}`,
        ...(party.tin ? [t("partyReports.tin", { tin: party.tin })] : []),
      ].join(" · ")
    : t("partyReports.chooseCounterparty");
  return (
    <div data-testid="report-counterparty">
      <CounterpartyControls params={params} onChange={setParams} />
      <PartyReportHeading
        kind="counterparty"
        when={t("reports.periodLine", { start: formatDate(start, locale), end: formatDate(end, locale) })}
        filters={filters}
        fileName={`${party?.name ?? ""} ${start}—${end}`.trim()}
        actions={
          counterpartyId ? (
            <ReportExport
              prepare={() => api.exports.counterpartyStatement.query({ counterpartyId, query })}
            />
          ) : null
        }
      />
      {counterpartyId === null ? (
        <Empty description={t("partyReports.chooseCounterparty")} />
      ) : (
        <QueryState query={statement} rows={8}>
          {(data) =>
            data.currencies.length === 0 ? (
              <Empty description={t("partyReports.noEntries")} />
            ) : (
              data.currencies.map((section) => (
                <CurrencySection key={section.currency} section={section} statement={data} />
              ))
            )
          }
        </QueryState>
      )}
    </div>
  );
};

const CurrencySection = ({ section, statement }: { section: Section; statement: TCounterpartyStatement }) => {
  const { t } = useTranslation();
  const locale = useLocale();
  const money = useMoney(locale);
  const { currency } = section;
  const entries = statement.entries.filter((entry) => entry.currency === currency);
  const amount = (minor: string) => money(minor, currency);
  return (
    <Card
      title={t("reports.inCurrency", { currency })}
      style={{ marginBottom: 24 }}
      data-testid={`counterparty-${currency}`}
    >
      <ReportTable
        testId={`counterparty-table-${currency}`}
        textColumns={3}
        head={[
          t("partyReports.date"),
          t("partyReports.type"),
          t("partyReports.description"),
          t("partyReports.amount"),
          t("partyReports.receivableChange"),
          t("partyReports.payableChange"),
        ]}
      >
        <tr>
          <th style={{ ...CELL, textAlign: "left" }} colSpan={4}>
            {t("partyReports.opening")} ({formatDate(statement.startDate, locale)})
          </th>
          <th style={NUM} data-testid={`opening-receivable-${currency}`}>
            {amount(section.openingReceivable)}
          </th>
          <th style={NUM} data-testid={`opening-payable-${currency}`}>
            {amount(section.openingPayable)}
          </th>
        </tr>
        {entries.map((entry, index) => {
          const to = statementEntryHref(entry, statement.counterparty.id);
          const moved = entry.type !== "debt" && entry.type !== "writeOff";
          return (
            <tr
              key={`${entry.type}-${entry.id}-${index}`}
              data-testid={`counterparty-entry-${currency}-${index}`}
            >
              <td style={{ ...CELL, whiteSpace: "nowrap" }}>{formatDate(entry.date, locale)}</td>
              <td style={CELL}>{t(`partyReports.entryTypes.${entry.type}`)}</td>
              <td style={{ ...CELL, overflowWrap: "anywhere" }}>{entry.description}</td>
              <td style={NUM}>
                {moved ? (
                  to ? (
                    <DrillLink to={to} testId={`counterparty-drill-${currency}-${index}`}>
                      {amount(entry.amount)}
                    </DrillLink>
                  ) : (
                    amount(entry.amount)
                  )
                ) : (
                  ""
                )}
              </td>
              <td style={NUM}>{entry.receivableChange === "0" ? "" : amount(entry.receivableChange)}</td>
              <td style={NUM}>{entry.payableChange === "0" ? "" : amount(entry.payableChange)}</td>
            </tr>
          );
        })}
        <tr>
          <th style={{ ...CELL, textAlign: "left" }} colSpan={4}>
            {t("partyReports.closing")} ({formatDate(statement.endDate, locale)})
          </th>
          <th style={NUM} data-testid={`closing-receivable-${currency}`}>
            {amount(section.closingReceivable)}
          </th>
          <th style={NUM} data-testid={`closing-payable-${currency}`}>
            {amount(section.closingPayable)}
          </th>
        </tr>
      </ReportTable>
      <Typography.Text data-testid={`counterparty-moved-${currency}`}>
        {t("partyReports.moved")}: {t("partyReports.received")}{" "}
        <strong data-testid={`received-${currency}`}>{amount(section.received)}</strong> ·{" "}
        {t("partyReports.paid")} <strong data-testid={`paid-${currency}`}>{amount(section.paid)}</strong>
      </Typography.Text>
    </Card>
  );
};
