import type { TDebtDetailDto, TDebtHistoryEntryDto } from "@hisob/finance/schema";
import { formatDate, QueryState, useLocale } from "@hisob/ui";
import { Card, Timeline, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { useMoney } from "../../api-context";
import { formatDateTime, useDebtHistoryQuery } from "./debt-parts";

const COLORS: Record<TDebtHistoryEntryDto["action"], string> = {
  created: "blue",
  updated: "gray",
  settled: "green",
  settlement_reversed: "orange",
  written_off: "red",
};

/** What happened to the debt, oldest first: what, how much, who and when (the server's audit log). */
export const DebtHistory = ({ debt }: { debt: TDebtDetailDto }) => {
  const { t } = useTranslation();
  const locale = useLocale();
  const money = useMoney(locale);
  const history = useDebtHistoryQuery(debt.id);
  const detail = (entry: TDebtHistoryEntryDto) => {
    if (entry.action === "updated") return t("debts.changed", { fields: entry.fields.join(", ") });
    if (entry.amount === null) return "";
    const amount = money(entry.amount, debt.currency);
    const withDate = entry.date
      ? t("debts.amountOn", { amount, date: formatDate(entry.date, locale) })
      : amount;
    return entry.reason ? `${withDate}: ${entry.reason}` : withDate;
  };
  return (
    <Card title={t("debts.history")} data-testid="debt-history">
      <QueryState query={history} isEmpty={(rows) => rows.length === 0} empty={t("debts.historyEmpty")}>
        {(rows) => (
          <Timeline
            items={rows.map((entry) => ({
              key: entry.id,
              color: COLORS[entry.action],
              content: (
                <div data-testid={`history-${entry.action}`}>
                  <Typography.Text strong>{t(`debts.actions.${entry.action}`)}</Typography.Text>{" "}
                  <span style={{ whiteSpace: "nowrap" }}>{detail(entry)}</span>
                  <br />
                  <Typography.Text type="secondary">
                    {formatDateTime(entry.at, locale)} ·{" "}
                    {t("debts.by", { user: entry.userName ?? t("debts.unknownUser") })}
                  </Typography.Text>
                </div>
              ),
            }))}
          />
        )}
      </QueryState>
    </Card>
  );
};
