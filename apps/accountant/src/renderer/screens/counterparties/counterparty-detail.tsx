import type { TDocumentDto } from "@hisob/finance/schema";
import { formatDate, QueryState, useLocale } from "@hisob/ui";
import { useQuery } from "@tanstack/react-query";
import { Button, Card, Descriptions, Space, Table, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router-dom";
import { KEYS, useAllAccounts, useApi, useMoney } from "../../api-context";
import { DebtCreateForm } from "../debts/debt-create-form";
import { EmptyText } from "../debts/debt-parts";
import { DebtsTable } from "../debts/debts";
import { counterpartyStatementHref } from "../reports/party-report-query";
import { CounterpartyForm } from "./counterparty-form";

const LIMIT = 50;

/** A counterparty: its details (editable), its debts, and the payments and expenses that name it. */
export const CounterpartyDetailScreen = () => {
  const { id = "" } = useParams();
  const { t } = useTranslation();
  const api = useApi();
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<"edit" | "debt" | null>(null);
  const counterparty = useQuery({
    queryKey: [...KEYS.counterparties, "one", id],
    queryFn: () => api.counterparties.get.query({ id }),
  });
  const debts = useQuery({
    queryKey: [...KEYS.debts, "list", { counterpartyId: id }],
    queryFn: () =>
      api.debts.list.query({ counterpartyId: id, limit: LIMIT, sortBy: "dueDate", order: "asc" }),
  });

  return (
    <div>
      <Button onClick={() => navigate("/counterparties")} style={{ marginBottom: 12 }}>
        ← {t("counterparties.back")}
      </Button>
      <QueryState query={counterparty} rows={4}>
        {(row) => (
          <>
            <Space style={{ width: "100%", justifyContent: "space-between", marginBottom: 16 }} wrap>
              <Typography.Title level={1} style={{ margin: 0 }} data-testid="counterparty-title">
                {row.name}
              </Typography.Title>
              <Space wrap>
                {/* Their statement (decision 0087), this month: everything with them and what is owed each way. */}
                <Button
                  onClick={() => navigate(counterpartyStatementHref(id))}
                  data-testid="counterparty-statement"
                >
                  {t("partyReports.openStatement")}
                </Button>
                <Button onClick={() => setDialog("edit")} data-testid="edit-counterparty">
                  {t("ui:edit")}
                </Button>
                <Button type="primary" onClick={() => setDialog("debt")} data-testid="new-debt">
                  {t("debts.new")}
                </Button>
              </Space>
            </Space>
            <Card style={{ marginBottom: 16 }}>
              <Descriptions size="small" column={{ xs: 1, md: 3 }}>
                <Descriptions.Item label={t("counterparties.tin")}>{row.tin || "—"}</Descriptions.Item>
                <Descriptions.Item label={t("counterparties.type")}>
                  {t(`counterparties.types.${row.type}`)}
                </Descriptions.Item>
                <Descriptions.Item label={t("counterparties.phone")}>{row.phone || "—"}</Descriptions.Item>
                <Descriptions.Item label={t("counterparties.email")}>{row.email || "—"}</Descriptions.Item>
                <Descriptions.Item label={t("counterparties.address")} span={2}>
                  {row.address || "—"}
                </Descriptions.Item>
                {row.notes ? (
                  <Descriptions.Item label={t("counterparties.notes")} span={3}>
                    {row.notes}
                  </Descriptions.Item>
                ) : null}
              </Descriptions>
            </Card>
            {dialog === "edit" ? (
              <CounterpartyForm counterparty={row} onClose={() => setDialog(null)} />
            ) : null}
          </>
        )}
      </QueryState>
      <Card title={t("counterparties.debts")} style={{ marginBottom: 16 }} data-testid="counterparty-debts">
        <QueryState query={debts} rows={3}>
          {(data) => (
            <DebtsTable
              debts={data.items}
              withCounterparty={false}
              pagination={false}
              empty={t("counterparties.noDebts")}
            />
          )}
        </QueryState>
      </Card>
      <CounterpartyDocuments kind="payments" counterpartyId={id} />
      <CounterpartyDocuments kind="expenses" counterpartyId={id} />
      {dialog === "debt" ? (
        <DebtCreateForm
          counterpartyId={id}
          onClose={() => setDialog(null)}
          onCreated={(debtId) => navigate(`/debts/${debtId}`)}
        />
      ) : null}
    </div>
  );
};

/** The newest payments or expenses that name the counterparty. */
const CounterpartyDocuments = ({
  kind,
  counterpartyId,
}: {
  kind: "payments" | "expenses";
  counterpartyId: string;
}) => {
  const { t } = useTranslation();
  const locale = useLocale();
  const money = useMoney(locale);
  const api = useApi();
  const accounts = useAllAccounts();
  const accountName = (id: string) => accounts.data?.items.find((a) => a.id === id)?.name ?? "";
  const documents = useQuery({
    queryKey: [...KEYS[kind], { counterpartyId }],
    queryFn: () => api[kind].list.query({ counterpartyId, limit: LIMIT, sortBy: "date", order: "desc" }),
  });
  return (
    <Card
      title={t(`counterparties.${kind}`)}
      style={{ marginBottom: 16 }}
      data-testid={`counterparty-${kind}`}
    >
      <QueryState query={documents} rows={3}>
        {(data) => (
          <Table
            rowKey="id"
            size="small"
            dataSource={data.items}
            pagination={false}
            locale={{
              emptyText: (
                <EmptyText
                  text={t(kind === "payments" ? "counterparties.noPayments" : "counterparties.noExpenses")}
                />
              ),
            }}
            columns={[
              {
                title: t("debts.date"),
                dataIndex: "date",
                render: (date: string) => formatDate(date, locale),
              },
              { title: t("debts.account"), dataIndex: "accountId", render: (id: string) => accountName(id) },
              {
                title: t("debts.category"),
                dataIndex: "categoryName",
                render: (name: string | null) => name ?? "—",
              },
              { title: t("debts.comment"), dataIndex: "comment" },
              {
                title: t("debts.amount"),
                dataIndex: "amount",
                align: "right",
                render: (amount: string, row: TDocumentDto) => (
                  <span style={{ whiteSpace: "nowrap" }}>{money(amount, row.currency)}</span>
                ),
              },
            ]}
          />
        )}
      </QueryState>
    </Card>
  );
};
