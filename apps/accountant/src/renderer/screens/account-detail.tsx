import { FIRST_DATE, LAST_DATE, type TAccountStatement, ZReverseInput } from "@hisob/finance/schema";
import { describeFailure, formatDate, numberLocale, QueryState, useLocale } from "@hisob/ui";
import { maxLengthOf } from "@hisob/ui/limits";
import { useMutation, useQueries, useQuery, useQueryClient } from "@tanstack/react-query";
import { useVirtualizer } from "@tanstack/react-virtual";
import {
  Alert,
  App as AntApp,
  Button,
  Card,
  Descriptions,
  Input,
  Modal,
  Skeleton,
  Space,
  Tag,
  Typography,
} from "antd";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router-dom";
import { invalidateMoney, KEYS, useApi, useMoney } from "../api-context";
import { DownloadButton } from "../components/downloads";
import { PeriodFilter, periodSearch, usePeriod } from "../components/period-filter";
import { useSubmitOnce } from "../forms";
import { type Movement, MovementEditDialog } from "./movement-edit";

/*
 * An account and its transactions in a period (all time by default; the period is in the address),
 * newest first, with the balance after each, between the period's closing balance (on top) and its
 * opening balance (at the bottom, as on paper). Rows are virtual and fetched from the server a page
 * at a time as they scroll into view, so 100,000 entries scroll as smoothly as 10: only the visible
 * pages are ever requested or rendered. The server pages newest first too (order=desc), so the page
 * the screen opens on is the cheapest one to read. A long comment wraps: rows are measured as drawn.
 */

const PAGE = 200;
const ROW_HEIGHT = 40;
const GRID = "110px 110px minmax(0, 1fr) 160px 160px 200px";

type Entry = TAccountStatement["entries"][number];

const ROW_STYLE = {
  display: "grid",
  gridTemplateColumns: GRID,
  alignItems: "center",
  gap: 12,
  padding: "0 16px",
  borderBottom: "1px solid #f0f0f0",
  boxSizing: "border-box",
  minHeight: ROW_HEIGHT,
  paddingBlock: 4,
} as const;
const LEFT = { textAlign: "left", fontWeight: 600 } as const;
const RIGHT = { textAlign: "right", whiteSpace: "nowrap" } as const;
/** A comment or a reason wraps whole words, and breaks a word longer than the column. */
const WRAP = { whiteSpace: "normal", overflowWrap: "anywhere" } as const;

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
  /**
   * Page `page` of the newest-first list (rows page×PAGE …). The older half is asked oldest first and
   * turned around. (The server now finds any page from its per-day balance checkpoints, so a deep
   * offset no longer costs the rows it skips; reading from the nearer end stays harmless.)
   */
  const statementPage = (page: number, total: number) => ({
    queryKey: [...KEYS.statement, id, range, page, total],
    queryFn: async () => {
      const start = page * PAGE;
      if (page === 0 || start < total / 2) {
        return api.reports.accountStatement.query({
          accountId: id,
          query: { ...range, limit: PAGE, offset: start, order: "desc" },
        });
      }
      const end = Math.min(start + PAGE, total);
      const data = await api.reports.accountStatement.query({
        accountId: id,
        query: { ...range, limit: end - start, offset: total - end, order: "asc" },
      });
      return { ...data, entries: [...data.entries].reverse() };
    },
    staleTime: 60_000,
  });
  // The first page tells the total (and the opening and closing balances).
  const first = useQuery({ ...statementPage(0, 0), enabled: inOrder });
  const total = first.data?.total ?? 0;

  const scroller = useRef<HTMLTableSectionElement>(null);
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
  });
  const items = virtualizer.getVirtualItems();
  // Row i is entry i of the newest-first statement, on page floor(i / PAGE); page 0 is `first`.
  const pages = [...new Set(items.map((item) => Math.floor(item.index / PAGE)))]
    .filter((page) => page > 0)
    .sort((a, b) => a - b);
  // While the list flies past (a dragged scrollbar), pages are not requested: only where it stops.
  const settled = !virtualizer.isScrolling;
  const loaded = useQueries({
    queries: pages.map((page) => ({ ...statementPage(page, total), enabled: settled })),
  });
  const [reversing, setReversing] = useState<Entry | null>(null);
  const [editing, setEditing] = useState<Movement | null>(null);
  /** Why a reversal was posted, on the reversal and on the entry it undid. */
  const reasonText = (entry: Entry) =>
    entry.reversalReason ? t("transfers.reasonShown", { reason: entry.reversalReason }) : null;
  const entryAt = (index: number): Entry | undefined => {
    const page = Math.floor(index / PAGE);
    const data = page === 0 ? first.data : loaded[pages.indexOf(page)]?.data;
    return data?.entries[index - page * PAGE];
  };

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
                <thead style={{ display: "block", background: "#fafafa" }}>
                  <tr style={{ ...ROW_STYLE, height: ROW_HEIGHT }}>
                    <th style={LEFT}>{t("documents.date")}</th>
                    <th style={LEFT}>{t("accounts.type")}</th>
                    <th style={LEFT}>{t("documents.comment")}</th>
                    <th style={RIGHT}>{t("accounts.change")}</th>
                    <th style={RIGHT}>{t("accounts.runningBalance")}</th>
                    <th>
                      <span className="visually-hidden">{t("ui:actions")}</span>
                    </th>
                  </tr>
                </thead>
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
                    height: Math.min(480, Math.max(total, 1) * ROW_HEIGHT + 2),
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
                          <>
                            <td>{formatDate(entry.date, locale)}</td>
                            <td>{t(`types.${entry.type}`)}</td>
                            <td style={{ minWidth: 0, lineHeight: 1.3 }} data-testid={`comment-${entry.id}`}>
                              <div style={WRAP}>{entry.comment}</div>
                              {entry.reversalReason ? (
                                // Why it was reversed, under the comment.
                                <Typography.Text
                                  type="secondary"
                                  data-testid={`reversal-reason-${entry.id}`}
                                  style={{ ...WRAP, display: "block", fontSize: 12 }}
                                >
                                  {reasonText(entry)}
                                </Typography.Text>
                              ) : null}
                            </td>
                            <td
                              style={{
                                ...RIGHT,
                                color: entry.change.startsWith("-") ? "#b42318" : "#0f6e5c",
                              }}
                            >
                              {money(entry.change, data.account.currency)}
                            </td>
                            <td style={RIGHT}>{money(entry.runningBalance, data.account.currency)}</td>
                            <td style={RIGHT}>
                              {entry.type === "transfer" || entry.type === "exchange" ? (
                                <Space size={4}>
                                  <Button
                                    size="small"
                                    onClick={() =>
                                      setEditing({
                                        id: entry.id,
                                        type: entry.type === "exchange" ? "exchange" : "transfer",
                                        date: entry.date,
                                        comment: entry.comment,
                                        counterpartyId: entry.counterpartyId,
                                      })
                                    }
                                    data-testid={`edit-${entry.id}`}
                                  >
                                    {t("ui:edit")}
                                  </Button>
                                  {entry.reversedById ? (
                                    <Tag data-testid={`reversed-${entry.id}`} style={{ marginInlineEnd: 0 }}>
                                      {t("transfers.reversedTag")}
                                    </Tag>
                                  ) : entry.reversalOfId ? (
                                    <Tag data-testid={`reversal-${entry.id}`} style={{ marginInlineEnd: 0 }}>
                                      {t("transfers.reversalTag")}
                                    </Tag>
                                  ) : (
                                    <Button
                                      size="small"
                                      onClick={() => setReversing(entry)}
                                      data-testid={`reverse-${entry.id}`}
                                    >
                                      {t("transfers.reverse")}
                                    </Button>
                                  )}
                                </Space>
                              ) : null}
                            </td>
                          </>
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

