import { ZCreateGroupInput } from "@hisob/core/schema";
import {
  Alert,
  App,
  Button,
  Drawer,
  Form,
  Input,
  Popconfirm,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from "antd";
import { useCallback, useEffect, useState } from "react";
import { api, type Page } from "../api";
import { showServerError, zodRule } from "../forms";
import { useT } from "../i18n";
import { useCan } from "../session";

type Member = { id: string; email: string; firstName: string; lastName: string };
type Group = {
  id: string;
  name: string;
  description: string;
  roles: Array<{ id: string; name: string }>;
  users: Member[];
};
type Option = { value: string; label: string };

/** Groups: a name, roles its members get, and members. */
export const GroupsPage = () => {
  const t = useT();
  const can = useCan();
  const { message } = App.useApp();
  const [groups, setGroups] = useState<Group[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState<Group | "new" | null>(null);
  const [roles, setRoles] = useState<Option[]>([]);

  const load = useCallback(() => {
    setError(null);
    api<Page<Group>>("GET", "/groups?limit=100").then(
      (page) => setGroups(page.items),
      (caught: unknown) => setError(caught instanceof Error ? caught.message : String(caught)),
    );
  }, []);
  useEffect(() => {
    load();
  }, [load]);
  useEffect(() => {
    if (can("roles:read:all"))
      api<Page<{ id: string; name: string }>>("GET", "/roles?limit=100&sortBy=name").then(
        (page) => setRoles(page.items.map((role) => ({ value: role.id, label: role.name }))),
        () => {},
      );
  }, [can]);

  const remove = async (group: Group) => {
    try {
      await api("DELETE", `/groups/${group.id}`);
      load();
    } catch (caught) {
      message.error(caught instanceof Error ? caught.message : String(caught));
    }
  };

  return (
    <Space direction="vertical" size="middle" style={{ width: "100%" }}>
      <Space style={{ width: "100%", justifyContent: "space-between" }}>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {t("groups.title")}
        </Typography.Title>
        {can("groups:create:all") && (
          <Button type="primary" onClick={() => setEditing("new")}>
            {t("groups.new")}
          </Button>
        )}
      </Space>
      {error && (
        <Alert type="error" message={error} action={<Button onClick={load}>{t("common.retry")}</Button>} />
      )}
      <Table<Group>
        rowKey="id"
        size="middle"
        loading={groups === null && !error}
        dataSource={groups ?? []}
        pagination={false}
        columns={[
          { title: t("common.name"), dataIndex: "name" },
          { title: t("common.description"), dataIndex: "description" },
          {
            title: t("users.roles"),
            render: (_, group) => group.roles.map((role) => <Tag key={role.id}>{role.name}</Tag>),
          },
          {
            title: t("groups.members"),
            render: (_, group) => group.users.map((user) => <Tag key={user.id}>{user.email}</Tag>),
          },
          {
            title: t("common.actions"),
            render: (_, group) => (
              <Space size={4}>
                {can("groups:update:all") && (
                  <Button size="small" onClick={() => setEditing(group)}>
                    {t("common.edit")}
                  </Button>
                )}
                {can("groups:delete:all") && (
                  <Popconfirm title={t("common.confirmDelete")} onConfirm={() => remove(group)}>
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
        <GroupDrawer
          group={editing === "new" ? null : editing}
          roles={roles}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            load();
          }}
        />
      )}
    </Space>
  );
};

const GroupDrawer = (props: {
  group: Group | null;
  roles: Option[];
  onClose: () => void;
  onSaved: () => void;
}) => {
  const t = useT();
  const [form] = Form.useForm();
  const [banner, setBanner] = useState<string | null>(null);
  const [userOptions, setUserOptions] = useState<Option[]>(
    (props.group?.users ?? []).map((user) => ({ value: user.id, label: user.email })),
  );
  const { group } = props;

  // Members are searched on the server (a tenant may have 100,000 users).
  const searchUsers = (text: string) => {
    api<Page<{ id: string; email: string }>>("GET", `/users?limit=20&email=${encodeURIComponent(text)}`).then(
      (page) => {
        const known = new Map(userOptions.map((option) => [option.value, option]));
        for (const user of page.items) known.set(user.id, { value: user.id, label: user.email });
        setUserOptions([...known.values()]);
      },
      () => {},
    );
  };

  const save = async () => {
    const values = (await form.validateFields()) as {
      name: string;
      description: string;
      roleIds: string[];
      userIds: string[];
    };
    try {
      if (group) {
        const { userIds, ...fields } = values;
        await api("PUT", `/groups/${group.id}`, fields);
        const before = new Set(group.users.map((user) => user.id));
        const added = userIds.filter((id) => !before.has(id));
        if (added.length > 0) await api("POST", `/groups/${group.id}/users`, { userIds: added });
        for (const removed of [...before].filter((id) => !userIds.includes(id)))
          await api("DELETE", `/groups/${group.id}/users/${removed}`);
      } else {
        await api("POST", "/groups", values);
      }
      props.onSaved();
    } catch (caught) {
      setBanner(showServerError(form, caught, ["name", "description", "roleIds", "userIds"]));
    }
  };

  return (
    <Drawer
      open
      width={480}
      title={group ? t("groups.editTitle") : t("groups.new")}
      onClose={props.onClose}
      extra={
        <Space>
          <Button onClick={props.onClose}>{t("common.cancel")}</Button>
          <Button type="primary" onClick={save}>
            {group ? t("common.save") : t("common.create")}
          </Button>
        </Space>
      }
    >
      {banner && <Alert type="error" message={banner} style={{ marginBottom: 16 }} />}
      <Form
        form={form}
        layout="vertical"
        initialValues={{
          name: group?.name ?? "",
          description: group?.description ?? "",
          roleIds: group?.roles.map((role) => role.id) ?? [],
          userIds: group?.users.map((user) => user.id) ?? [],
        }}
      >
        <Form.Item
          name="name"
          label={t("common.name")}
          rules={[{ required: true }, zodRule(ZCreateGroupInput.shape.name)]}
        >
          <Input />
        </Form.Item>
        <Form.Item name="description" label={t("common.description")}>
          <Input.TextArea rows={2} />
        </Form.Item>
        <Form.Item name="roleIds" label={t("users.roles")}>
          <Select mode="multiple" options={props.roles} />
        </Form.Item>
        <Form.Item name="userIds" label={t("groups.members")}>
          <Select
            mode="multiple"
            showSearch
            filterOption={false}
            onSearch={searchUsers}
            options={userOptions}
          />
        </Form.Item>
      </Form>
    </Drawer>
  );
};
