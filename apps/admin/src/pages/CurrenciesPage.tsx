import { ListPage, useListData } from "@hisob/ui";
import { Button, Switch, Table } from "antd";
import { useCallback, useEffect, useState } from "react";
import { call, type OutputOf } from "../api";
import { useT } from "../i18n";
import { useCan } from "../session";

type Currency = OutputOf<"currencies.all">[number];

/** The global list (platform admins switch currencies on and off) and this organization's selection. */
export const CurrenciesPage = () => {
  const t = useT();
  const can = useCan();
  const fetchCurrencies = useCallback(
    () =>
      Promise.all([call("currencies.all"), call("currencies.selected")]).then(([all, ours]) => ({
        all,
        ours: ours.map((currency) => currency.code),
      })),
    [],
  );
  const { data, error, load, act, loading } = useListData(fetchCurrencies);
  const [selected, setSelected] = useState<string[]>([]);
  useEffect(() => setSelected(data?.ours ?? []), [data]);

  return (
    <ListPage
      title={t("currencies.title")}
      error={error}
      onRetry={load}
      action={
        can("currencies:select:all") && (
          <Button type="primary" onClick={() => act(() => call("currencies.select", { codes: selected }))}>
            {t("currencies.saveSelection")}
          </Button>
        )
      }
    >
      <Table<Currency>
        rowKey="code"
        size="small"
        loading={loading}
        dataSource={data?.all ?? []}
        pagination={{ pageSize: 50 }}
        rowSelection={
          can("currencies:select:all")
            ? {
                selectedRowKeys: selected,
                onChange: (keys) => setSelected(keys.map(String)),
                getCheckboxProps: (currency) => ({ disabled: !currency.active, "aria-label": currency.code }),
                columnTitle: t("currencies.ours"),
              }
            : undefined
        }
        columns={[
          { title: t("currencies.code"), dataIndex: "code" },
          { title: t("common.name"), dataIndex: "name" },
          { title: t("currencies.symbol"), dataIndex: "symbol" },
          { title: t("currencies.minorUnits"), dataIndex: "minorUnits" },
          {
            title: t("common.active"),
            render: (_, currency) => (
              <Switch
                aria-label={`${currency.code} ${t("common.active")}`}
                size="small"
                checked={currency.active}
                disabled={!can("currencies:update:all")}
                onChange={(active) =>
                  act(() => call("currencies.update", { code: currency.code, data: { active } }))
                }
              />
            ),
          },
        ]}
      />
    </ListPage>
  );
};
