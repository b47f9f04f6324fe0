import { ZProvisionTenantInput, type ZSignInMethods, ZTenantFirstAdmin } from "@hisob/core/schema";
import { currencyName, ListPage, useListData, useLocale, usePaging } from "@hisob/ui";
import { useFormSave, useSchemaRule } from "@hisob/ui/forms";
import { Button, Divider, Form, Input, Popconfirm, Select, Space, Table, Tag, Typography } from "antd";
import { useCallback, useEffect, useState } from "react";
import type { z } from "zod";
import { call, type ItemOf, type OutputOf, ownApi } from "../api";
import { useFormatDate, useT } from "../i18n";
import { EditorModal, NewButton, RowActions, StatusTag } from "../list-screen-parts";
import { useCan } from "../session";

type Tenant = ItemOf<"tenants.list">;
type Currency = OutputOf<"currencies.all">[number];
type Values = {
  name: string;
  domain?: string;
  currencies?: string[];
  admin?: { email?: string; firstName?: string; lastName?: string; password?: string };
};

/** Organizations (platform administrators): create, rename, activate/deactivate. */
export const TenantsPage = () => {
  const t = useT();
  const can = useCan();
  const formatDate = useFormatDate();
  const paging = usePaging(20);
  const fetchTenants = useCallback(
    () => call("tenants.list", { limit: paging.limit, offset: paging.offset }),
    [paging.limit, paging.offset],
  );
  const { data, error, load, act, loading } = useListData(fetchTenants);
  const [editing, setEditing] = useState<Tenant | "new" | null>(null);
  const [currencies, setCurrencies] = useState<Currency[]>([]);
  useEffect(() => {
    call("currencies.all").then(setCurrencies, () => {});
  }, []);

  return (
    <ListPage
      title={t("tenants.title")}
      error={error}
      onRetry={load}
      action={
        <NewButton permission="tenants:create:all" onClick={() => setEditing("new")}>
          {t("tenants.new")}
        </NewButton>
      }
    >
      <Table<Tenant>
        rowKey="id"
        size="middle"
        loading={loading}
        dataSource={data?.items ?? []}
        pagination={paging.pagination(data?.total ?? 0, (total) => t("common.total", { count: total }))}
        onChange={paging.change}
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
          { title: t("users.status"), render: (_, tenant) => <StatusTag active={tenant.active} /> },
          {
            title: t("common.createdAt"),
            dataIndex: "createdAt",
            render: (value: string) => formatDate(value),
          },
          {
            title: t("common.actions"),
            render: (_, tenant) =>
              can("tenants:update:all") && (
                <RowActions onEdit={() => setEditing(tenant)}>
                  {!tenant.isPlatform &&
                    (tenant.active ? (
                      // Deactivating ends every session of the organization at once: ask first.
                      <Popconfirm
                        title={t("users.deactivate")}
                        description={t("tenants.deactivateConfirm", { name: tenant.name })}
                        okButtonProps={{ danger: true }}
                        styles={{ root: { maxWidth: 400 } }}
                        onConfirm={() =>
                          act(() => call("tenants.update", { id: tenant.id, data: { active: false } }))
                        }
                      >
                        <Button size="small" danger>
                          {t("users.deactivate")}
                        </Button>
                      </Popconfirm>
                    ) : (
                      <Button
                        size="small"
                        onClick={() =>
                          act(() => call("tenants.update", { id: tenant.id, data: { active: true } }))
                        }
                      >
                        {t("users.activate")}
                      </Button>
                    ))}
                </RowActions>
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
    </ListPage>
  );
};

const TenantModal = (props: {
  tenant: Tenant | null;
  currencies: Currency[];
  onClose: () => void;
  onSaved: () => void;
}) => {
  const t = useT();
  const rule = useSchemaRule();
  const language = useLocale();
  const [form] = Form.useForm();
  const adminEmail = Form.useWatch(["admin", "email"], form) as string | undefined;
  const adminRequired = Boolean(adminEmail?.trim());
  const { tenant } = props;
  // An invited administrator (no password) can sign in only through an upstream provider: the help
  // says so only when one is configured.
  const [upstream, setUpstream] = useState<string | null>(null);
  useEffect(() => {
    if (tenant) return;
    let live = true;
    ownApi<z.output<typeof ZSignInMethods>>("GET", "/auth/methods").then(
      (methods) => live && setUpstream(methods.external?.name ?? null),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [tenant]);
  const { save, saving, banner } = useFormSave<Values>(
    form,
    ["name", "domain", "currencies", "admin"],
    async (values) => {
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
      if (tenant)
        await call("tenants.update", { id: tenant.id, data: { name: values.name, domain: domain ?? null } });
      else
        await call("tenants.create", {
          name: values.name,
          currencies: values.currencies,
          ...(domain ? { domain } : {}),
          ...(admin ? { admin } : {}),
        });
      props.onSaved();
    },
  );
  const adminName = (field: "firstName" | "lastName") =>
    adminRequired ? [rule(ZTenantFirstAdmin.shape[field])] : [];
  return (
    <EditorModal
      title={tenant ? t("common.edit") : t("tenants.new")}
      isNew={!tenant}
      saving={saving}
      banner={banner}
      onClose={props.onClose}
      onSave={save}
      form={form}
      initialValues={{ name: tenant?.name ?? "", domain: tenant?.domain ?? "", currencies: ["UZS"] }}
    >
      <Form.Item
        name="name"
        label={t("common.name")}
        required
        rules={[rule(ZProvisionTenantInput.shape.name)]}
      >
        <Input />
      </Form.Item>
      <Form.Item
        name="domain"
        label={t("tenants.domain")}
        rules={[rule(ZProvisionTenantInput.shape.domain, { optional: true })]}
      >
        <Input placeholder="acme.uz" />
      </Form.Item>
      {!tenant && (
        <Form.Item
          name="currencies"
          label={t("tenants.currencies")}
          required
          rules={[rule(ZProvisionTenantInput.shape.currencies.unwrap())]}
        >
          <Select
            mode="multiple"
            options={props.currencies.map((c) => ({
              value: c.code,
              label: `${c.code} — ${currencyName(c.code, language, c.name)}`,
            }))}
          />
        </Form.Item>
      )}
      {!tenant && (
        <>
          <Divider titlePlacement="start" plain style={{ margin: "8px 0" }}>
            {t("tenants.firstAdmin")}
          </Divider>
          <Typography.Paragraph type="secondary" style={{ marginTop: 0 }} data-testid="first-admin-help">
            {upstream
              ? t("tenants.firstAdminHelpUpstream", { provider: upstream })
              : t("tenants.firstAdminHelp")}
          </Typography.Paragraph>
          <Form.Item
            name={["admin", "email"]}
            label={t("users.email")}
            rules={[rule(ZTenantFirstAdmin.shape.email, { optional: true })]}
          >
            <Input type="email" autoComplete="off" />
          </Form.Item>
          <Space.Compact block style={{ gap: 12 }}>
            <Form.Item
              name={["admin", "firstName"]}
              label={t("users.firstName")}
              style={{ flex: 1 }}
              required={adminRequired}
              rules={adminName("firstName")}
            >
              <Input />
            </Form.Item>
            <Form.Item
              name={["admin", "lastName"]}
              label={t("users.lastName")}
              style={{ flex: 1 }}
              required={adminRequired}
              rules={adminName("lastName")}
            >
              <Input />
            </Form.Item>
          </Space.Compact>
          <Form.Item
            name={["admin", "password"]}
            label={t("users.password")}
            extra={t("tenants.adminPasswordHelp")}
            rules={[rule(ZTenantFirstAdmin.shape.password.unwrap(), { optional: true })]}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
        </>
      )}
    </EditorModal>
  );
};
