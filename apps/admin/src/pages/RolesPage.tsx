import { ZCreateRoleInput } from "@hisob/core/schema";
import { ListPage, useListData, useLocale } from "@hisob/ui";
import { useFormSave, useSchemaRule } from "@hisob/ui/forms";
import {
  App,
  Button,
  Card,
  Checkbox,
  Col,
  Form,
  Input,
  List,
  Popconfirm,
  Row,
  Space,
  Table,
  Tag,
  Typography,
} from "antd";
import { useCallback, useEffect, useMemo, useState } from "react";
import { call, type OutputOf } from "../api";
import { ACTION_LABELS, type Language, MODULE_LABELS, RESOURCE_LABELS, useT } from "../i18n";
import { EditorModal, NewButton } from "../list-screen-parts";
import { useCan } from "../session";

type Permission = OutputOf<"roles.grantable">[number];

const ADMIN = "admin";
const EMPTY: Permission[] = [];
const label = (table: Record<Language, Record<string, string>>, language: Language, key: string) =>
  table[language][key] ?? key.replace(/_/g, " ");

/** Permissions grouped by module, then resource: rows of the matrix, in a stable (name) order. */
const matrixOf = (permissions: Permission[]) => {
  const modules = new Map<string, Map<string, Permission[]>>();
  for (const permission of [...permissions].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const resources = modules.get(permission.module) ?? new Map<string, Permission[]>();
    resources.set(permission.resource, [...(resources.get(permission.resource) ?? []), permission]);
    modules.set(permission.module, resources);
  }
  return [...modules.entries()].sort(([a], [b]) => (a === "core" ? -1 : b === "core" ? 1 : a < b ? -1 : 1));
};

