import { Button, Popconfirm } from "antd";
import { call, type ItemOf } from "../../api";
import { useT } from "../../i18n";
import { RowActions } from "../../list-screen-parts";
import { useCan, useMe } from "../../session";
import { ConnectedAppsButton } from "../ConsentsDialog";

type User = ItemOf<"users.list">;

/**
 * A user's row actions, each as the administrator's permissions allow: edit, (de)activate, reset the
 * password, their sessions, their connected apps, delete. Not on oneself: deactivating, resetting, deleting.
 */
export const UserRowActions = (props: {
  user: User;
  act: (work: () => Promise<unknown>) => unknown;
  onEdit: () => void;
  onResetPassword: () => void;
  onSessions: () => void;
}) => {
  const t = useT();
  const can = useCan();
  const me = useMe();
  const { user, act } = props;
  const other = user.id !== me?.id;
  return (
    <RowActions
      {...(can("users:update:all") ? { onEdit: props.onEdit } : {})}
      {...(can("users:delete:all") && other
        ? { onDelete: () => act(() => call("users.delete", { id: user.id })) }
        : {})}
    >
      {can("users:update:all") && other && (
        <Button
          size="small"
          onClick={() => act(() => call("users.update", { id: user.id, data: { active: !user.active } }))}
        >
          {user.active ? t("users.deactivate") : t("users.activate")}
        </Button>
      )}
      {can("users:update:all") && other && (
        <Popconfirm title={t("users.resetPassword")} onConfirm={props.onResetPassword}>
          <Button size="small">{t("users.resetPassword")}</Button>
        </Popconfirm>
      )}
      {(can("sessions:read:all") || !other) && (
        <Button size="small" onClick={props.onSessions}>
          {t("users.sessions")}
        </Button>
      )}
      <ConnectedAppsButton user={user} />
    </RowActions>
  );
};
