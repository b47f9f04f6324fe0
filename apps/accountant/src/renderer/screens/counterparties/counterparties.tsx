import { COUNTERPARTY_TYPES, type TCounterpartyDto } from "@hisob/finance/schema";
import { QueryState } from "@hisob/ui";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Button, Input, Select, Space, Table, Typography } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router-dom";
import { KEYS, useApi } from "../../api-context";
import { EmptyText } from "../debts/debt-parts";
import { CounterpartyForm } from "./counterparty-form";

const PAGE_SIZE = 20;

/** Customers and suppliers, searched by the server (name, TIN, phone, email). */
export const CounterpartiesScreen = () => {
  const { t } = useTranslation();
  const api = useApi();
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const [typed, setTyped] = useState("");
  const [search, setSearch] = useState("");
  const [type, setType] = useState<TCounterpartyDto["type"] | "">("");
  const [creating, setCreating] = useState(false);
  // The server is asked once typing pauses, not at every key.
  useEffect(() => {
    const timer = setTimeout(() => {
      setSearch(typed.trim());
      setPage(1);
    }, 300);
    return () => clearTimeout(timer);
  }, [typed]);
  const query = {
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
    sortBy: "name",
    order: "asc",
    ...(search ? { search: search.slice(0, 100) } : {}),
    ...(type ? { type } : {}),
  } as const;
  const list = useQuery({
    queryKey: [...KEYS.counterparties, "list", query],
    queryFn: () => api.counterparties.list.query(query),
    placeholderData: keepPreviousData,
  });

  return (
    <div>
      <Space style={{ width: "100%", justifyContent: "space-between", marginBottom: 16 }} wrap>
        <Typography.Title level={1} style={{ margin: 0 }}>
          {t("counterparties.title")}
        </Typography.Title>
        <Button type="primary" onClick={() => setCreating(true)} data-testid="new-counterparty">
          {t("counterparties.new")}
        </Button>
      </Space>
      <Space wrap style={{ marginBottom: 16 }} role="search" aria-label={t("counterparties.title")}>
        <Input.Search
          aria-label={t("counterparties.search")}
          placeholder={t("counterparties.search")}
          allowClear
          style={{ width: 380 }}
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          onSearch={(value) => setSearch(value.trim())}
          data-testid="counterparty-search"
        />
        <Select
          aria-label={t("counterparties.type")}
          style={{ width: 240 }}
          value={type}
          onChange={(value) => {
            setType(value);
            setPage(1);
          }}
          options={[
            { value: "", label: t("counterparties.allTypes") },
            ...COUNTERPARTY_TYPES.map((value) => ({ value, label: t(`counterparties.types.${value}`) })),
          ]}
        />
      </Space>
      <QueryState query={list} rows={8}>
        {(data) => (
          <Table
            rowKey="id"
            dataSource={data.items}
            data-testid="counterparties-table"
            locale={{ emptyText: <EmptyText text={t("counterparties.empty")} /> }}
            pagination={{
              current: page,
              pageSize: PAGE_SIZE,
              total: data.total,
              showSizeChanger: false,
              onChange: setPage,
            }}
            columns={[
              {
                title: t("counterparties.name"),
                dataIndex: "name",
                render: (name: string, row) => <Link to={`/counterparties/${row.id}`}>{name}</Link>,
              },
              { title: t("counterparties.tin"), dataIndex: "tin" },
              {
                title: t("counterparties.type"),
                dataIndex: "type",
                render: (value: TCounterpartyDto["type"]) => t(`counterparties.types.${value}`),
              },
              { title: t("counterparties.phone"), dataIndex: "phone" },
              { title: t("counterparties.email"), dataIndex: "email" },
            ]}
          />
        )}
      </QueryState>
      {creating ? (
        <CounterpartyForm
          counterparty={null}
          onClose={() => setCreating(false)}
          onSaved={(saved) => navigate(`/counterparties/${saved.id}`)}
        />
      ) : null}
    </div>
  );
};
