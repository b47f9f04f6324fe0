import type { TDocumentDto } from "@hisob/finance/schema";
import { describeFailure, formatDate, QueryState, useLocale } from "@hisob/ui";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { App as AntApp, Button, Popconfirm, Space, Table, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router-dom";
import { invalidateMoney, KEYS, useAllAccounts, useApi, useMoney } from "../api-context";
import { DownloadButton } from "../components/downloads";
import { type DocumentFilters, DocumentFiltersBar } from "./documents/document-filters";
import { DocumentForm } from "./documents/document-form";
import type { DocumentKind } from "./documents/document-kind";
import { DocumentTotals } from "./documents/document-totals";
import { readDocumentFilters } from "./reports/report-query";

export type { DocumentKind } from "./documents/document-kind";

/* Payments (money in) and expenses (money out): the same list and form over their own procedures. */

const PAGE_SIZE = 20;

type Filters = DocumentFilters;

export const DocumentsScreen = ({ kind }: { kind: DocumentKind }) => {
  const { t } = useTranslation();
  const locale = useLocale();
  const money = useMoney(locale);
  const api = useApi();
  const queryClient = useQueryClient();
  const { message } = AntApp.useApp();
  const accounts = useAllAccounts();
  const accountName = (id: string) => accounts.data?.items.find((a) => a.id === id)?.name ?? "";
  const [page, setPage] = useState(1);
  // The filters live in the address, so a report's figure opens this list filtered as it counts
  // (screens/reports/report-query.ts) and a reload or a bookmark keeps them; the sort is the screen's.
  const [params, setParams] = useSearchParams();
  const [sort, setSort] = useState<Pick<Filters, "sortBy" | "order">>({ sortBy: "date", order: "desc" });
  const filters: Filters = { ...sort, ...readDocumentFilters(params) };
  const setFilters = (update: (current: Filters) => Filters) => {
    const { sortBy, order, ...rest } = update(filters);
    setSort({ sortBy, order });
    const kept = Object.entries(rest).filter((entry): entry is [string, string] => Boolean(entry[1]));
    setParams(Object.fromEntries(kept), { replace: true });
  };
  const [editing, setEditing] = useState<TDocumentDto | "new" | null>(null);
  const query = {
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
    ...Object.fromEntries(Object.entries(filters).filter(([, value]) => value)),
  } as Filters & { limit: number; offset: number };
  const procedures = api[kind];
  const list = useQuery({
    queryKey: [...KEYS[kind], query],
    queryFn: () => procedures.list.query(query),
    placeholderData: keepPreviousData,
  });
  // Every matching document's count and sums per currency, computed by the server (not this page's).
  const { sortBy: _sortBy, order: _order, ...matching } = query;
  const { limit: _limit, offset: _offset, ...filtersOnly } = matching;
  const totals = useQuery({
    queryKey: [...KEYS[kind], "totals", filtersOnly],
    queryFn: () => procedures.totals.query(filtersOnly),
    placeholderData: keepPreviousData,
  });
  const remove = useMutation({ mutationFn: (id: string) => procedures.delete.mutate({ id }) });
  const filter = (change: Partial<Filters>) => {
    setFilters((current) => ({ ...current, ...change }));
    setPage(1);
  };
  const order = (field: Filters["sortBy"]) =>
    filters.sortBy === field ? (filters.order === "asc" ? ("ascend" as const) : ("descend" as const)) : null;

  return (
    <div>
      <Space style={{ width: "100%", justifyContent: "space-between", marginBottom: 16 }} wrap>
        <Typography.Title level={1} style={{ margin: 0 }}>
          {t(`documents.${kind}`)}
        </Typography.Title>
        <Space>
          <DownloadButton
            testId="download-documents"
            prepare={() =>
              api.exports[kind].query(
                Object.fromEntries(Object.entries(filters).filter(([, value]) => value)) as Filters,
              )
            }
          />
          <Button type="primary" onClick={() => setEditing("new")} data-testid="new-document">
            {t(kind === "payments" ? "documents.newPayment" : "documents.newExpense")}
          </Button>
        </Space>
      </Space>
      <DocumentFiltersBar kind={kind} filters={filters} onChange={filter} />
      <DocumentTotals kind={kind} totals={totals} />
      <QueryState query={list} rows={8}>
        {(data) => (
          <Table
            rowKey="id"
            dataSource={data.items}
            locale={{
              emptyText: t(kind === "payments" ? "documents.emptyPayments" : "documents.emptyExpenses"),
            }}
            pagination={{ current: page, pageSize: PAGE_SIZE, total: data.total, showSizeChanger: false }}
            onChange={(pagination, _f, sorter) => {
              setPage(pagination.current ?? 1);
              const one = Array.isArray(sorter) ? sorter[0] : sorter;
              if (one?.order && one.field) {
                setFilters((current) => ({
                  ...current,
                  sortBy: one.field as Filters["sortBy"],
                  order: one.order === "ascend" ? "asc" : "desc",
                }));
              }
            }}
            columns={[
              {
                title: t("documents.date"),
                dataIndex: "date",
                sorter: true,
                sortOrder: order("date"),
                width: 130,
                render: (date: string) => (
                  <span style={{ whiteSpace: "nowrap" }}>{formatDate(date, locale)}</span>
                ),
              },
              {
                title: t("documents.account"),
                dataIndex: "accountId",
                render: (id: string) => accountName(id),
              },
              {
                title: t("documents.category"),
                dataIndex: "categoryName",
                render: (name: string | null) => name ?? <NoValue />,
              },
              {
                title: t("documents.counterparty"),
                dataIndex: "counterpartyName",
                render: (name: string | null) => name ?? <NoValue />,
              },
              {
                // Wraps, never cut: an accountant reads the whole comment at any window size.
                title: t("documents.comment"),
                dataIndex: "comment",
                render: (comment: string) => <span style={{ overflowWrap: "anywhere" }}>{comment}</span>,
              },
              {
                title: t("documents.amount"),
                dataIndex: "amount",
                align: "right",
                sorter: true,
                sortOrder: order("amount"),
                render: (amount: string, row) => (
                  <span style={{ whiteSpace: "nowrap" }}>{money(amount, row.currency)}</span>
                ),
              },
              {
                title: t("ui:actions"),
                width: 180,
                render: (_, row) => (
                  <Space>
                    <Button size="small" onClick={() => setEditing(row)}>
                      {t("ui:edit")}
                    </Button>
                    <Popconfirm
                      title={t("documents.deleteTitle")}
                      description={t("documents.deleteText")}
                      okText={t("ui:delete")}
                      cancelText={t("ui:cancel")}
                      okButtonProps={{ danger: true }}
                      onConfirm={async () => {
                        try {
                          await remove.mutateAsync(row.id);
                          await invalidateMoney(queryClient);
                          void message.success(t("documents.deleted"));
                        } catch (error) {
                          void message.error(describeFailure(error, t).message);
                        }
                      }}
                    >
                      <Button size="small" danger>
                        {t("ui:delete")}
                      </Button>
                    </Popconfirm>
                  </Space>
                ),
              },
            ]}
          />
        )}
      </QueryState>
      {editing ? (
        <DocumentForm
          kind={kind}
          document={editing === "new" ? null : editing}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </div>
  );
};

/** An empty cell, read as "none" rather than skipped. */
const NoValue = () => <span style={{ color: "#595959" }}>—</span>;
