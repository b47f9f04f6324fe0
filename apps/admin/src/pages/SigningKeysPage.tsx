import type { ZSigningKeyDto } from "@hisob/oidc/schema";
import { ListPage, useListData } from "@hisob/ui";
import { Button, Popconfirm, Space, Table, Tag, Typography } from "antd";
import { useCallback } from "react";
import type { z } from "zod";
import { api } from "../api";
import { useFormatDate, useT } from "../i18n";
import { useCan } from "../session";

/* The OpenID provider's administration is not in the operation catalog: its routes' own schemas type it. */
type Key = z.output<typeof ZSigningKeyDto>;

export const SigningKeysPage = () => {
  const t = useT();
  const formatDate = useFormatDate();
  const can = useCan();
  const fetchKeys = useCallback(() => api<Key[]>("GET", "/signing-keys"), []);
  const { data: keys, error, load, act, loading } = useListData(fetchKeys);

  return (
    <ListPage
      title={t("keys.title")}
      error={error}
      onRetry={load}
      action={
        can("signing_keys:rotate:all") && (
          <Popconfirm title={t("keys.rotateHelp")} onConfirm={() => act(() => api("POST", "/signing-keys"))}>
            <Button type="primary">{t("keys.rotate")}</Button>
          </Popconfirm>
        )
      }
    >
      <Typography.Text type="secondary">{t("keys.rotateHelp")}</Typography.Text>
      <Table<Key>
        rowKey="kid"
        size="middle"
        loading={loading}
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
                {key.active && !key.signing && Date.parse(key.signsFrom) > Date.now() && (
                  <Tag color="gold">{t("keys.pending", { when: formatDate(key.signsFrom) })}</Tag>
                )}
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
            title: t("keys.signsFrom"),
            dataIndex: "signsFrom",
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
              !key.signing &&
              Date.parse(key.signsFrom) <= Date.now() && (
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
    </ListPage>
  );
};
