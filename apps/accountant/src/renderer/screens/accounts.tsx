import { type TMoneyAccountDto, ZListMoneyAccountsQuery } from "@hisob/finance/schema";
import { QueryState, useLocale } from "@hisob/ui";
import { maxLengthOf } from "@hisob/ui/limits";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Button, Input, Space, Table, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { useApi, useMoney } from "../api-context";
import { FIRST_ACCOUNTS_PAGE, LIST_PAGE_SIZE, QUERIES } from "../queries";
import { AccountForm } from "./accounts/account-form";

type Sort = { sortBy: "name" | "balance" | "createdAt"; order: "asc" | "desc" };

export const AccountsScreen = () => {
  const { t } = useTranslation();
  const locale = useLocale();
  const money = useMoney(locale);
  const api = useApi();
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState<Sort>({ sortBy: "name", order: "asc" });
  const [search, setSearch] = useState("");
  const [editing, setEditing] = useState<TMoneyAccountDto | "new" | null>(null);
  const query = {
    ...FIRST_ACCOUNTS_PAGE,
    offset: (page - 1) * LIST_PAGE_SIZE,
    ...sort,
    ...(search.trim() ? { search: search.trim() } : {}),
  };
  const accounts = useQuery({ ...QUERIES.accountsPage(api, query), placeholderData: keepPreviousData });

  return (
    <div>
      <Space style={{ width: "100%", justifyContent: "space-between", marginBottom: 16 }} wrap>
        <Typography.Title level={1} style={{ margin: 0 }}>
          {t("accounts.title")}
        </Typography.Title>
        <Space>
          <Input.Search
            aria-label={t("accounts.name")}
            placeholder={`${t("accounts.name")} / ${t("accounts.number")}`}
            maxLength={maxLengthOf(ZListMoneyAccountsQuery.shape.search)}
            allowClear
            onSearch={(value) => {
              setSearch(value);
              setPage(1);
            }}
            style={{ width: 260 }}
          />
          <Button type="primary" onClick={() => setEditing("new")} data-testid="new-account">
            {t("accounts.new")}
          </Button>
        </Space>
      </Space>
      <QueryState query={accounts} rows={8}>
        {(data) => (
          <Table
            rowKey="id"
            dataSource={data.items}
            loading={accounts.isFetching && accounts.isPlaceholderData}
            locale={{ emptyText: t("accounts.empty") }}
            pagination={{
              current: page,
              pageSize: LIST_PAGE_SIZE,
              total: data.total,
              showSizeChanger: false,
            }}
            onChange={(pagination, _filters, sorter) => {
              setPage(pagination.current ?? 1);
              const one = Array.isArray(sorter) ? sorter[0] : sorter;
              if (one?.order && one.field) {
                setSort({
                  sortBy: one.field as Sort["sortBy"],
                  order: one.order === "ascend" ? "asc" : "desc",
                });
              }
            }}
            onRow={(row) => ({ onDoubleClick: () => navigate(`/accounts/${row.id}`) })}
            columns={[
              {
                title: t("accounts.name"),
                dataIndex: "name",
                sorter: true,
                sortOrder: sort.sortBy === "name" ? (sort.order === "asc" ? "ascend" : "descend") : null,
                render: (name: string, row) => (
                  <a
                    href={`/app/accounts/${row.id}`}
                    onClick={(event) => {
                      event.preventDefault();
                      navigate(`/accounts/${row.id}`);
                    }}
                  >
                    {name}
                  </a>
                ),
              },
              { title: t("accounts.number"), dataIndex: "number" },
              { title: t("accounts.currency"), dataIndex: "currency", width: 100 },
              {
                title: t("accounts.balance"),
                dataIndex: "balance",
                align: "right",
                sorter: true,
                sortOrder: sort.sortBy === "balance" ? (sort.order === "asc" ? "ascend" : "descend") : null,
                render: (balance: string, row) => (
                  <span style={{ whiteSpace: "nowrap" }} data-testid={`account-balance-${row.name}`}>
                    {money(balance, row.currency)}
                  </span>
                ),
              },
              {
                title: t("ui:actions"),
                width: 120,
                render: (_, row) => (
                  <Button
                    size="small"
                    onClick={() => setEditing(row)}
                    aria-label={`${t("ui:edit")} ${row.name}`}
                  >
                    {t("ui:edit")}
                  </Button>
                ),
              },
            ]}
          />
        )}
      </QueryState>
      {editing ? (
        <AccountForm account={editing === "new" ? null : editing} onClose={() => setEditing(null)} />
      ) : null}
    </div>
  );
};
