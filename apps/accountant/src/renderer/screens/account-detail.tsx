import { FIRST_DATE, LAST_DATE, type TAccountStatement } from "@hisob/finance/schema";
import { formatDate, numberLocale, QueryState, useLocale } from "@hisob/ui";
import { useQuery } from "@tanstack/react-query";
import { Alert, Button, Card, Descriptions, Skeleton, Space, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router-dom";
import { KEYS, useApi, useMoney } from "../api-context";
import { DownloadButton } from "../components/downloads";
import { PeriodFilter, periodSearch, usePeriod } from "../components/period-filter";
import { ReverseDialog } from "./account-detail/reverse-dialog";
import { EdgeRow, EntryCells, ROW_HEIGHT, ROW_STYLE, StatementHeader } from "./account-detail/statement-rows";
import { useStatementPages } from "./account-detail/use-statement-pages";
import { type Movement, MovementEditDialog } from "./movement-edit";

/*
 * An account and its transactions in a period (all time by default; the period is in the address),
 * newest first, with the balance after each, between the period's closing balance (on top) and its
 * opening balance (at the bottom, as on paper). Rows are virtual and fetched from the server a page
 * at a time as they scroll into view, so 100,000 entries scroll as smoothly as 10: only the visible
 * pages are ever requested or rendered. The server pages newest first too (order=desc), so the page
 * the screen opens on is the cheapest one to read. A long comment wraps: rows are measured as drawn.
 */

type Entry = TAccountStatement["entries"][number];
export const AccountDetailScreen = () => {
  const { id = "" } = useParams();
  const { t } = useTranslation();
  const locale = useLocale();
  const money = useMoney(locale);
  const api = useApi();
  const navigate = useNavigate();
  const [period, setPeriod] = usePeriod();
  const range = { startDate: period.start ?? FIRST_DATE, endDate: period.end ?? LAST_DATE };
  const inOrder = range.startDate <= range.endDate;
  const account = useQuery({
    queryKey: [...KEYS.accounts, "one", id],
    queryFn: () => api.accounts.get.query({ id }),
  });
  const { first, total, scroller, virtualizer, items, entryAt } = useStatementPages(id, range, inOrder);
  const [reversing, setReversing] = useState<Entry | null>(null);
  const [editing, setEditing] = useState<Movement | null>(null);

  return (
    <div>
      <Space style={{ marginBottom: 16 }} wrap>
        <Button onClick={() => navigate("/accounts")}>← {t("accounts.back")}</Button>
        <DownloadButton
          testId="download-statement"
          disabled={!inOrder}
          // All time: no dates, so the file is dated by the account's own first and last entry.
          prepare={() =>
            api.exports.accountStatement.query({
              accountId: id,
              query: period.start && period.end ? { startDate: period.start, endDate: period.end } : {},
            })
          }
        />
        <Button
          onClick={() => navigate(`/accounts/${id}/print${periodSearch(period)}`)}
          data-testid="open-print-view"
        >
          {t("accounts.printView")}
        </Button>
      </Space>
      <QueryState query={account} rows={3}>
        {(row) => (
          <Card style={{ marginBottom: 16 }}>
            <Typography.Title level={1} style={{ marginTop: 0 }}>
              {row.name}
            </Typography.Title>
            <Descriptions size="small" column={{ xs: 1, md: 3 }}>
              <Descriptions.Item label={t("accounts.number")}>{row.number || "—"}</Descriptions.Item>
              <Descriptions.Item label={t("accounts.currency")}>{row.currency}</Descriptions.Item>
              <Descriptions.Item label={t("accounts.balance")}>
                <strong data-testid="account-balance">{money(row.balance, row.currency)}</strong>
              </Descriptions.Item>
            </Descriptions>
          </Card>
        )}
      </QueryState>
      <div style={{ marginBottom: 12 }} data-testid="statement-period">
        <PeriodFilter value={period} onChange={setPeriod} />
      </div>
      {/* An end before the start asks for another period instead of a statement that cannot load. */}
      {!inOrder ? (
        <Alert type="warning" showIcon title={t("accounts.periodOrder")} style={{ marginBottom: 12 }} />
      ) : (
        <Card
          title={t("accounts.transactions")}
          extra={
            first.data
              ? t("accounts.entries", {
                  count: total,
                  // Grouped as the app's money is (uz: "100 000"; browsers would write "100,000").
                  n: new Intl.NumberFormat(numberLocale(locale)).format(total),
                })
              : null
          }
          styles={{ body: { padding: 0 } }}
        >
          <QueryState query={first} rows={8}>
            {(data) => (
              <table
                aria-label={t("accounts.transactions")}
                // The header, the closing balance, the entries, the opening balance.
                aria-rowcount={total + 3}
                style={{ display: "block", width: "100%" }}
              >
                <StatementHeader />
                <tbody style={{ display: "block" }}>
                  <EdgeRow
                    label={t("accounts.closing")}
                    date={period.end ? formatDate(period.end, locale) : ""}
                    balance={money(data.closingBalance, data.account.currency)}
                    testId="statement-closing"
                    rowIndex={2}
                  />
                </tbody>
                <tbody
                  ref={scroller}
                  style={{
                    display: "block",
                    // The rows as measured (a reversal's reason wraps to two lines), so a short
                    // statement shows whole, without a scroll of its own.
                    height: Math.min(480, Math.max(virtualizer.getTotalSize(), ROW_HEIGHT) + 2),
                    maxHeight: "calc(100vh - 260px)",
                    minHeight: ROW_HEIGHT,
                    overflow: "auto",
                    position: "relative",
                  }}
                  data-testid="statement-scroller"
                >
                  <tr style={{ display: "block", height: virtualizer.getTotalSize() }} aria-hidden />
                  {total === 0 ? (
                    <tr style={{ ...ROW_STYLE, position: "absolute", top: 0, left: 0, right: 0 }}>
                      <td style={{ gridColumn: "1 / -1", color: "#595959" }}>
                        {t(period.start ? "accounts.noTransactionsInPeriod" : "accounts.noTransactions")}
                      </td>
                    </tr>
                  ) : null}
                  {items.map((item) => {
                    const entry = entryAt(item.index);
                    return (
                      <tr
                        key={item.key}
                        ref={virtualizer.measureElement}
                        data-index={item.index}
                        aria-rowindex={item.index + 3}
                        style={{
                          ...ROW_STYLE,
                          position: "absolute",
                          top: 0,
                          left: 0,
                          right: 0,
                          transform: `translateY(${item.start}px)`,
                        }}
                      >
                        {entry ? (
                          <EntryCells
                            entry={entry}
                            currency={data.account.currency}
                            onEdit={setEditing}
                            onReverse={setReversing}
                          />
                        ) : (
                          <td style={{ gridColumn: "1 / -1" }}>
                            <Skeleton.Input active size="small" block />
                          </td>
                        )}
                      </tr>
                    );
                  })}
                </tbody>
                <tbody style={{ display: "block" }}>
                  <EdgeRow
                    label={t("accounts.opening")}
                    date={period.start ? formatDate(period.start, locale) : ""}
                    balance={money(data.openingBalance, data.account.currency)}
                    testId="statement-opening"
                    rowIndex={total + 3}
                  />
                </tbody>
              </table>
            )}
          </QueryState>
        </Card>
      )}
      {reversing ? <ReverseDialog entry={reversing} onClose={() => setReversing(null)} /> : null}
      {editing ? <MovementEditDialog movement={editing} onClose={() => setEditing(null)} /> : null}
    </div>
  );
};
