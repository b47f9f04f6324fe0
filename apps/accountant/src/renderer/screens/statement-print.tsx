import type { TAccountStatement } from "@hisob/finance/schema";
import { formatDate, QueryState, todayIso, useLocale } from "@hisob/ui";
import { useQuery } from "@tanstack/react-query";
import { Alert, Button, Space, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams, useSearchParams } from "react-router-dom";
import { KEYS, useApi, useMoney } from "../api-context";
import { DateInput } from "../components/date-input";
import { DownloadButton, PrintButton } from "../components/downloads";
import { PrintHeader } from "../components/print-header";

/*
 * An account statement laid out for paper: one period, every entry in date order with the balance
 * after it, between the opening and the closing balance. The controls are not printed; the shell's
 * navigation and header are hidden by the print stylesheet (base.css). A period of more entries than
 * one print run should hold asks for a shorter one (the .xlsx has them all).
 */

const PAGE = 1000;
const MAX_PAGES = 5;

const monthStart = (today: string) => `${today.slice(0, 8)}01`;

const CELL = { padding: "4px 8px", borderBottom: "1px solid #ddd" } as const;
const NUM = { ...CELL, textAlign: "right", whiteSpace: "nowrap" } as const;

export const StatementPrintScreen = () => {
  const { id = "" } = useParams();
  const { t } = useTranslation();
  const locale = useLocale();
  const money = useMoney(locale);
  const api = useApi();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const today = todayIso();
  const startDate = params.get("start") || monthStart(today);
  const endDate = params.get("end") || today;
  const period = { startDate, endDate };
  const setPeriod = (change: Partial<typeof period>) => {
    const next = { ...period, ...change };
    setParams({ start: next.startDate, end: next.endDate }, { replace: true });
  };
  const statement = useQuery({
    queryKey: [...KEYS.statement, id, "print", period],
    enabled: startDate <= endDate,
    queryFn: async () => {
      const first = await api.reports.accountStatement.query({
        accountId: id,
        query: { ...period, limit: PAGE, offset: 0 },
      });
      const entries = [...first.entries];
      for (let page = 1; page < MAX_PAGES && entries.length < first.total; page += 1) {
        const next = await api.reports.accountStatement.query({
          accountId: id,
          query: { ...period, limit: PAGE, offset: page * PAGE },
        });
        entries.push(...next.entries);
      }
      return { ...first, entries } satisfies TAccountStatement;
    },
  });
  /** A reversed entry and its reversal say so, and why, as on the screen. */
  const reversalNote = (entry: TAccountStatement["entries"][number]) => {
    const tag = entry.reversedById
      ? t("transfers.reversedTag")
      : entry.reversalOfId
        ? t("transfers.reversalTag")
        : null;
    if (!tag) return null;
    return entry.reversalReason
      ? `${tag}. ${t("transfers.reasonShown", { reason: entry.reversalReason })}`
      : tag;
  };

  return (
    <div data-testid="statement-print">
      <Space className="no-print" wrap style={{ marginBottom: 16 }}>
        <Button onClick={() => navigate(`/accounts/${id}`)}>← {t("accounts.backToAccount")}</Button>
        <label htmlFor="print-from">{t("documents.from")}</label>
        <DateInput
          id="print-from"
          width={150}
          value={startDate}
          onChange={(d) => d && setPeriod({ startDate: d })}
        />
        <label htmlFor="print-to">{t("documents.to")}</label>
        <DateInput
          id="print-to"
          width={150}
          value={endDate}
          onChange={(d) => d && setPeriod({ endDate: d })}
        />
        <PrintButton name={t("accounts.statement")} testId="print-statement" />
        <DownloadButton
          testId="download-statement-period"
          prepare={() => api.exports.accountStatement.query({ accountId: id, query: period })}
        />
      </Space>
      {startDate > endDate ? <Alert type="warning" showIcon title={t("accounts.periodOrder")} /> : null}
      <QueryState query={statement} rows={10}>
        {(data) => (
          <article style={{ background: "#fff", padding: 24, maxWidth: 1000 }}>
            <PrintHeader />
            <Typography.Title level={1} style={{ margin: "4px 0 0" }}>
              {t("accounts.statement")}: {data.account.name}
              {data.account.number ? ` (${data.account.number})` : ""}
            </Typography.Title>
            <Typography.Paragraph>
              {formatDate(data.startDate, locale)} — {formatDate(data.endDate, locale)} ·{" "}
              {data.account.currency}
            </Typography.Paragraph>
            {data.entries.length < data.total ? (
              <Alert
                className="no-print"
                type="info"
                showIcon
                style={{ marginBottom: 12 }}
                title={t("accounts.printTooLong", { shown: data.entries.length, count: data.total })}
              />
            ) : null}
            <table
              style={{ width: "100%", borderCollapse: "collapse", fontSize: 13 }}
              data-testid="print-table"
            >
              <thead>
                <tr>
                  <th style={{ ...CELL, textAlign: "left" }}>{t("documents.date")}</th>
                  <th style={{ ...CELL, textAlign: "left" }}>{t("accounts.type")}</th>
                  <th style={{ ...CELL, textAlign: "left" }}>{t("documents.comment")}</th>
                  <th style={NUM}>{t("accounts.change")}</th>
                  <th style={NUM}>{t("accounts.runningBalance")}</th>
                </tr>
              </thead>
              <tbody>
                <tr>
                  <td style={CELL} colSpan={4}>
                    <strong>{t("accounts.opening")}</strong>
                  </td>
                  <td style={NUM}>
                    <strong>{money(data.openingBalance, data.account.currency)}</strong>
                  </td>
                </tr>
                {data.entries.map((entry) => (
                  <tr key={entry.id}>
                    <td style={{ ...CELL, whiteSpace: "nowrap" }}>{formatDate(entry.date, locale)}</td>
                    <td style={CELL}>{t(`types.${entry.type}`)}</td>
                    <td style={CELL}>
                      {entry.comment}
                      {reversalNote(entry) ? (
                        <div
                          style={{ fontSize: 12, color: "#595959" }}
                          data-testid={`print-reversal-${entry.id}`}
                        >
                          {reversalNote(entry)}
                        </div>
                      ) : null}
                    </td>
                    <td style={NUM}>{money(entry.change, data.account.currency)}</td>
                    <td style={NUM}>{money(entry.runningBalance, data.account.currency)}</td>
                  </tr>
                ))}
                <tr>
                  <td style={CELL} colSpan={4}>
                    <strong>{t("accounts.closing")}</strong>
                  </td>
                  <td style={NUM}>
                    <strong data-testid="print-closing">
                      {money(data.closingBalance, data.account.currency)}
                    </strong>
                  </td>
                </tr>
              </tbody>
            </table>
          </article>
        )}
      </QueryState>
    </div>
  );
};
