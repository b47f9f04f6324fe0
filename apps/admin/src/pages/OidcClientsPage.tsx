import type { ZRotatedSecretDto } from "@hisob/oidc/schema";
import { ListPage, useListData } from "@hisob/ui";
import { Button, Popconfirm, Space, Table, Tag, Typography } from "antd";
import { useCallback, useState } from "react";
import type { z } from "zod";
import { api } from "../api";
import { useT } from "../i18n";
import { NewButton, RowActions, ShownOnceModal, StatusTag } from "../list-screen-parts";
import { useCan } from "../session";
import { type Client, ClientDrawer } from "./oidc-clients/client-drawer";

export const OidcClientsPage = () => {
  const t = useT();
  const can = useCan();
  const fetchClients = useCallback(() => api<Client[]>("GET", "/oidc-clients"), []);
  const { data: clients, error, load, act, loading } = useListData(fetchClients);
  const [editing, setEditing] = useState<Client | "new" | null>(null);
  const [secret, setSecret] = useState<z.output<typeof ZRotatedSecretDto> | null>(null);

  return (
    <ListPage
      title={t("oidc.title")}
      error={error}
      onRetry={load}
      action={
        <NewButton permission="oidc_clients:create:all" onClick={() => setEditing("new")}>
          {t("oidc.new")}
        </NewButton>
      }
    >
      <Table<Client>
        rowKey="clientId"
        size="middle"
        loading={loading}
        dataSource={clients ?? []}
        pagination={false}
        columns={[
          { title: t("common.name"), dataIndex: "name" },
          {
            title: t("oidc.clientId"),
            dataIndex: "clientId",
            render: (id: string) => (
              <Typography.Text code style={{ whiteSpace: "nowrap" }}>
                {id}
              </Typography.Text>
            ),
          },
          {
            title: t("oidc.type"),
            render: (_, client) => (
              <Space size={4} wrap>
                <Tag>{client.isPublic ? t("oidc.public") : t("oidc.confidential")}</Tag>
                <Tag>{client.applicationType}</Tag>
                {client.isFirstParty && <Tag color="blue">{t("oidc.firstPartyTag")}</Tag>}
              </Space>
            ),
          },
          {
            title: t("oidc.redirectUrisColumn"),
            render: (_, client) => (
              <Space direction="vertical" size={0}>
                {client.redirectUris.map((uri) => (
                  <Typography.Text key={uri} style={{ fontSize: 12 }}>
                    {uri}
                  </Typography.Text>
                ))}
              </Space>
            ),
          },
          {
            title: t("users.status"),
            render: (_, client) => <StatusTag active={client.isActive} />,
          },
          {
            title: t("common.actions"),
            render: (_, client) =>
              can("oidc_clients:update:all") && (
                <RowActions onEdit={() => setEditing(client)}>
                  {!client.isPublic && (
                    // The old secret stops working at once, so every app using it breaks until updated: ask first.
                    <Popconfirm
                      title={t("oidc.rotateSecret")}
                      description={t("oidc.rotateSecretConfirm", { name: client.name })}
                      okButtonProps={{ danger: true }}
                      styles={{ root: { maxWidth: 400 } }}
                      onConfirm={() =>
                        act(async () =>
                          setSecret(
                            await api<z.output<typeof ZRotatedSecretDto>>(
                              "POST",
                              `/oidc-clients/${encodeURIComponent(client.clientId)}/secret`,
                            ),
                          ),
                        )
                      }
                    >
                      <Button size="small">{t("oidc.rotateSecret")}</Button>
                    </Popconfirm>
                  )}
                  <Button
                    size="small"
                    danger={client.isActive}
                    onClick={() =>
                      act(() =>
                        api<Client>("PUT", `/oidc-clients/${encodeURIComponent(client.clientId)}`, {
                          isActive: !client.isActive,
                        }),
                      )
                    }
                  >
                    {client.isActive ? t("oidc.deactivate") : t("oidc.activate")}
                  </Button>
                </RowActions>
              ),
          },
        ]}
      />
      {editing && (
        <ClientDrawer
          client={editing === "new" ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(registered) => {
            setEditing(null);
            if (registered?.clientSecret)
              setSecret({ clientId: registered.client.clientId, clientSecret: registered.clientSecret });
            load();
          }}
        />
      )}
      <ShownOnceModal
        open={secret !== null}
        title={t("oidc.secretTitle")}
        help={t("oidc.secretHelp")}
        onClose={() => setSecret(null)}
      >
        <Typography.Paragraph>
          {t("oidc.clientId")}:{" "}
          <Typography.Text code copyable data-testid="client-id">
            {secret?.clientId}
          </Typography.Text>
        </Typography.Paragraph>
        <Typography.Paragraph
          code
          copyable={{ text: secret?.clientSecret ?? "" }}
          data-testid="client-secret"
        >
          {secret?.clientSecret}
        </Typography.Paragraph>
      </ShownOnceModal>
    </ListPage>
  );
};
