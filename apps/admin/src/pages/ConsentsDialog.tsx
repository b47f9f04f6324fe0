import { useListData } from "@hisob/ui";
import { Alert, App, Button, Modal, Popconfirm, Table, Tag } from "antd";
import { useCallback, useState } from "react";
import { call, type ItemOf, type OutputOf } from "../api";
import { useFormatDate, useT } from "../i18n";
import { useCan, useMe } from "../session";

type Consent = OutputOf<"consents.listForUser">[number];
type UserRef = Pick<ItemOf<"users.list">, "id" | "email">;

/**
 * The third-party apps a user allowed (docs/decisions/0036-oidc-consent.md); revoking one also ends
 * its tokens for that user, and its next sign-in asks again.
 */
export const ConsentsDialog = (props: { user: UserRef; onClose: () => void }) => {
  const t = useT();
  const formatDate = useFormatDate();
  const can = useCan();
  const me = useMe();
  const { message } = App.useApp();
  const mayRevoke = props.user.id === me?.id || can("users:update:all");
  const fetchConsents = useCallback(
    () => call("consents.listForUser", { id: props.user.id }),
    [props.user.id],
  );
  const { data: consents, error, act, loading } = useListData(fetchConsents);

  const revoke = (clientId: string) =>
    act(async () => {
      await call("consents.revokeForUser", { id: props.user.id, clientId });
      message.success(t("consents.revoked"));
    });

  return (
    <Modal
      open
      width={760}
      title={t("consents.title", { name: props.user.email })}
      onCancel={props.onClose}
      footer={[
        <Button key="close" onClick={props.onClose}>
          {t("common.cancel")}
        </Button>,
      ]}
    >
      {error && <Alert type="error" showIcon title={error} />}
      <Table<Consent>
        rowKey="clientId"
        size="small"
        loading={loading}
        dataSource={consents ?? []}
        pagination={false}
        locale={{ emptyText: t("consents.empty") }}
        columns={[
          { title: t("consents.app"), dataIndex: "clientName" },
          {
            title: t("consents.scopes"),
            dataIndex: "scopes",
            render: (scopes: string[]) => scopes.map((scope) => <Tag key={scope}>{scope}</Tag>),
          },
          {
            title: t("consents.updated"),
            dataIndex: "updatedAt",
            render: (value: string) => formatDate(value),
          },
          {
            title: t("common.actions"),
            render: (_, consent) =>
              mayRevoke && (
                <Popconfirm title={t("consents.revokeConfirm")} onConfirm={() => revoke(consent.clientId)}>
                  <Button size="small" danger>
                    {t("consents.revoke")}
                  </Button>
                </Popconfirm>
              ),
          },
        ]}
      />
    </Modal>
  );
};

/** The user row's "Connected apps" button with its dialog (one's own, or anyone's with users:read:all). */
export const ConnectedAppsButton = (props: { user: UserRef }) => {
  const t = useT();
  const can = useCan();
  const me = useMe();
  const [open, setOpen] = useState(false);
  if (props.user.id !== me?.id && !can("users:read:all")) return null;
  return (
    <>
      <Button size="small" onClick={() => setOpen(true)}>
        {t("consents.button")}
      </Button>
      {open && <ConsentsDialog user={props.user} onClose={() => setOpen(false)} />}
    </>
  );
};
