import { ZProvisionTenantInput, ZTenantFirstAdmin } from "@hisob/core/schema";
import { Alert, App, Button, Divider, Form, Input, Modal, Select, Space, Table, Tag, Typography } from "antd";
import { useCallback, useContext, useEffect, useState } from "react";
import { api, type Page } from "../api";
import { showServerError, zodRule } from "../forms";
import { LanguageContext, useFormatDate, useT } from "../i18n";
import { useCan } from "../session";

type Tenant = {
  id: string;
  name: string;
  domain: string | null;
  active: boolean;
  isPlatform: boolean;
  createdAt: string;
};
type Currency = { code: string; name: string; active: boolean };

/** Organizations (platform administrators): create, rename, activate/deactivate. */
export const TenantsPage = () => {
  const t = useT();
  const can = useCan();
  const formatDate = useFormatDate();
  const { message } = App.useApp();
  const [data, setData] = useState<Page<Tenant> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pageState, setPageState] = useState({ current: 1, pageSize: 20 });
  const [editing, setEditing] = useState<Tenant | "new" | null>(null);
  const [currencies, setCurrencies] = useState<Currency[]>([]);

  const load = useCallback(() => {
    setError(null);
    api<Page<Tenant>>(
      "GET",
      `/tenants?limit=${pageState.pageSize}&offset=${(pageState.current - 1) * pageState.pageSize}`,
    ).then(setData, (caught: unknown) => setError(caught instanceof Error ? caught.message : String(caught)));
  }, [pageState]);
  useEffect(() => {
    load();
  }, [load]);
  useEffect(() => {
    api<Currency[]>("GET", "/currencies").then(setCurrencies, () => {});
  }, []);

  const setActive = async (tenant: Tenant, active: boolean) => {
    try {
      await api("PUT", `/tenants/${tenant.id}`, { active });
      load();
    } catch (caught) {
      message.error(caught instanceof Error ? caught.message : String(caught));
    }
  };

  return (
    <Space direction="vertical" size="middle" style={{ width: "100%" }}>
      <Space style={{ width: "100%", justifyContent: "space-between" }}>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {t("tenants.title")}
        </Typography.Title>
        {can("tenants:create:all") && (
          <Button type="primary" onClick={() => setEditing("new")}>
            {t("tenants.new")}
          </Button>
        )}
      </Space>
      {error && (
        <Alert type="error" message={error} action={<Button onClick={load}>{t("common.retry")}</Button>} />
      )}
      <Table<Tenant>
        rowKey="id"
        size="middle"
        loading={data === null && !error}
        dataSource={data?.items ?? []}
        pagination={{
          current: pageState.current,
          pageSize: pageState.pageSize,
          total: data?.total ?? 0,
          showTotal: (total) => t("common.total", { count: total }),
        }}
        onChange={(pagination) =>
          setPageState({ current: pagination.current ?? 1, pageSize: pagination.pageSize ?? 20 })
        }
        columns={[
          {
            title: t("common.name"),
            render: (_, tenant) => (
              <Space>
                {tenant.name}
                {tenant.isPlatform && <Tag color="purple">{t("tenants.platform")}</Tag>}
              </Space>
            ),
          },
          {
            title: t("tenants.domain"),
            dataIndex: "domain",
            render: (domain: string | null) => domain ?? "—",
          },
          {
            title: t("users.status"),
            render: (_, tenant) =>
              tenant.active ? (
                <Tag color="green">{t("common.active")}</Tag>
              ) : (
                <Tag>{t("common.inactive")}</Tag>
              ),
          },
          {
            title: t("common.createdAt"),
            dataIndex: "createdAt",
            render: (value: string) => formatDate(value),
          },
          {
            title: t("common.actions"),
            render: (_, tenant) =>
              can("tenants:update:all") && (
                <Space size={4}>
                  <Button size="small" onClick={() => setEditing(tenant)}>
                    {t("common.edit")}
                  </Button>
                  {!tenant.isPlatform && (
                    <Button
                      size="small"
                      danger={tenant.active}
                      onClick={() => setActive(tenant, !tenant.active)}
                    >
                      {tenant.active ? t("users.deactivate") : t("users.activate")}
                    </Button>
                  )}
                </Space>
              ),
          },
        ]}
      />
      {editing && (
        <TenantModal
          tenant={editing === "new" ? null : editing}
          currencies={currencies.filter((currency) => currency.active)}
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

const TenantModal = (props: {
  tenant: Tenant | null;
  currencies: Currency[];
  onClose: () => void;
  onSaved: () => void;
}) => {
  const t = useT();
  const language = useContext(LanguageContext);
  const [form] = Form.useForm();
  const adminEmail = Form.useWatch(["admin", "email"], form) as string | undefined;
  const adminRequired = Boolean(adminEmail?.trim());
  const [banner, setBanner] = useState<string | null>(null);
  const { tenant } = props;
  const save = async () => {
    // A field error is shown beside the field; nothing more to do until it is fixed.
    const values = (await form.validateFields().catch(() => null)) as {
      name: string;
      domain?: string;
      currencies?: string[];
      admin?: { email?: string; firstName?: string; lastName?: string; password?: string };
    } | null;
    if (!values) return;
    const domain = values.domain?.trim() ? values.domain.trim() : undefined;
    const admin = values.admin?.email?.trim()
      ? {
          email: values.admin.email.trim(),
          firstName: values.admin.firstName ?? "",
          lastName: values.admin.lastName ?? "",
          uiLanguage: language,
          ...(values.admin.password ? { password: values.admin.password } : {}),
        }
      : undefined;
    try {
      if (tenant) await api("PUT", `/tenants/${tenant.id}`, { name: values.name, domain: domain ?? null });
      else
        await api("POST", "/tenants", {
          name: values.name,
          currencies: values.currencies,
          ...(domain ? { domain } : {}),
          ...(admin ? { admin } : {}),
        });
      props.onSaved();
    } catch (caught) {
      setBanner(showServerError(form, caught, ["name", "domain", "currencies", "admin"]));
    }
  };
  return (
    <Modal
      open
      title={tenant ? t("common.edit") : t("tenants.new")}
      onCancel={props.onClose}
      onOk={save}
      okText={t("common.save")}
    >
      {banner && <Alert type="error" message={banner} style={{ marginBottom: 16 }} />}
      <Form
        form={form}
        layout="vertical"
        initialValues={{ name: tenant?.name ?? "", domain: tenant?.domain ?? "", currencies: ["UZS"] }}
      >
        <Form.Item
          name="name"
          label={t("common.name")}
          rules={[{ required: true }, zodRule(ZProvisionTenantInput.shape.name)]}
        >
          <Input />
        </Form.Item>
        <Form.Item
          name="domain"
          label={t("tenants.domain")}
          rules={[zodRule(ZProvisionTenantInput.shape.domain, true)]}
        >
          <Input placeholder="acme.uz" />
        </Form.Item>
        {!tenant && (
          <Form.Item name="currencies" label={t("tenants.currencies")} rules={[{ required: true }]}>
            <Select
              mode="multiple"
              options={props.currencies.map((c) => ({ value: c.code, label: `${c.code} — ${c.name}` }))}
            />
          </Form.Item>
        )}
        {!tenant && (
          <>
            <Divider titlePlacement="start" plain style={{ margin: "8px 0" }}>
              {t("tenants.firstAdmin")}
            </Divider>
            <Typography.Paragraph type="secondary" style={{ marginTop: 0 }}>
              {t("tenants.firstAdminHelp")}
            </Typography.Paragraph>
            <Form.Item
              name={["admin", "email"]}
              label={t("users.email")}
              rules={[zodRule(ZTenantFirstAdmin.shape.email, true)]}
            >
              <Input type="email" autoComplete="off" />
            </Form.Item>
            <Space.Compact block style={{ gap: 12 }}>
              <Form.Item
                name={["admin", "firstName"]}
                label={t("users.firstName")}
                style={{ flex: 1 }}
                rules={
                  adminRequired ? [{ required: true }, zodRule(ZTenantFirstAdmin.shape.firstName, true)] : []
                }
              >
                <Input />
              </Form.Item>
              <Form.Item
                name={["admin", "lastName"]}
                label={t("users.lastName")}
                style={{ flex: 1 }}
                rules={
                  adminRequired ? [{ required: true }, zodRule(ZTenantFirstAdmin.shape.lastName, true)] : []
                }
              >
                <Input />
              </Form.Item>
            </Space.Compact>
            <Form.Item
              name={["admin", "password"]}
              label={t("users.password")}
              extra={t("tenants.adminPasswordHelp")}
              rules={[zodRule(ZTenantFirstAdmin.shape.password.unwrap(), true)]}
            >
              <Input.Password autoComplete="new-password" />
            </Form.Item>
          </>
        )}
      </Form>
    </Modal>
  );
};
