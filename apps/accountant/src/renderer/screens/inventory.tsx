import { type TInventoryItemDto, ZListInventoryQuery } from "@hisob/finance/schema";
import { QueryState, useLocale } from "@hisob/ui";
import { maxLengthOf } from "@hisob/ui/limits";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Button, Input, Space, Table, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useApi, useMoney } from "../api-context";
import { InventoryItemForm } from "./inventory-item-form";
import { InventoryMovements } from "./inventory-movements";
import { INVENTORY_KEY, showQuantity } from "./inventory-quantity";

const PAGE_SIZE = 20;

/** Inventory items with their stock; an item's movements (and a new one) open beside the list. */
export const InventoryScreen = () => {
  const { t } = useTranslation();
  const locale = useLocale();
  const money = useMoney(locale);
  const api = useApi();
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState("");
  const [creating, setCreating] = useState(false);
  const [open, setOpen] = useState<TInventoryItemDto | null>(null);
  const query = {
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
    ...(search.trim() ? { search: search.trim() } : {}),
  };
  const items = useQuery({
    queryKey: [...INVENTORY_KEY, "page", query],
    queryFn: () => api.inventory.list.query(query),
    placeholderData: keepPreviousData,
  });

  return (
    <div>
      <Space style={{ width: "100%", justifyContent: "space-between", marginBottom: 16 }} wrap>
        <Typography.Title level={1} style={{ margin: 0 }}>
          {t("inventory.title")}
        </Typography.Title>
        <Space>
          <Input.Search
            aria-label={t("inventory.search")}
            placeholder={t("inventory.search")}
            maxLength={maxLengthOf(ZListInventoryQuery.shape.search)}
            allowClear
            onSearch={(value) => {
              setSearch(value);
              setPage(1);
            }}
            style={{ width: 280 }}
          />
          <Button type="primary" onClick={() => setCreating(true)} data-testid="new-item">
            {t("inventory.new")}
          </Button>
        </Space>
      </Space>
      <QueryState query={items} rows={8}>
        {(data) => (
          <Table
            rowKey="id"
            dataSource={data.items}
            loading={items.isFetching && items.isPlaceholderData}
            locale={{ emptyText: t("inventory.empty") }}
            pagination={{ current: page, pageSize: PAGE_SIZE, total: data.total, showSizeChanger: false }}
            onChange={(pagination) => setPage(pagination.current ?? 1)}
            columns={[
              { title: t("inventory.name"), dataIndex: "name", ellipsis: true },
              { title: t("inventory.sku"), dataIndex: "sku", width: 160 },
              {
                title: t("inventory.quantity"),
                dataIndex: "quantity",
                align: "right",
                render: (quantity: string, row) => (
                  <span style={{ whiteSpace: "nowrap" }} data-testid={`stock-${row.sku}`}>
                    {showQuantity(quantity, locale)} {row.unit}
                  </span>
                ),
              },
              {
                title: t("inventory.unitPrice"),
                dataIndex: "unitPrice",
                align: "right",
                render: (price: string, row) => (
                  <span style={{ whiteSpace: "nowrap" }}>{money(price, row.currency)}</span>
                ),
              },
              {
                title: t("ui:actions"),
                width: 200,
                render: (_, row) => (
                  <Button
                    size="small"
                    onClick={() => setOpen(row)}
                    aria-label={`${t("inventory.movements")} ${row.name}`}
                  >
                    {t("inventory.movements")}
                  </Button>
                ),
              },
            ]}
          />
        )}
      </QueryState>
      {creating ? <InventoryItemForm onClose={() => setCreating(false)} /> : null}
      {open ? <InventoryMovements item={open} onClose={() => setOpen(null)} /> : null}
    </div>
  );
};
