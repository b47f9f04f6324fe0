import { Alert, App, Button, Popconfirm, Space, Table, Tag, Typography } from "antd";
import { useCallback, useEffect, useState } from "react";
import { api } from "../api";
import { useFormatDate, useT } from "../i18n";
import { useCan } from "../session";

type Key = {
  kid: string;
  algorithm: string;
  active: boolean;
  signing: boolean;
  published: boolean;
  createdAt: string;
  retiredAt: string | null;
};

export const SigningKeysPage = () => {
  const t = useT();
  const formatDate = useFormatDate();
  const can = useCan();
  const { message } = App.useApp();
  const [keys, setKeys] = useState<Key[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(() => {
    setError(null);
    api<Key[]>("GET", "/signing-keys").then(setKeys, (caught: unknown) =>
      setError(caught instanceof Error ? caught.message : String(caught)),
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
          {t("keys.title")}
        </Typography.Title>
        {can("signing_keys:rotate:all") && (
          <Popconfirm title={t("keys.rotateHelp")} onConfirm={() => act(() => api("POST", "/signing-keys"))}>
            <Button type="primary">{t("keys.rotate")}</Button>
          </Popconfirm>
        )}
      </Space>
      <Typography.Text type="secondary">{t("keys.rotateHelp")}</Typography.Text>
      {error && <Alert type="error" message={error} />}
      <Table<Key>
        rowKey="kid"
        size="middle"
        loading={keys === null && !error}
        dataSource={keys ?? []}
        pagination={false}
        columns={[
          {
            title: t("keys.kid"),
            dataIndex: "kid",
            render: (kid: string) => <Typography.Text code>{kid}</Typography.Text>,
          },
          { title: t("keys.algorithm"), dataIndex: "algorithm" },
          {
            title: t("keys.state"),
            render: (_, key) => (
              <Space size={4}>
                {key.signing && <Tag color="green">{t("keys.signing")}</Tag>}
                {key.published && <Tag color="blue">{t("keys.published")}</Tag>}
                {!key.active && <Tag>{t("keys.retired")}</Tag>}
              </Space>
            ),
          },
          {
            title: t("common.createdAt"),
            dataIndex: "createdAt",
            render: (value: string) => formatDate(value),
          },
          {
            title: t("keys.stoppedSigning"),
            dataIndex: "retiredAt",
            render: (value: string | null) => formatDate(value),
          },
          {
            title: t("common.actions"),
            render: (_, key) =>
              can("signing_keys:retire:all") &&
              key.active &&
              !key.signing && (
                <Popconfirm
                  title={t("keys.retire")}
                  onConfirm={() => act(() => api("POST", `/signing-keys/${key.kid}/retire`))}
                >
                  <Button size="small" danger>
                    {t("keys.retire")}
                  </Button>
                </Popconfirm>
              ),
          },
        ]}
      />
    </Space>
  );
};
