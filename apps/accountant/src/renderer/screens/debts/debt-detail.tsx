import type { TDebtDetailDto, TDebtSettlementDto } from "@hisob/finance/schema";
import { newId } from "@hisob/kernel/schema";
import { describeFailure, formatDate, QueryState, useLocale } from "@hisob/ui";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, App as AntApp, Button, Card, Descriptions, Popconfirm, Space, Table, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router-dom";
import { invalidateMoney, KEYS, useAllAccounts, useApi, useMoney } from "../../api-context";
import { DebtHistory } from "./debt-history";
import {
  CounterpartyLink,
  DebtKindTag,
  DebtStatusTag,
  EmptyText,
  formatDateTime,
  useCounterpartyNames,
  useDebtHistoryQuery,
} from "./debt-parts";
import { DebtSettleForm } from "./debt-settle-form";
import { DebtWriteOffForm } from "./debt-write-off-form";

/** One debt: its figures, settling, writing off, its settlements (each reversible) and its history. */
export const DebtDetailScreen = () => {
  const { id = "" } = useParams();
  const { t } = useTranslation();
  const locale = useLocale();
  const money = useMoney(locale);
  const api = useApi();
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<"settle" | "writeOff" | null>(null);
  const debt = useQuery({ queryKey: [...KEYS.debts, "one", id], queryFn: () => api.debts.get.query({ id }) });
  const nameOf = useCounterpartyNames(debt.data ? [debt.data.counterpartyId] : []);

  return (
    <div>
      <Button onClick={() => navigate("/debts")} style={{ marginBottom: 12 }}>
        ← {t("debts.back")}
      </Button>
      <QueryState query={debt} rows={10}>
        {(row) => {
          const open = row.status === "pending" || row.status === "partial";
          return (
            <>
              <Space style={{ width: "100%", justifyContent: "space-between", marginBottom: 16 }} wrap>
                <Typography.Title level={1} style={{ margin: 0 }} data-testid="debt-title">
                  {nameOf(row.counterpartyId) || t("debts.title")}
                </Typography.Title>
                {open ? (
                  <Space>
                    <Button type="primary" onClick={() => setDialog("settle")} data-testid="settle-debt">
                      {t("debts.settle")}
                    </Button>
                    <Button danger onClick={() => setDialog("writeOff")} data-testid="write-off-debt">
                      {t("debts.writeOff")}
                    </Button>
                  </Space>
                ) : null}
              </Space>
              <Card style={{ marginBottom: 16 }}>
                <Descriptions size="small" column={{ xs: 1, md: 3 }} data-testid="debt-facts">
                  <Descriptions.Item label={t("debts.kind")}>
                    <DebtKindTag kind={row.kind} />
                  </Descriptions.Item>
                  <Descriptions.Item label={t("debts.counterparty")}>
                    <CounterpartyLink id={row.counterpartyId} name={nameOf(row.counterpartyId)} />
                  </Descriptions.Item>
                  <Descriptions.Item label={t("debts.status")}>
                    <span data-testid="debt-status">
                      <DebtStatusTag debt={row} />
                    </span>
                  </Descriptions.Item>
                  <Descriptions.Item label={t("debts.amount")}>
                    {money(row.amount, row.currency)}
                  </Descriptions.Item>
                  <Descriptions.Item label={t("debts.settled")}>
                    {money(row.settled, row.currency)}
                  </Descriptions.Item>
                  <Descriptions.Item label={t("debts.outstanding")}>
                    <strong data-testid="debt-outstanding">{money(row.outstanding, row.currency)}</strong>
                  </Descriptions.Item>
                  <Descriptions.Item label={t("debts.dueDate")}>
                    {row.dueDate ? formatDate(row.dueDate, locale) : t("debts.noDueDate")}
                  </Descriptions.Item>
                  <Descriptions.Item label={t("debts.description")} span={2}>
                    {row.description || "—"}
                  </Descriptions.Item>
                </Descriptions>
                {row.writeOff ? <WriteOffNote debt={row} /> : null}
              </Card>
              <Settlements debt={row} />
              <DebtHistory debt={row} />
              {dialog === "settle" ? <DebtSettleForm debt={row} onClose={() => setDialog(null)} /> : null}
              {dialog === "writeOff" ? <DebtWriteOffForm debt={row} onClose={() => setDialog(null)} /> : null}
            </>
          );
        }}
      </QueryState>
    </div>
  );
};

const WriteOffNote = ({ debt }: { debt: TDebtDetailDto }) => {
  const { t } = useTranslation();
  const locale = useLocale();
  const money = useMoney(locale);
  const history = useDebtHistoryQuery(debt.id);
  const writeOff = debt.writeOff;
  if (!writeOff) return null;
  const user =
    history.data?.find((entry) => entry.action === "written_off")?.userName ?? t("debts.unknownUser");
  return (
    <Alert
      type="warning"
      style={{ marginTop: 12 }}
      data-testid="write-off-note"
      title={t("debts.writeOffInfo", {
        amount: money(writeOff.amount, debt.currency),
        date: formatDateTime(writeOff.at, locale),
        user,
        reason: writeOff.reason,
      })}
    />
  );
};

const Settlements = ({ debt }: { debt: TDebtDetailDto }) => {
  const { t } = useTranslation();
  const locale = useLocale();
  const money = useMoney(locale);
  const api = useApi();
  const queryClient = useQueryClient();
  const { message } = AntApp.useApp();
  const accounts = useAllAccounts();
  const accountName = (id: string) => accounts.data?.items.find((a) => a.id === id)?.name ?? "";
  // One key per reversal asked for: a retry of the same click cannot reverse twice.
  const reverse = useMutation({
    mutationFn: (settlementId: string) =>
      api.debts.reverseSettlement.mutate(
        { id: debt.id, settlementId },
        { context: { idempotencyKey: newId() } },
      ),
  });
  return (
    <Card title={t("debts.settlements")} style={{ marginBottom: 16 }}>
      <Table
        rowKey="id"
        size="small"
        data-testid="settlements"
        dataSource={debt.settlements}
        pagination={false}
        locale={{ emptyText: <EmptyText text={t("debts.noSettlements")} /> }}
        columns={[
          { title: t("debts.date"), dataIndex: "date", render: (date: string) => formatDate(date, locale) },
          { title: t("debts.account"), dataIndex: "accountId", render: (id: string) => accountName(id) },
          { title: t("debts.comment"), dataIndex: "comment" },
          {
            title: t("debts.amount"),
            dataIndex: "amount",
            align: "right",
            render: (amount: string) => (
              <span style={{ whiteSpace: "nowrap" }}>{money(amount, debt.currency)}</span>
            ),
          },
          {
            title: t("ui:actions"),
            width: 140,
            render: (_: unknown, row: TDebtSettlementDto) =>
              debt.status === "written_off" ? null : (
                <Popconfirm
                  title={t("debts.reverseTitle")}
                  description={t("debts.reverseText")}
                  okText={t("debts.reverse")}
                  cancelText={t("ui:cancel")}
                  okButtonProps={{ danger: true, loading: reverse.isPending }}
                  onConfirm={async () => {
                    if (reverse.isPending) return;
                    try {
                      await reverse.mutateAsync(row.id);
                      await invalidateMoney(queryClient);
                      void message.success(t("debts.reversed"));
                    } catch (error) {
                      void message.error(describeFailure(error, t).message);
                    }
                  }}
                >
                  <Button size="small" danger data-testid={`reverse-${row.id}`}>
                    {t("debts.reverse")}
                  </Button>
                </Popconfirm>
              ),
          },
        ]}
      />
    </Card>
  );
};
