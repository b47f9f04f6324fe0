import type { TDebtDto } from "@hisob/finance/schema";
import { formatDate, type Locale, todayIso } from "@hisob/ui";
import { useQueries, useQuery } from "@tanstack/react-query";
import { Skeleton, Tag } from "antd";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { KEYS, useApi } from "../../api-context";

/* What the debts' list, a debt's page and a counterparty's page show alike. */

const STATUS_COLORS: Record<TDebtDto["status"], string> = {
  pending: "blue",
  partial: "gold",
  settled: "green",
  written_off: "default",
};

/** Still to be settled and its due date has passed. */
export const isOverdue = (debt: Pick<TDebtDto, "status" | "dueDate">, today = todayIso()) =>
  (debt.status === "pending" || debt.status === "partial") && debt.dueDate !== null && debt.dueDate < today;

export const DebtStatusTag = ({ debt }: { debt: Pick<TDebtDto, "status" | "dueDate"> }) => {
  const { t } = useTranslation();
  return (
    <span style={{ whiteSpace: "nowrap" }}>
      <Tag color={STATUS_COLORS[debt.status]}>{t(`debts.statuses.${debt.status}`)}</Tag>
      {isOverdue(debt) ? (
        <Tag color="red" data-testid="overdue">
          {t("debts.overdue")}
        </Tag>
      ) : null}
    </span>
  );
};

export const DebtKindTag = ({ kind }: { kind: TDebtDto["kind"] }) => {
  const { t } = useTranslation();
  return <Tag color={kind === "receivable" ? "green" : "orange"}>{t(`debts.kinds.${kind}`)}</Tag>;
};

/** The names of the counterparties on a page of debts, each fetched once and cached. */
export const useCounterpartyNames = (ids: readonly string[]) => {
  const api = useApi();
  const unique = [...new Set(ids)];
  const results = useQueries({
    queries: unique.map((id) => ({
      queryKey: [...KEYS.counterparties, "one", id],
      queryFn: () => api.counterparties.get.query({ id }),
      staleTime: 60_000,
    })),
  });
  // undefined while a name is on its way; a counterparty that cannot be read shows a dash.
  const names = new Map(
    unique.map((id, i) => [id, results[i]?.isError ? "—" : results[i]?.data?.name] as const),
  );
  return (id: string): string | undefined => names.get(id);
};

/**
 * A counterparty's name linking to its page. While the name loads it is a placeholder, not an
 * empty link: a link without text is announced as nothing by a screen reader.
 */
export const CounterpartyLink = ({ id, name }: { id: string; name: string | undefined }) =>
  name === undefined ? (
    <Skeleton.Input active size="small" style={{ width: 120 }} />
  ) : (
    <Link to={`/counterparties/${id}`}>{name}</Link>
  );

/** "28.11.2026 14:05" in the language's date order, in the user's time zone. */
export const formatDateTime = (iso: string, locale: Locale) => {
  const at = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  const day = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
  return `${formatDate(day, locale)} ${pad(at.getHours())}:${pad(at.getMinutes())}`;
};

/** The debt's history (created, settled, reversed, written off, edited: who and when). */
export const useDebtHistoryQuery = (id: string) => {
  const api = useApi();
  return useQuery({
    queryKey: [...KEYS.debts, "history", id],
    queryFn: () => api.debts.history.query({ id }),
  });
};

/** A table's empty text, dark enough to read (antd's default grey fails WCAG AA contrast on white). */
export const EmptyText = ({ text }: { text: string }) => <span style={{ color: "#595959" }}>{text}</span>;