/** The period's opening or closing balance: a line of its own above or below the entries. */
const EdgeRow = (props: {
  label: string;
  date: string;
  balance: string;
  testId: string;
  rowIndex: number;
}) => (
  <tr
    style={{ ...ROW_STYLE, background: "#fafafa", fontWeight: 600 }}
    data-testid={props.testId}
    aria-rowindex={props.rowIndex}
  >
    <td>{props.date}</td>
    <td style={{ gridColumn: "2 / 5" }}>{props.label}</td>
    <td style={RIGHT}>{props.balance}</td>
    <td />
  </tr>
);

/** Reverses a transfer or an exchange: the server posts its exact opposite, with the reason given. */
const ReverseDialog = ({ entry, onClose }: { entry: Entry; onClose: () => void }) => {
  const { t } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const { message } = AntApp.useApp();
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  // One reversal per intent: a double click or a second Enter does nothing while the first runs, and
  // the server replays (never repeats) a request sent again under the dialog's key.
  const once = useSubmitOnce();
  const reverse = useMutation({
    mutationFn: (input: { id: string; data: { reason: string } }) => {
      const context = { context: { idempotencyKey: once.key } };
      return entry.type === "exchange"
        ? api.exchanges.reverse.mutate(input, context)
        : api.transfers.reverse.mutate(input, context);
    },
  });
  const submit = async () => {
    setError(null);
    const checked = ZReverseInput.safeParse({ reason });
    if (!checked.success) {
      setError(t("form.required"));
      return;
    }
    try {
      await reverse.mutateAsync({ id: entry.id, data: { reason: checked.data.reason } });
      await invalidateMoney(queryClient);
      void message.success(t("transfers.reversed"));
      onClose();
    } catch (failure) {
      setError(describeFailure(failure, t).message);
    }
  };
  return (
    <Modal
      open
      title={t("transfers.reverseTitle")}
      okText={t("transfers.reverse")}
      cancelText={t("ui:cancel")}
      okButtonProps={{ danger: true, loading: once.busy, id: "confirm-reverse" }}
      onOk={() => void once.run(submit)}
      onCancel={onClose}
    >
      <Typography.Paragraph type="secondary">{t("transfers.reverseText")}</Typography.Paragraph>
      {error ? (
        <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} data-testid="reverse-error" />
      ) : null}
      <label htmlFor="reverse-reason" style={{ display: "block", marginBottom: 4, fontWeight: 500 }}>
        {t("transfers.reason")}
      </label>
      <Input
        id="reverse-reason"
        value={reason}
        maxLength={maxLengthOf(ZReverseInput.shape.reason)}
        onChange={(event) => setReason(event.target.value)}
        onPressEnter={() => void once.run(submit)}
      />
    </Modal>
  );
};
