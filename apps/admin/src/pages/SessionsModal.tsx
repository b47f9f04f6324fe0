import { useListData } from "@hisob/ui";
import { Alert, App, Button, Modal, Popconfirm, Table, Typography } from "antd";
import { useCallback } from "react";
import { api } from "../api";
import { describeDevice, ipNetwork, shortId } from "../devices";
import { useFormatDate, useT } from "../i18n";
import { useCan, useMe } from "../session";

type Session = {
  id: string;
  ip: string;
  userAgent: string;
  createdAt: string;
  expiresAt: string;
  lastAccessAt: string;
  client: { kind: "browser" | "api" | "oidc"; clientId: string | null; name: string | null };
};

/** A user's live sessions; ending one also ends the OIDC grants made from it. */
export const SessionsModal = (props: { user: { id: string; email: string }; onClose: () => void }) => {
  const t = useT();
  const formatDate = useFormatDate();
  const can = useCan();
  const me = useMe();
  const { message } = App.useApp();
  const mayEnd = props.user.id === me?.id || can("sessions:delete:all");
  const fetchSessions = useCallback(
    () => api<Session[]>("GET", `/users/${props.user.id}/sessions`),
    [props.user.id],
  );
  const { data: sessions, error, act, loading } = useListData(fetchSessions);

  const end = (id: string) => act(() => api("DELETE", `/sessions/${id}`));
  const endAll = () =>
    act(async () => {
      const { ended } = await api<{ ended: number }>("DELETE", `/users/${props.user.id}/sessions`);
      message.success(t("sessions.ended", { count: ended }));
    });

  return (
    <Modal
      open
      width={900}
      title={t("sessions.title", { name: props.user.email })}
      onCancel={props.onClose}
      footer={[
        mayEnd && (
          <Popconfirm key="all" title={t("sessions.endAll")} onConfirm={endAll}>
            <Button danger>{t("sessions.endAll")}</Button>
          </Popconfirm>
        ),
        <Button key="close" onClick={props.onClose}>
          {t("common.cancel")}
        </Button>,
      ]}
    >
      {error && <Alert type="error" showIcon title={error} />}
      <Table<Session>
        rowKey="id"
        size="small"
        loading={loading}
        dataSource={sessions ?? []}
        pagination={false}
        columns={[
          {
            title: t("sessions.id"),
            dataIndex: "id",
            render: (id: string) => (
              <Typography.Text code title={id}>
                {shortId(id)}
              </Typography.Text>
            ),
          },
          {
            title: t("sessions.created"),
            dataIndex: "createdAt",
            render: (value: string) => formatDate(value),
          },
          {
            title: t("sessions.lastAccess"),
            dataIndex: "lastAccessAt",
            render: (value: string) => formatDate(value),
          },
          {
            title: t("sessions.client"),
            dataIndex: "client",
            // An OIDC client by its name (its client_id when it is gone); our own ways in by their words.
            render: (client: Session["client"]) =>
              client.kind === "oidc" ? (
                <span title={client.clientId ?? ""}>{client.name ?? client.clientId}</span>
              ) : (
                t(`sessions.client.${client.kind}`)
              ),
          },
          {
            title: t("sessions.expires"),
            dataIndex: "expiresAt",
            render: (value: string) => formatDate(value),
          },
          {
            title: t("sessions.network"),
            dataIndex: "ip",
            render: (ip: string) => <span title={ip}>{ipNetwork(ip) || "—"}</span>,
          },
          {
            title: t("sessions.device"),
            dataIndex: "userAgent",
            ellipsis: true,
            render: (userAgent: string) => <span title={userAgent}>{describeDevice(userAgent) || "—"}</span>,
          },
          {
            title: t("common.actions"),
            render: (_, session) =>
              mayEnd && (
                <Popconfirm title={t("sessions.end")} onConfirm={() => end(session.id)}>
                  <Button size="small" danger>
                    {t("sessions.end")}
                  </Button>
                </Popconfirm>
              ),
          },
        ]}
      />
    </Modal>
  );
};
