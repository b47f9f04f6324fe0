import { useListData } from "@hisob/ui";
import { Alert, App, Button, Modal, Popconfirm, Table } from "antd";
import { useCallback } from "react";
import { call } from "../api";
import { useT } from "../i18n";
import { useCan, useMe } from "../session";
import { type Session, useSessionColumns } from "./session-columns";

/** A user's live sessions; ending one also ends the OIDC grants made from it. */
export const SessionsModal = (props: { user: { id: string; email: string }; onClose: () => void }) => {
  const t = useT();
  const can = useCan();
  const me = useMe();
  const { message } = App.useApp();
  const mayEnd = props.user.id === me?.id || can("sessions:delete:all");
  const fetchSessions = useCallback(
    () => call("sessions.listForUser", { id: props.user.id }),
    [props.user.id],
  );
  const { data: sessions, error, act, loading } = useListData(fetchSessions);

  const endAll = () =>
    act(async () => {
      const { ended } = await call("sessions.endAllForUser", { id: props.user.id });
      message.success(t("sessions.ended", { count: ended }));
    });
  // The same columns as the organization's Sessions screen.
  const columns = useSessionColumns({
    mayEnd: () => mayEnd,
    onEnd: (session) => act(() => call("sessions.end", { id: session.id })),
  });

  return (
    <Modal
      open
      width={960}
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
        columns={columns}
      />
    </Modal>
  );
};
