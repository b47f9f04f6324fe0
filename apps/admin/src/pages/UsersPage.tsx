import { ZCreateUserInput } from "@hisob/core/schema";
import {
  ListPage,
  LOCALE_NAMES,
  LOCALES,
  type Page,
  queryString,
  useListData,
  useLocale,
  usePaging,
} from "@hisob/ui";
import { useFormSave, useSchemaRule } from "@hisob/ui/forms";
import { Button, Form, Input, Popconfirm, Select, Space, Switch, Table, Tag, Typography } from "antd";
import type { SorterResult } from "antd/es/table/interface";
import { useCallback, useEffect, useState } from "react";
import { useActingTenantId } from "../acting";
import { api } from "../api";
import { takeStarted } from "../first-fetch";
import { useFormatDate, useT } from "../i18n";
import {
  EditorDrawer,
  GROUPS_URL,
  NewButton,
  options,
  type Ref,
  ROLES_URL,
  RowActions,
  ShownOnceModal,
  StatusTag,
  syncIds,
  useRefs,
} from "../list-screen-parts";
import { useCan, useMe } from "../session";
import { ConnectedAppsButton } from "./ConsentsDialog";
import { SessionsModal } from "./SessionsModal";

type User = {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  uiLanguage: "en" | "ru" | "uz";
  active: boolean;
  roles: Ref[];
  groups: Ref[];
  createdAt: string;
};
type Filters = { email: string; name: string; roleId?: string; active?: boolean };
type Sort = { sortBy: string; order: "asc" | "desc" };

/** A strong password for an admin's reset: 20 random characters from every class the rule asks for. */
const generatePassword = () => {
  const sets = ["ABCDEFGHJKLMNPQRSTUVWXYZ", "abcdefghijkmnopqrstuvwxyz", "23456789", "!#%+-=?@_"];
  const random = new Uint32Array(20);
  crypto.getRandomValues(random);
  return Array.from(random, (value, index) => {
    const set = sets[index % sets.length] ?? "";
    return set[value % set.length];
  }).join("");
};

/** Waits for the user to stop typing before asking the server (search as you type). */
const useDebounced = <T,>(value: T, ms: number) => {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
};

export const UsersPage = () => {
  const t = useT();
  const formatDate = useFormatDate();
  const can = useCan();
  const me = useMe();
  const acting = useActingTenantId();
  const [filters, setFilters] = useState<Filters>({ email: "", name: "" });
  const [sort, setSort] = useState<Sort>({ sortBy: "createdAt", order: "desc" });
  const paging = usePaging(20);
  const roles = useRefs("roles:read:all", ROLES_URL);
  const groups = useRefs("groups:read:all", GROUPS_URL);
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
  const listUrl = `/users${queryString({ ...listQuery, limit: paging.limit, offset: paging.offset })}`;
  // The first page was started by the entry (first-fetch.ts); every other page, filter or reload asks.
  const fetchUsers = useCallback(
    () => takeStarted(listUrl, () => api<Page<User>>("GET", listUrl)),
    [listUrl],
  );
  const { data, error, load, act, loading } = useListData(fetchUsers);
  const filter = (change: Partial<Filters>) => {
    setFilters({ ...filters, ...change });
    paging.reset();
  };

  const resetPassword = (user: User) =>
    act(async () => {
      const password = generatePassword();
      await api("PUT", `/users/${user.id}`, { password });
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
            <Button href={`/users/export${queryString(listQuery)}`} download>
              {t("common.export")}
            </Button>
          )}
          <NewButton permission="users:create:all" onClick={() => setEditing("new")}>
            {t("users.new")}
          </NewButton>
        </Space>
      }
      filters={
        <>
          <Input.Search
            aria-label={t("users.searchEmail")}
            placeholder={t("users.searchEmail")}
            allowClear
            value={filters.email}
            onChange={(event) => filter({ email: event.target.value })}
            style={{ width: 260 }}
          />
          <Input.Search
            aria-label={t("users.searchName")}
            placeholder={t("users.searchName")}
            allowClear
            value={filters.name}
            onChange={(event) => filter({ name: event.target.value })}
            style={{ width: 220 }}
          />
          <Select
            aria-label={t("users.role")}
            placeholder={t("users.role")}
            allowClear
            value={filters.roleId}
            options={options(roles)}
            onChange={(roleId?: string) => filter({ roleId })}
            style={{ width: 180 }}
          />
          <Select
            aria-label={t("users.status")}
            value={filters.active === undefined ? "all" : String(filters.active)}
            options={[
              { value: "all", label: t("common.all") },
              { value: "true", label: t("common.active") },
              { value: "false", label: t("common.inactive") },
            ]}
            onChange={(value: string) => filter({ active: value === "all" ? undefined : value === "true" })}
            style={{ width: 150 }}
          />
        </>
      }
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
              ? { sortBy: String(one.field), order: one.order === "ascend" ? "asc" : "desc" }
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
            render: (_, user) => {
              const other = user.id !== me?.id;
              return (
                <RowActions
                  {...(can("users:update:all") ? { onEdit: () => setEditing(user) } : {})}
                  {...(can("users:delete:all") && other
                    ? { onDelete: () => act(() => api("DELETE", `/users/${user.id}`)) }
                    : {})}
                >
                  {can("users:update:all") && other && (
                    <Button
                      size="small"
                      onClick={() => act(() => api("PUT", `/users/${user.id}`, { active: !user.active }))}
                    >
                      {user.active ? t("users.deactivate") : t("users.activate")}
                    </Button>
                  )}
                  {can("users:update:all") && other && (
                    <Popconfirm title={t("users.resetPassword")} onConfirm={() => resetPassword(user)}>
                      <Button size="small">{t("users.resetPassword")}</Button>
                    </Popconfirm>
                  )}
                  {(can("sessions:read:all") || !other) && (
                    <Button size="small" onClick={() => setSessionsOf(user)}>
                      {t("users.sessions")}
                    </Button>
                  )}
                  <ConnectedAppsButton user={user} />
                </RowActions>
              );
            },
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

