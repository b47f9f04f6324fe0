import type { TAccountStatement } from "@hisob/finance/schema";
import { formatDate, useLocale } from "@hisob/ui";
import { Button, Space, Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { useMoney } from "../../api-context";
import type { Movement } from "../movement-edit";

/*
 * The statement's rows: a grid per row (the table's rows are placed by the virtualizer), the period's
 * edges, and an entry's cells with its edit and reverse actions.
 */

export const ROW_HEIGHT = 40;
export const GRID = "110px 110px minmax(0, 1fr) 160px 160px 200px";

type Entry = TAccountStatement["entries"][number];

export const ROW_STYLE = {
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
export const LEFT = { textAlign: "left", fontWeight: 600 } as const;
export const RIGHT = { textAlign: "right", whiteSpace: "nowrap" } as const;
/** A comment or a reason wraps whole words, and breaks a word longer than the column. */
export const WRAP = { whiteSpace: "normal", overflowWrap: "anywhere" } as const;

/** The statement's column headings. */
export const StatementHeader = () => {
  const { t } = useTranslation();
  return (
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
  );
};

/** The period's opening or closing balance: a line of its own above or below the entries. */
export const EdgeRow = (props: {
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

/**
 * One entry's cells: date, type, comment (and why it was reversed, under it), change, balance after
 * it, and for a transfer or an exchange its Edit and Reverse (or what reversed it).
 */
export const EntryCells = (props: {
  entry: Entry;
  currency: string;
  onEdit: (movement: Movement) => void;
  onReverse: (entry: Entry) => void;
}) => {
  const { t } = useTranslation();
  const locale = useLocale();
  const money = useMoney(locale);
  const { entry } = props;
  const currency = props.currency;
  return (
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
            {t("transfers.reasonShown", { reason: entry.reversalReason })}
          </Typography.Text>
        ) : null}
      </td>
      <td
        style={{
          ...RIGHT,
          color: entry.change.startsWith("-") ? "#b42318" : "#0f6e5c",
        }}
      >
        {money(entry.change, currency)}
      </td>
      <td style={RIGHT}>{money(entry.runningBalance, currency)}</td>
      <td style={RIGHT}>
        {entry.type === "transfer" || entry.type === "exchange" ? (
          <Space size={4}>
            <Button
              size="small"
              onClick={() =>
                props.onEdit({
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
              <Button size="small" onClick={() => props.onReverse(entry)} data-testid={`reverse-${entry.id}`}>
                {t("transfers.reverse")}
              </Button>
            )}
          </Space>
        ) : null}
      </td>
    </>
  );
};
