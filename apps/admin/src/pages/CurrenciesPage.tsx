import { Alert, App, Button, Space, Switch, Table, Typography } from "antd";
import { useCallback, useEffect, useState } from "react";
import { api } from "../api";
import { useT } from "../i18n";
import { useCan } from "../session";

type Currency = { code: string; name: string; symbol: string; minorUnits: number; active: boolean };

/** The global list (platform admins switch currencies on and off) and this organization's selection. */
export const CurrenciesPage = () => {
  const t = useT();
  const can = useCan();
  const { message } = App.useApp();
  const [all, setAll] = useState<Currency[] | null>(null);
  const [selected, setSelected] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(() => {
    setError(null);
    Promise.all([api<Currency[]>("GET", "/currencies"), api<Currency[]>("GET", "/tenant/currencies")]).then(
      ([list, mine]) => {
        setAll(list);
        setSelected(mine.map((currency) => currency.code));
      },
      (caught: unknown) => setError(caught instanceof Error ? caught.message : String(caught)),
    );
  }, []);
  useEffect(() => {
    load();
  }, [load]);

  const act = async (work: () => Promise<unknown>) => {
    try {
      await work();
      load();
    } catch (caught) {
      message.error(caught instanceof Error ? caught.message : String(caught));
    }
  };

  return (
    <Space direction="vertical" size="middle" style={{ width: "100%" }}>
      <Space style={{ width: "100%", justifyContent: "space-between" }}>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {t("currencies.title")}
        </Typography.Title>
        {can("currencies:select:all") && (
          <Button
            type="primary"
            onClick={() => act(() => api("PUT", "/tenant/currencies", { codes: selected }))}
          >
            {t("currencies.saveSelection")}
          </Button>
        )}
      </Space>
      {error && <Alert type="error" message={error} />}
      <Table<Currency>
        rowKey="code"
        size="small"
        loading={all === null && !error}
        dataSource={all ?? []}
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
                onChange={(active) => act(() => api("PUT", `/currencies/${currency.code}`, { active }))}
              />
            ),
          },
        ]}
      />
    </Space>
  );
};
