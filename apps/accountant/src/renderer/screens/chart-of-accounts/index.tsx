import {
  ApartmentOutlined,
  CheckCircleOutlined,
  DeleteOutlined,
  EditOutlined,
  PlusOutlined,
  StopOutlined,
} from "@ant-design/icons";
import type { TGlAccountDto } from "@hisob/finance/schema";
import { describeFailure, QueryState, useLocale } from "@hisob/ui";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { App as AntApp, Button, Input, Popconfirm, Space, Table, Tabs, Tag, Tooltip, Typography } from "antd";
import { type ReactNode, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useApi } from "../../api-context";
import { type AccountEdit, AccountForm } from "./account-form";
import { MappingsTab } from "./mappings-tab";
import { MoveForm } from "./move-form";
import { GL_ACCOUNTS_KEY, useGlAccounts } from "./queries";
import { Refusal } from "./refusal";
import { TemplateChoice } from "./template-choice";
import { type GlNode, parentIds, toGlTree } from "./tree";

/**
 * The chart of accounts (docs/decisions/0102-chart-of-accounts-screen.md): the tree with its codes,
 * names in the user's language, types, currencies and states; search, expand and collapse; new
 * accounts and sub-accounts, edits, deactivation and deletion through the server's operations, whose
 * refusals are shown as it words them; the template while nothing is posted; and the mappings.
 */
export const ChartOfAccountsScreen = () => {
  const { t } = useTranslation();
  return (
    <Space orientation="vertical" size="middle" style={{ width: "100%" }}>
      <Typography.Title level={2} style={{ margin: 0 }}>
        {t("chart.title")}
      </Typography.Title>
      <Tabs
        destroyOnHidden
        items={[
          { key: "accounts", label: t("chart.tabAccounts"), children: <AccountsTab /> },
          { key: "mappings", label: t("chart.tabMappings"), children: <MappingsTab /> },
        ]}
      />
    </Space>
  );
};

/** A row's action: an icon button whose name (and tooltip) says what it does. */
const RowAction = ({
  label,
  icon,
  testId,
  ...rest
}: {
  label: string;
  icon: ReactNode;
  testId: string;
  disabled?: boolean;
  loading?: boolean;
  danger?: boolean;
  onClick?: () => void;
}) => (
  <Tooltip title={label}>
    <Button size="small" type="text" icon={icon} aria-label={label} data-testid={testId} {...rest} />
  </Tooltip>
);