const FIELDS = ["email", "firstName", "lastName", "uiLanguage", "password", "active", "roleIds", "groupIds"];

type Values = {
  email: string;
  firstName: string;
  lastName: string;
  uiLanguage: string;
  active: boolean;
  password?: string;
  roleIds: string[];
  groupIds?: string[];
};

const UserDrawer = (props: {
  user: User | null;
  roles: Ref[];
  groups: Ref[];
  onClose: () => void;
  onSaved: () => void;
}) => {
  const t = useT();
  const rule = useSchemaRule();
  const can = useCan();
  const me = useMe();
  // A new user starts in the language the admin is using, not always English.
  const language = useLocale();
  const [form] = Form.useForm();
  const { user } = props;

  const { save, saving, banner } = useFormSave<Values>(form, FIELDS, async (values) => {
    if (user) {
      const { roleIds, groupIds, password, ...fields } = values;
      // A typed password is the administrator's reset: the server ends the user's sessions.
      await api("PUT", `/users/${user.id}`, password ? { ...fields, password } : fields);
      const groupsBefore = user.groups.map((group) => group.id).sort();
      if (groupIds && groupIds.slice().sort().join() !== groupsBefore.join())
        await api("PUT", `/users/${user.id}/groups`, { groupIds });
      await syncIds(
        user.roles.map((role) => role.id),
        roleIds,
        (added) => api("POST", `/users/${user.id}/roles`, { roleIds: added }),
        (removed) => api("DELETE", `/users/${user.id}/roles/${removed}`),
      );
    } else {
      const { password, ...rest } = values;
      await api("POST", "/users", password ? { ...rest, password } : rest);
    }
    props.onSaved();
  });

  return (
    <EditorDrawer
      title={user ? t("users.editTitle") : t("users.new")}
      isNew={!user}
      saving={saving}
      banner={banner}
      onClose={props.onClose}
      onSave={save}
      form={form}
      initialValues={
        user
          ? {
              email: user.email,
              firstName: user.firstName,
              lastName: user.lastName,
              uiLanguage: user.uiLanguage,
              active: user.active,
              roleIds: user.roles.map((role) => role.id),
              groupIds: user.groups.map((group) => group.id),
            }
          : { uiLanguage: language, active: true, roleIds: [], groupIds: [] }
      }
    >
      <Form.Item name="email" label={t("users.email")} required rules={[rule(ZCreateUserInput.shape.email)]}>
        <Input type="email" autoComplete="off" />
      </Form.Item>
      <Form.Item
        name="firstName"
        label={t("users.firstName")}
        required
        rules={[rule(ZCreateUserInput.shape.firstName)]}
      >
        <Input />
      </Form.Item>
      <Form.Item
        name="lastName"
        label={t("users.lastName")}
        required
        rules={[rule(ZCreateUserInput.shape.lastName)]}
      >
        <Input />
      </Form.Item>
      <Form.Item name="uiLanguage" label={t("users.language")}>
        <Select options={LOCALES.map((value) => ({ value, label: LOCALE_NAMES[value] }))} />
      </Form.Item>
      {(!user || user.id !== me?.id) && (
        <Form.Item
          name="password"
          label={user ? t("users.setPassword") : t("users.password")}
          extra={user ? t("users.setPasswordHelp") : t("users.passwordHelp")}
          rules={[rule(ZCreateUserInput.shape.password.unwrap(), { optional: true })]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      )}
      <Form.Item name="active" label={t("common.active")} valuePropName="checked">
        <Switch />
      </Form.Item>
      {can("roles:read:all") && (
        <Form.Item name="roleIds" label={t("users.roles")}>
          <Select mode="multiple" options={options(props.roles)} />
        </Form.Item>
      )}
      {can("groups:read:all") && (!user || can("groups:update:all")) && (
        <Form.Item name="groupIds" label={t("users.groups")}>
          <Select mode="multiple" options={options(props.groups)} />
        </Form.Item>
      )}
    </EditorDrawer>
  );
};
