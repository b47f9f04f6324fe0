import { ZCreateUserInput, ZUpdateUserInput } from "@hisob/core/schema";
import {
  Alert,
  App,
  Button,
  Drawer,
  Form,
  Input,
  Modal,
  Popconfirm,
  Select,
  Space,
  Switch,
  Table,
  Tag,
  Typography,
} from "antd";
import type { SorterResult } from "antd/es/table/interface";
import { useCallback, useEffect, useState } from "react";
import { api, type Page, query } from "../api";
import { showServerError, zodRule } from "../forms";
import { LANGUAGES, useFormatDate, useT } from "../i18n";
import { useCan, useMe } from "../session";
import { SessionsModal } from "./SessionsModal";

type Ref = { id: string; name: string };
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
  const { message } = App.useApp();
  const [filters, setFilters] = useState<Filters>({ email: "", name: "" });
  const [sort, setSort] = useState<Sort>({ sortBy: "createdAt", order: "desc" });
  const [pageState, setPageState] = useState({ current: 1, pageSize: 20 });
  const [data, setData] = useState<Page<User> | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [roles, setRoles] = useState<Ref[]>([]);
  const [groups, setGroups] = useState<Ref[]>([]);
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
  const queryString = query({
    ...listQuery,
    limit: pageState.pageSize,
    offset: (pageState.current - 1) * pageState.pageSize,
  });

  const load = useCallback(() => {
    setLoading(true);
    setError(null);
    api<Page<User>>("GET", `/users${queryString}`)
      .then(setData)
      .catch((caught: unknown) => setError(caught instanceof Error ? caught.message : String(caught)))
      .finally(() => setLoading(false));
  }, [queryString]);
  useEffect(() => {
    load();
  }, [load]);

  useEffect(() => {
    if (can("roles:read:all"))
      api<Page<Ref>>("GET", "/roles?limit=100&sortBy=name").then(
        (page) => setRoles(page.items),
        () => {},
      );
    if (can("groups:read:all"))
      api<Page<Ref>>("GET", "/groups?limit=100").then(
        (page) => setGroups(page.items),
        () => {},
      );
  }, [can]);

  const setActive = async (user: User, active: boolean) => {
    try {
      await api("PUT", `/users/${user.id}`, { active });
      load();
    } catch (caught) {
      message.error(caught instanceof Error ? caught.message : String(caught));
    }
  };
  const remove = async (user: User) => {
    try {
      await api("DELETE", `/users/${user.id}`);
      load();
    } catch (caught) {
      message.error(caught instanceof Error ? caught.message : String(caught));
    }
  };
  const resetPassword = async (user: User) => {
    const password = generatePassword();
    try {
      await api("PUT", `/users/${user.id}`, { password });
      setShownPassword(password);
    } catch (caught) {
      message.error(caught instanceof Error ? caught.message : String(caught));
    }
  };

  return (
    <Space direction="vertical" size="middle" style={{ width: "100%" }}>
      <Space style={{ width: "100%", justifyContent: "space-between" }} wrap>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {t("users.title")}
        </Typography.Title>
        <Space>
          <Button href={`/users/export${query(listQuery)}`} download>
            {t("common.export")}
          </Button>
          {can("users:create:all") && (
            <Button type="primary" onClick={() => setEditing("new")}>
              {t("users.new")}
            </Button>
          )}
        </Space>
      </Space>
      <Space wrap>
        <Input.Search
          aria-label={t("users.searchEmail")}
          placeholder={t("users.searchEmail")}
          allowClear
          value={filters.email}
          onChange={(event) => {
            setFilters({ ...filters, email: event.target.value });
            setPageState({ ...pageState, current: 1 });
          }}
          style={{ width: 260 }}
        />
        <Input.Search
          aria-label={t("users.searchName")}
          placeholder={t("users.searchName")}
          allowClear
          value={filters.name}
          onChange={(event) => {
            setFilters({ ...filters, name: event.target.value });
            setPageState({ ...pageState, current: 1 });
          }}
          style={{ width: 220 }}
        />
        <Select
          aria-label={t("users.role")}
          placeholder={t("users.role")}
          allowClear
          value={filters.roleId}
          options={roles.map((role) => ({ value: role.id, label: role.name }))}
          onChange={(roleId?: string) => setFilters({ ...filters, ...{ roleId } })}
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
          onChange={(value: string) =>
            setFilters({ ...filters, ...{ active: value === "all" ? undefined : value === "true" } })
          }
          style={{ width: 150 }}
        />
      </Space>
      {error && (
        <Alert type="error" message={error} action={<Button onClick={load}>{t("common.retry")}</Button>} />
      )}
      <Table<User>
        rowKey="id"
        size="middle"
        loading={loading}
        dataSource={data?.items ?? []}
        pagination={{
          current: pageState.current,
          pageSize: pageState.pageSize,
          total: data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: [20, 50, 100],
          showTotal: (total) => t("common.total", { count: total }),
        }}
        onChange={(pagination, _filters, sorter) => {
          const one = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<User> | undefined;
          setPageState({ current: pagination.current ?? 1, pageSize: pagination.pageSize ?? 20 });
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
          {
            title: t("users.status"),
            render: (_, user) =>
              user.active ? <Tag color="green">{t("common.active")}</Tag> : <Tag>{t("common.inactive")}</Tag>,
          },
          {
            title: t("common.createdAt"),
            dataIndex: "createdAt",
            sorter: true,
            render: (value: string) => formatDate(value),
          },
          {
            title: t("common.actions"),
            render: (_, user) => (
              <Space size={4} wrap>
                {can("users:update:all") && (
                  <Button size="small" onClick={() => setEditing(user)}>
                    {t("common.edit")}
                  </Button>
                )}
                {can("users:update:all") && user.id !== me?.id && (
                  <Button size="small" onClick={() => setActive(user, !user.active)}>
                    {user.active ? t("users.deactivate") : t("users.activate")}
                  </Button>
                )}
                {can("users:update:all") && user.id !== me?.id && (
                  <Popconfirm title={t("users.resetPassword")} onConfirm={() => resetPassword(user)}>
                    <Button size="small">{t("users.resetPassword")}</Button>
                  </Popconfirm>
                )}
                {(can("sessions:read:all") || user.id === me?.id) && (
                  <Button size="small" onClick={() => setSessionsOf(user)}>
                    {t("users.sessions")}
                  </Button>
                )}
                {can("users:delete:all") && user.id !== me?.id && (
                  <Popconfirm title={t("common.confirmDelete")} onConfirm={() => remove(user)}>
                    <Button size="small" danger>
                      {t("common.delete")}
                    </Button>
                  </Popconfirm>
                )}
              </Space>
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
      <Modal
        open={shownPassword !== null}
        title={t("users.newPassword")}
        onOk={() => setShownPassword(null)}
        onCancel={() => setShownPassword(null)}
        cancelButtonProps={{ style: { display: "none" } }}
      >
        <Typography.Paragraph>{t("users.newPasswordHelp")}</Typography.Paragraph>
        <Typography.Paragraph code copyable={{ text: shownPassword ?? "" }} data-testid="shown-password">
          {shownPassword}
        </Typography.Paragraph>
      </Modal>
    </Space>
  );
};

const FIELDS = ["email", "firstName", "lastName", "uiLanguage", "password", "active", "roleIds", "groupIds"];

const UserDrawer = (props: {
  user: User | null;
  roles: Ref[];
  groups: Ref[];
  onClose: () => void;
  onSaved: () => void;
}) => {
  const t = useT();
  const can = useCan();
  const me = useMe();
  const [form] = Form.useForm();
  const [saving, setSaving] = useState(false);
  const [banner, setBanner] = useState<string | null>(null);
  const { user } = props;
  const shape = user ? ZUpdateUserInput.shape : ZCreateUserInput.shape;

  const save = async () => {
    const values = await form.validateFields();
    setSaving(true);
    setBanner(null);
    try {
      if (user) {
        const { roleIds, groupIds, password, ...fields } = values as {
          roleIds: string[];
          groupIds?: string[];
          password?: string;
        } & Record<string, unknown>;
        // A typed password is the administrator's reset: the server ends the user's sessions.
        await api("PUT", `/users/${user.id}`, password ? { ...fields, password } : fields);
        const groupsBefore = user.groups.map((group) => group.id).sort();
        if (groupIds && groupIds.slice().sort().join() !== groupsBefore.join())
          await api("PUT", `/users/${user.id}/groups`, { groupIds });
        const before = new Set(user.roles.map((role) => role.id));
        const added = roleIds.filter((id) => !before.has(id));
        if (added.length > 0) await api("POST", `/users/${user.id}/roles`, { roleIds: added });
        for (const removed of [...before].filter((id) => !roleIds.includes(id)))
          await api("DELETE", `/users/${user.id}/roles/${removed}`);
      } else {
        const { password, ...rest } = values as { password?: string } & Record<string, unknown>;
        await api("POST", "/users", password ? { ...rest, password } : rest);
      }
      props.onSaved();
    } catch (caught) {
      setBanner(showServerError(form, caught, FIELDS));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Drawer
      open
      width={480}
      title={user ? t("users.editTitle") : t("users.new")}
      onClose={props.onClose}
      extra={
        <Space>
          <Button onClick={props.onClose}>{t("common.cancel")}</Button>
          <Button type="primary" loading={saving} onClick={save}>
            {user ? t("common.save") : t("common.create")}
          </Button>
        </Space>
      }
    >
      {banner && <Alert type="error" message={banner} style={{ marginBottom: 16 }} />}
      <Form
        form={form}
        layout="vertical"
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
            : { uiLanguage: "en", active: true, roleIds: [], groupIds: [] }
        }
      >
        <Form.Item name="email" label={t("users.email")} rules={[{ required: true }, zodRule(shape.email)]}>
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="firstName"
          label={t("users.firstName")}
          rules={[{ required: true }, zodRule(shape.firstName)]}
        >
          <Input />
        </Form.Item>
        <Form.Item
          name="lastName"
          label={t("users.lastName")}
          rules={[{ required: true }, zodRule(shape.lastName)]}
        >
          <Input />
        </Form.Item>
        <Form.Item name="uiLanguage" label={t("users.language")}>
          <Select options={LANGUAGES} />
        </Form.Item>
        {(!user || user.id !== me?.id) && (
          <Form.Item
            name="password"
            label={user ? t("users.setPassword") : t("users.password")}
            extra={user ? t("users.setPasswordHelp") : t("users.passwordHelp")}
            rules={[zodRule(ZCreateUserInput.shape.password.unwrap(), true)]}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
        )}
        <Form.Item name="active" label={t("common.active")} valuePropName="checked">
          <Switch />
        </Form.Item>
        {can("roles:read:all") && (
          <Form.Item name="roleIds" label={t("users.roles")}>
            <Select
              mode="multiple"
              options={props.roles.map((role) => ({ value: role.id, label: role.name }))}
            />
          </Form.Item>
        )}
        {can("groups:read:all") && (!user || can("groups:update:all")) && (
          <Form.Item name="groupIds" label={t("users.groups")}>
            <Select
              mode="multiple"
              options={props.groups.map((group) => ({ value: group.id, label: group.name }))}
            />
          </Form.Item>
        )}
      </Form>
    </Drawer>
  );
};
