import { ZCreateRoleInput } from "@hisob/core/schema";
import {
  Alert,
  App,
  Button,
  Card,
  Checkbox,
  Col,
  Form,
  Input,
  List,
  Modal,
  Popconfirm,
  Row,
  Space,
  Table,
  Tag,
  Typography,
} from "antd";
import { useCallback, useContext, useEffect, useMemo, useState } from "react";
import { api, type Page } from "../api";
import { showServerError, zodRule } from "../forms";
import { ACTION_LABELS, type Language, LanguageContext, MODULE_LABELS, RESOURCE_LABELS, useT } from "../i18n";
import { useCan } from "../session";

type Role = { id: string; name: string; description: string; permissions: string[] };
type Permission = {
  name: string;
  module: string;
  resource: string;
  action: string;
  modifier: "all" | "own";
  description: string;
};

const ADMIN = "admin";
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
  const language = useContext(LanguageContext);
  const { message } = App.useApp();
  const [roles, setRoles] = useState<Role[]>([]);
  const [permissions, setPermissions] = useState<Permission[]>([]);
  const [selected, setSelected] = useState<string | null>(null);
  const [draft, setDraft] = useState<Set<string>>(new Set());
  const [error, setError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [loading, setLoading] = useState(true);

  const load = useCallback(async () => {
    setError(null);
    setLoading(true);
    try {
      const [page, all] = await Promise.all([
        api<Page<Role>>("GET", "/roles?limit=100&sortBy=name"),
        api<Permission[]>("GET", "/permissions"),
      ]);
      setRoles(page.items);
      setPermissions(all);
      setSelected((current) => current ?? page.items[0]?.id ?? null);
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    } finally {
      setLoading(false);
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

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
    try {
      await api("PUT", `/roles/${role.id}`, { permissions: [...draft].sort() });
      message.success(t("roles.saved"));
      await load();
    } catch (caught) {
      message.error(caught instanceof Error ? caught.message : String(caught));
    }
  };
  const remove = async () => {
    if (!role) return;
    try {
      await api("DELETE", `/roles/${role.id}`);
      setSelected(null);
      await load();
    } catch (caught) {
      message.error(caught instanceof Error ? caught.message : String(caught));
    }
  };

  return (
    <Space direction="vertical" size="middle" style={{ width: "100%" }}>
      <Space style={{ width: "100%", justifyContent: "space-between" }}>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {t("roles.title")}
        </Typography.Title>
        {can("roles:create:all") && (
          <Button type="primary" onClick={() => setCreating(true)}>
            {t("roles.new")}
          </Button>
        )}
      </Space>
      {error && <Alert type="error" message={error} />}
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
                  <List.Item.Meta
                    title={
                      <Button type="link" style={{ padding: 0 }} onClick={() => setSelected(item.id)}>
                        {item.name}
                      </Button>
                    }
                    description={t("roles.count", { count: item.permissions.length })}
                  />
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
                  <Typography.Title level={5}>{label(MODULE_LABELS, language, module)}</Typography.Title>
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
          onCreated={async (id) => {
            setCreating(false);
            await load();
            setSelected(id);
          }}
        />
      )}
    </Space>
  );
};

const CreateRoleModal = (props: { onClose: () => void; onCreated: (id: string) => void }) => {
  const t = useT();
  const [form] = Form.useForm();
  const [banner, setBanner] = useState<string | null>(null);
  const submit = async () => {
    const values = await form.validateFields();
    try {
      const role = await api<Role>("POST", "/roles", values);
      props.onCreated(role.id);
    } catch (caught) {
      setBanner(showServerError(form, caught, ["name", "description"]));
    }
  };
  return (
    <Modal open title={t("roles.new")} onCancel={props.onClose} onOk={submit} okText={t("common.create")}>
      {banner && <Alert type="error" message={banner} style={{ marginBottom: 16 }} />}
      <Form form={form} layout="vertical">
        <Form.Item
          name="name"
          label={t("common.name")}
          rules={[{ required: true }, zodRule(ZCreateRoleInput.shape.name)]}
        >
          <Input />
        </Form.Item>
        <Form.Item name="description" label={t("common.description")}>
          <Input.TextArea rows={2} />
        </Form.Item>
      </Form>
    </Modal>
  );
};
