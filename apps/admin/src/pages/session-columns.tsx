import { Button, Popconfirm, Typography } from "antd";
import type { ColumnsType } from "antd/es/table";
import type { OutputOf } from "../api";
import { describeDevice, ipNetwork, shortId } from "../devices";
import { useFormatDate, useT } from "../i18n";

/** A login session as GET /sessions and GET /users/:id/sessions answer. */
export type Session = OutputOf<"sessions.listForUser">[number];

/** What used a session last: an OIDC client by its name (its client_id once it is gone), ours in words. */
export const useClientLabel = () => {
  const t = useT();
  return (client: Session["client"]) =>
    client.kind === "oidc" ? (client.name ?? client.clientId ?? "") : t(`sessions.client.${client.kind}`);
};

/**
 * The columns that tell sessions apart, the same in the organization's list and in one user's dialog:
 * id (short), started, last used, used through, expires, network, device, and End after a
 * confirmation. `user` adds whose it is first; `onClient` makes the client a filter link.
 */
export const useSessionColumns = (options: {
  mayEnd: (session: Session) => boolean;
  onEnd: (session: Session) => void;
  user?: (session: Session) => React.ReactNode;
  onClient?: (session: Session) => void;
}): ColumnsType<Session> => {
  const t = useT();
  const formatDate = useFormatDate();
  const clientLabel = useClientLabel();
  const columns: ColumnsType<Session> = [
    {
      title: t("sessions.id"),
      dataIndex: "id",
      render: (id: string) => (
        <Typography.Text code title={id} style={{ whiteSpace: "nowrap" }}>
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
      render: (client: Session["client"], session) => {
        const label = <span title={client.clientId ?? ""}>{clientLabel(client)}</span>;
        return options.onClient ? (
          <Button
            type="link"
            size="small"
            style={{ padding: 0, height: "auto", whiteSpace: "normal", textAlign: "start" }}
            onClick={() => options.onClient?.(session)}
          >
            {label}
          </Button>
        ) : (
          label
        );
      },
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
        options.mayEnd(session) && (
          <Popconfirm
            title={t("sessions.endConfirm")}
            description={t("sessions.endConfirmHelp")}
            okButtonProps={{ danger: true }}
            styles={{ root: { maxWidth: 360 } }}
            onConfirm={() => options.onEnd(session)}
          >
            <Button size="small" danger>
              {t("sessions.end")}
            </Button>
          </Popconfirm>
        ),
    },
  ];
  const { user } = options;
  return user
    ? [{ title: t("sessions.user"), key: "user", render: (_, session) => user(session) }, ...columns]
    : columns;
};