export const RolesPage = () => {
  const t = useT();
  const can = useCan();
  const language = useLocale();
  const { message } = App.useApp();
  const fetchRoles = useCallback(
    () =>
      Promise.all([call("roles.list", { limit: 100, sortBy: "name" }), call("roles.grantable")]).then(
        ([page, permissions]) => ({ roles: page.items, permissions }),
      ),
    [],
  );
  const { data, error, load, act, loading } = useListData(fetchRoles);
  const roles = data?.roles ?? [];
  const permissions = data?.permissions ?? EMPTY;
  const [chosen, setSelected] = useState<string | null>(null);
  const selected = chosen ?? roles[0]?.id ?? null;
  const [draft, setDraft] = useState<Set<string>>(new Set());
  const [creating, setCreating] = useState(false);

  const role = roles.find((candidate) => candidate.id === selected) ?? null;
  useEffect(() => setDraft(new Set(role?.permissions ?? [])), [role]);
  const readOnly = !role || role.name === ADMIN || !can("roles:update:all");
  // Columns in a stable order: the usual verbs first, then any a module adds (alphabetically).
  const actions = useMemo(() => {
    const usual = ["read", "create", "update", "delete"];
    const rest = [...new Set(permissions.map((p) => p.action))].filter((a) => !usual.includes(a)).sort();
    return [...usual, ...rest];
  }, [permissions]);
  const matrix = useMemo(() => matrixOf(permissions), [permissions]);

  const toggle = (name: string, checked: boolean) => {
    const next = new Set(draft);
    if (checked) next.add(name);
    else next.delete(name);
    setDraft(next);
  };
  const savePermissions = async () => {
    if (!role) return;
    if (await act(() => call("roles.update", { id: role.id, data: { permissions: [...draft].sort() } })))
      message.success(t("roles.saved"));
  };
  const remove = async () => {
    if (!role) return;
    if (await act(() => call("roles.delete", { id: role.id }))) setSelected(null);
  };

  return (
    <ListPage
      title={t("roles.title")}
      error={error}
      onRetry={load}
      action={
        <NewButton permission="roles:create:all" onClick={() => setCreating(true)}>
          {t("roles.new")}
        </NewButton>
      }
    >
      <Row gutter={16} wrap={false}>
        <Col flex="260px">
          <Card size="small">
            <List
              loading={loading}
              dataSource={roles}
              renderItem={(item) => (
                <List.Item
                  onClick={() => setSelected(item.id)}
                  style={{
                    cursor: "pointer",
                    background: item.id === selected ? "#e6f4ef" : undefined,
                    padding: "8px 12px",
                  }}
                >
                  {/* Not List.Item.Meta: its title is an h4, out of the page's heading order. */}
                  <div>
                    <Button type="link" style={{ padding: 0 }} onClick={() => setSelected(item.id)}>
                      {item.name}
                    </Button>
                    <Typography.Text type="secondary" style={{ display: "block" }}>
                      {t("roles.count", { count: item.permissions.length })}
                    </Typography.Text>
                  </div>
                </List.Item>
              )}
            />
          </Card>
        </Col>
        <Col flex="auto">
          {role && (
            <Card
              title={
                <Space>
                  {role.name}
                  {role.name === ADMIN && <Tag color="gold">{t("roles.builtin")}</Tag>}
                </Space>
              }
              extra={
                <Space>
                  {!readOnly && (
                    <Button type="primary" onClick={savePermissions}>
                      {t("roles.savePermissions")}
                    </Button>
                  )}
                  {role.name !== ADMIN && can("roles:delete:all") && (
                    <Popconfirm title={t("common.confirmDelete")} onConfirm={remove}>
                      <Button danger>{t("common.delete")}</Button>
                    </Popconfirm>
                  )}
                </Space>
              }
            >
              {matrix.map(([module, resources]) => (
                <div key={module} style={{ marginBottom: 24 }}>
                  <Typography.Title level={2} style={{ fontSize: 16 }}>
                    {label(MODULE_LABELS, language, module)}
                  </Typography.Title>
                  <Table
                    size="small"
                    pagination={false}
                    rowKey={([resource]) => resource}
                    dataSource={[...resources.entries()]}
                    columns={[
                      {
                        title: t("roles.resource"),
                        width: 200,
                        render: (_, [resource, items]) => (
                          <span title={items[0]?.description}>
                            {label(RESOURCE_LABELS, language, resource)}
                          </span>
                        ),
                      },
                      ...actions
                        .filter((action) => [...resources.values()].flat().some((p) => p.action === action))
                        .map((action) => ({
                          title: label(ACTION_LABELS, language, action),
                          key: action,
                          render: (_: unknown, [, items]: [string, Permission[]]) => (
                            <Space size={2} wrap>
                              {items
                                .filter((p) => p.action === action)
                                .sort((a, b) => (a.modifier < b.modifier ? -1 : 1))
                                .map((p) => (
                                  <Checkbox
                                    key={p.name}
                                    aria-label={p.name}
                                    data-permission={p.name}
                                    disabled={readOnly}
                                    checked={role.name === ADMIN || draft.has(p.name)}
                                    onChange={(event) => toggle(p.name, event.target.checked)}
                                  >
                                    {p.modifier === "all" ? t("roles.scopeAll") : t("roles.scopeOwn")}
                                  </Checkbox>
                                ))}
                            </Space>
                          ),
                        })),
                    ]}
                  />
                </div>
              ))}
            </Card>
          )}
        </Col>
      </Row>
      {creating && (
        <CreateRoleModal
          onClose={() => setCreating(false)}
          onCreated={(id) => {
            setCreating(false);
            setSelected(id);
            load();
          }}
        />
      )}
    </ListPage>
  );
};

const CreateRoleModal = (props: { onClose: () => void; onCreated: (id: string) => void }) => {
  const t = useT();
  const rule = useSchemaRule();
  const [form] = Form.useForm();
  const { save, saving, banner } = useFormSave<{ name: string; description?: string }>(
    form,
    ["name", "description"],
    async (values) => props.onCreated((await call("roles.create", values)).id),
  );
  return (
    <EditorModal
      title={t("roles.new")}
      isNew
      saving={saving}
      banner={banner}
      onClose={props.onClose}
      onSave={save}
      form={form}
    >
      <Form.Item name="name" label={t("common.name")} required rules={[rule(ZCreateRoleInput.shape.name)]}>
        <Input />
      </Form.Item>
      <Form.Item
        name="description"
        label={t("common.description")}
        rules={[rule(ZCreateRoleInput.shape.description, { optional: true })]}
      >
        <Input.TextArea rows={2} />
      </Form.Item>
    </EditorModal>
  );
};
