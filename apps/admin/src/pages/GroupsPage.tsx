import { ZCreateGroupInput } from "@hisob/core/schema";
import { ListPage, useListData } from "@hisob/ui";
import { useFormSave, useSchemaRule } from "@hisob/ui/forms";
import { Form, Input, Select, Table, Tag } from "antd";
import { useCallback, useState } from "react";
import { call, type ItemOf } from "../api";
import { useT } from "../i18n";
import {
  EditorDrawer,
  NewButton,
  options,
  type Ref,
  RowActions,
  syncIds,
  useRefs,
} from "../list-screen-parts";
import { useCan } from "../session";

type Group = ItemOf<"groups.list">;
type Option = { value: string; label: string };
type Values = { name: string; description: string; roleIds: string[]; userIds: string[] };

/** Groups: a name, roles its members get, and members. */
export const GroupsPage = () => {
  const t = useT();
  const can = useCan();
  const fetchGroups = useCallback(() => call("groups.list", { limit: 100 }), []);
  const { data, error, load, act, loading } = useListData(fetchGroups);
  const [editing, setEditing] = useState<Group | "new" | null>(null);
  const roles = useRefs("roles:read:all", "roles");

  return (
    <ListPage
      title={t("groups.title")}
      error={error}
      onRetry={load}
      action={
        <NewButton permission="groups:create:all" onClick={() => setEditing("new")}>
          {t("groups.new")}
        </NewButton>
      }
    >
      <Table<Group>
        rowKey="id"
        size="middle"
        loading={loading}
        dataSource={data?.items ?? []}
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
              <RowActions
                {...(can("groups:update:all") ? { onEdit: () => setEditing(group) } : {})}
                {...(can("groups:delete:all")
                  ? { onDelete: () => act(() => call("groups.delete", { id: group.id })) }
                  : {})}
              />
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
    </ListPage>
  );
};

const GroupDrawer = (props: {
  group: Group | null;
  roles: Ref[];
  onClose: () => void;
  onSaved: () => void;
}) => {
  const t = useT();
  const rule = useSchemaRule();
  const [form] = Form.useForm();
  const [userOptions, setUserOptions] = useState<Option[]>(
    (props.group?.users ?? []).map((user) => ({ value: user.id, label: user.email })),
  );
  const { group } = props;

  // Members are searched on the server (a tenant may have 100,000 users).
  const searchUsers = (text: string) => {
    call("users.list", { limit: 20, email: text }).then(
      (page) => {
        const known = new Map(userOptions.map((option) => [option.value, option]));
        for (const user of page.items) known.set(user.id, { value: user.id, label: user.email });
        setUserOptions([...known.values()]);
      },
      () => {},
    );
  };

  const { save, saving, banner } = useFormSave<Values>(
    form,
    ["name", "description", "roleIds", "userIds"],
    async (values) => {
      if (group) {
        const { userIds, ...fields } = values;
        await call("groups.update", { id: group.id, data: fields });
        await syncIds(
          group.users.map((user) => user.id),
          userIds,
          (added) => call("groups.addUsers", { id: group.id, data: { userIds: added } }),
          (removed) => call("groups.removeUser", { id: group.id, uid: removed }),
        );
      } else {
        await call("groups.create", values);
      }
      props.onSaved();
    },
  );

  return (
    <EditorDrawer
      title={group ? t("groups.editTitle") : t("groups.new")}
      isNew={!group}
      saving={saving}
      banner={banner}
      onClose={props.onClose}
      onSave={save}
      form={form}
      initialValues={{
        name: group?.name ?? "",
        description: group?.description ?? "",
        roleIds: group?.roles.map((role) => role.id) ?? [],
        userIds: group?.users.map((user) => user.id) ?? [],
      }}
    >
      <Form.Item name="name" label={t("common.name")} required rules={[rule(ZCreateGroupInput.shape.name)]}>
        <Input />
      </Form.Item>
      <Form.Item
        name="description"
        label={t("common.description")}
        rules={[rule(ZCreateGroupInput.shape.description, { optional: true })]}
      >
        <Input.TextArea rows={2} />
      </Form.Item>
      <Form.Item name="roleIds" label={t("users.roles")}>
        <Select mode="multiple" options={options(props.roles)} />
      </Form.Item>
      <Form.Item name="userIds" label={t("groups.members")}>
        <Select
          mode="multiple"
          showSearch={{ filterOption: false, onSearch: searchUsers }}
          options={userOptions}
        />
      </Form.Item>
    </EditorDrawer>
  );
};