const AccountsTab = () => {
  const { t } = useTranslation();
  const locale = useLocale();
  const api = useApi();
  const queryClient = useQueryClient();
  const { message } = AntApp.useApp();
  const accounts = useGlAccounts();
  const [search, setSearch] = useState("");
  const [edit, setEdit] = useState<AccountEdit | null>(null);
  const [moving, setMoving] = useState<GlNode | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Which parents are collapsed (all are open at first, and every one on the way to a search's match).
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const tree = useMemo(() => toGlTree(accounts.data ?? [], locale, search), [accounts.data, locale, search]);
  const parents = useMemo(() => parentIds(tree), [tree]);
  const expanded = search.trim() ? parents : parents.filter((id) => !collapsed.has(id));

  const done = (text: string) => {
    setError(null);
    void message.success(text);
    return queryClient.invalidateQueries({ queryKey: GL_ACCOUNTS_KEY });
  };
  // The server's refusals (lines posted, sub-accounts, a default of the postings) stay on the screen.
  const refused = (failure: unknown) => setError(describeFailure(failure, t).message);
  const remove = useMutation({
    mutationFn: (id: string) => api.generalLedger.deleteAccount.mutate({ id }),
    onSuccess: () => done(t("chart.deleted")),
    onError: refused,
  });
  const toggle = useMutation({
    mutationFn: (account: TGlAccountDto) =>
      api.generalLedger.updateAccount.mutate({ id: account.id, data: { isActive: !account.isActive } }),
    onSuccess: () => done(t("chart.saved")),
    onError: refused,
  });

  return (
    <QueryState query={accounts}>
      {(all) => (
        <Space orientation="vertical" size="middle" style={{ width: "100%" }}>
          {all.some((account) => account.hasEntries) ? null : <TemplateChoice accounts={all} />}
          <Space wrap>
            <Input.Search
              allowClear
              data-testid="chart-search"
              aria-label={t("chart.search")}
              placeholder={t("chart.search")}
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              style={{ width: 320 }}
            />
            <Button onClick={() => setCollapsed(new Set())} data-testid="chart-expand">
              {t("chart.expandAll")}
            </Button>
            <Button onClick={() => setCollapsed(new Set(parents))} data-testid="chart-collapse">
              {t("chart.collapseAll")}
            </Button>
            <Button
              type="primary"
              data-testid="chart-new"
              onClick={() => setEdit({ mode: "create", parent: null })}
            >
              {t("chart.new")}
            </Button>
          </Space>
          <Refusal message={error} onClose={() => setError(null)} testId="chart-error" />
          <Table<GlNode>
            rowKey="id"
            size="small"
            tableLayout="fixed"
            dataSource={tree}
            pagination={false}
            onRow={(account) =>
              ({ "data-testid": `gl-${account.code}` }) as React.HTMLAttributes<HTMLElement>
            }
            expandable={{
              expandedRowKeys: expanded,
              onExpand: (open, account) =>
                setCollapsed((before) => {
                  const next = new Set(before);
                  if (open) next.delete(account.id);
                  else next.add(account.id);
                  return next;
                }),
            }}
            locale={{ emptyText: search.trim() ? t("chart.noMatch") : t("chart.empty") }}
            columns={[
              { key: "code", title: t("chart.code"), dataIndex: "code", width: 120 },
              {
                key: "name",
                title: t("chart.name"),
                // One line: a long name ends in an ellipsis, the whole name in its tooltip.
                render: (_: unknown, account: GlNode) => (
                  <span style={{ display: "flex", alignItems: "center", gap: 4, minWidth: 0 }}>
                    <Typography.Text data-testid="gl-name" ellipsis={{ tooltip: account.name }}>
                      {account.name}
                    </Typography.Text>
                    {account.role ? (
                      <Tag bordered={false} title={t("chart.roleHint")}>
                        ★
                      </Tag>
                    ) : null}
                  </span>
                ),
              },
              {
                key: "type",
                title: t("chart.type"),
                width: 120,
                render: (_: unknown, account: GlNode) => t(`chart.types.${account.type}`),
              },
              { key: "currency", title: t("chart.currency"), dataIndex: "currency", width: 80 },
              {
                key: "status",
                title: t("chart.status"),
                width: 110,
                render: (_: unknown, account: GlNode) =>
                  account.isActive ? (
                    <Tag color="green">{t("chart.active")}</Tag>
                  ) : (
                    <Tag data-testid="gl-inactive">{t("chart.inactive")}</Tag>
                  ),
              },
              {
                key: "actions",
                title: t("chart.actions"),
                width: 170,
                // Icon buttons named by their tooltips, so a row stays one line in every language
                // (docs/decisions/0111-books-features.md).
                render: (_: unknown, account: GlNode) => (
                  <Space size={2} wrap={false}>
                    <RowAction
                      label={t("chart.addChild")}
                      icon={<PlusOutlined />}
                      testId="gl-add-child"
                      disabled={account.hasEntries}
                      onClick={() => setEdit({ mode: "create", parent: account })}
                    />
                    <RowAction
                      label={t("chart.edit")}
                      icon={<EditOutlined />}
                      testId="gl-edit"
                      onClick={() => setEdit({ mode: "edit", account })}
                    />
                    <RowAction
                      label={t("chart.move")}
                      icon={<ApartmentOutlined />}
                      testId="gl-move"
                      onClick={() => setMoving(account)}
                    />
                    <RowAction
                      label={account.isActive ? t("chart.deactivate") : t("chart.activate")}
                      icon={account.isActive ? <StopOutlined /> : <CheckCircleOutlined />}
                      testId="gl-toggle"
                      disabled={account.role !== null && account.isActive}
                      loading={toggle.isPending && toggle.variables?.id === account.id}
                      onClick={() => toggle.mutate(account)}
                    />
                    <Popconfirm
                      title={t("chart.confirmDelete", { code: account.code, name: account.name })}
                      onConfirm={() => remove.mutate(account.id)}
                    >
                      <RowAction
                        label={t("chart.delete")}
                        icon={<DeleteOutlined />}
                        testId="gl-delete"
                        danger
                        loading={remove.isPending && remove.variables === account.id}
                      />
                    </Popconfirm>
                  </Space>
                ),
              },
            ]}
          />
          {edit ? <AccountForm edit={edit} onClose={() => setEdit(null)} /> : null}
          {moving ? <MoveForm account={moving} accounts={all} onClose={() => setMoving(null)} /> : null}
        </Space>
      )}
    </QueryState>
  );
};
