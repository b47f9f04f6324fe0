import { ListPage, useListData, usePaging } from "@hisob/ui";
import { Button, Space, Table, Tag, Typography } from "antd";
import type { SorterResult } from "antd/es/table/interface";
import { useCallback, useState } from "react";
import { useActingTenantId } from "../acting";
import { api, call, type InputOf, type ItemOf, type OutputOf, urlOf } from "../api";
import { takeStarted } from "../first-fetch";
import { useFormatDate, useT } from "../i18n";
import { NewButton, ShownOnceModal, StatusTag, useRefs } from "../list-screen-parts";
import { SessionsModal } from "./SessionsModal";
import { UserDrawer } from "./users/user-drawer";
import { UserRowActions } from "./users/user-row-actions";
import { type UserFilters, UsersFilters } from "./users/users-filters";
import { generatePassword, useDebounced } from "./users/users-hooks";

type User = ItemOf<"users.list">;
type Sort = Required<Pick<NonNullable<InputOf<"users.list">>, "sortBy" | "order">>;

export const UsersPage = () => {
  const t = useT();
  const formatDate = useFormatDate();
  const acting = useActingTenantId();
  const [filters, setFilters] = useState<UserFilters>({ email: "", name: "" });
  const [sort, setSort] = useState<Sort>({ sortBy: "createdAt", order: "desc" });
  const paging = usePaging(20);
  const roles = useRefs("roles:read:all", "roles");
  const groups = useRefs("groups:read:all", "groups");
  const [editing, setEditing] = useState<User | "new" | null>(null);
  const [sessionsOf, setSessionsOf] = useState<User | null>(null);
  const [shownPassword, setShownPassword] = useState<string | null>(null);
  const email = useDebounced(filters.email, 250);
  const name = useDebounced(filters.name, 250);

  const listQuery = {
    email: email.trim() || undefined,
    name: name.trim() || undefined,
    roleId: filters.roleId,
    active: filters.active,
    sortBy: sort.sortBy,
    order: sort.order,
  };
  const listUrl = urlOf("users.list", { ...listQuery, limit: paging.limit, offset: paging.offset });
  // The first page was started by the entry (first-fetch.ts); every other page, filter or reload asks.
  const fetchUsers = useCallback(
    () => takeStarted(listUrl, () => api<OutputOf<"users.list">>("GET", listUrl)),
    [listUrl],
  );
  const { data, error, load, act, loading } = useListData(fetchUsers);
  const filter = (change: Partial<UserFilters>) => {
    setFilters({ ...filters, ...change });
    paging.reset();
  };

  const resetPassword = (user: User) =>
    act(async () => {
      const password = generatePassword();
      await call("users.update", { id: user.id, data: { password } });
      setShownPassword(password);
    });

  return (
    <ListPage
      title={t("users.title")}
      error={error}
      onRetry={load}
      action={
        <Space>
          {/* A download cannot name another organization (decision 0084): only one's own exports. */}
          {!acting && (
            <Button href={urlOf("users.export", listQuery)} download>
              {t("common.export")}
            </Button>
          )}
          <NewButton permission="users:create:all" onClick={() => setEditing("new")}>
            {t("users.new")}
          </NewButton>
        </Space>
      }
      filters={<UsersFilters filters={filters} roles={roles} onChange={filter} />}
    >
      <Table<User>
        rowKey="id"
        size="middle"
        loading={loading}
        dataSource={data?.items ?? []}
        pagination={paging.pagination(
          data?.total ?? 0,
          (total) => t("common.total", { count: total }),
          [20, 50, 100],
        )}
        onChange={(pagination, _filters, sorter) => {
          const one = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<User> | undefined;
          paging.change(pagination);
          setSort(
            one?.order
              ? {
                  sortBy: String(one.field) as Sort["sortBy"],
                  order: one.order === "ascend" ? "asc" : "desc",
                }
              : { sortBy: "createdAt", order: "desc" },
          );
        }}
        columns={[
          { title: t("users.email"), dataIndex: "email", sorter: true },
          {
            title: t("users.firstName"),
            dataIndex: "firstName",
            sorter: true,
          },
          { title: t("users.lastName"), dataIndex: "lastName", sorter: true },
          {
            title: t("users.roles"),
            render: (_, user) => user.roles.map((role) => <Tag key={role.id}>{role.name}</Tag>),
          },
          { title: t("users.status"), render: (_, user) => <StatusTag active={user.active} /> },
          {
            title: t("common.createdAt"),
            dataIndex: "createdAt",
            sorter: true,
            render: (value: string) => formatDate(value),
          },
          {
            title: t("common.actions"),
            render: (_, user) => (
              <UserRowActions
                user={user}
                act={act}
                onEdit={() => setEditing(user)}
                onResetPassword={() => resetPassword(user)}
                onSessions={() => setSessionsOf(user)}
              />
            ),
          },
        ]}
      />
      {editing && (
        <UserDrawer
          user={editing === "new" ? null : editing}
          roles={roles}
          groups={groups}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            load();
          }}
        />
      )}
      {sessionsOf && <SessionsModal user={sessionsOf} onClose={() => setSessionsOf(null)} />}
      <ShownOnceModal
        open={shownPassword !== null}
        title={t("users.newPassword")}
        help={t("users.newPasswordHelp")}
        onClose={() => setShownPassword(null)}
      >
        <Typography.Paragraph code copyable={{ text: shownPassword ?? "" }} data-testid="shown-password">
          {shownPassword}
        </Typography.Paragraph>
      </ShownOnceModal>
    </ListPage>
  );
};
