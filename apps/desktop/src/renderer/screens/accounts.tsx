import {
  type TMoneyAccountDto,
  ZCreateMoneyAccountInput,
  ZUpdateMoneyAccountInput,
} from "@hisob/finance/schema";
import { describeFailure, QueryState, useLocale } from "@hisob/ui";
import { maxLengthOf } from "@hisob/ui/forms";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { App as AntApp, Button, Checkbox, Input, Select, Space, Table, Typography } from "antd";
import { useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { KEYS, useApi, useCurrencies, useMoney } from "../api-context";
import { FormField } from "../components/field";
import { FormModal } from "../components/form-modal";
import { checkWith, showFailure, showFieldErrors, useSubmitOnce } from "../forms";

const PAGE_SIZE = 20;
type Sort = { sortBy: "name" | "balance" | "createdAt"; order: "asc" | "desc" };

export const AccountsScreen = () => {
  const { t } = useTranslation();
  const locale = useLocale();
  const money = useMoney(locale);
  const api = useApi();
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState<Sort>({ sortBy: "name", order: "asc" });
  const [search, setSearch] = useState("");
  const [editing, setEditing] = useState<TMoneyAccountDto | "new" | null>(null);
  const query = {
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
    ...sort,
    ...(search.trim() ? { search: search.trim() } : {}),
  };
  const accounts = useQuery({
    queryKey: [...KEYS.accounts, "page", query],
    queryFn: () => api.accounts.list.query(query),
    placeholderData: keepPreviousData,
  });

  return (
    <div>
      <Space style={{ width: "100%", justifyContent: "space-between", marginBottom: 16 }} wrap>
        <Typography.Title level={2} style={{ margin: 0 }}>
          {t("accounts.title")}
        </Typography.Title>
        <Space>
          <Input.Search
            aria-label={t("accounts.name")}
            placeholder={`${t("accounts.name")} / ${t("accounts.number")}`}
            allowClear
            onSearch={(value) => {
              setSearch(value);
              setPage(1);
            }}
            style={{ width: 260 }}
          />
          <Button type="primary" onClick={() => setEditing("new")} data-testid="new-account">
            {t("accounts.new")}
          </Button>
        </Space>
      </Space>
      <QueryState query={accounts} rows={8}>
        {(data) => (
          <Table
            rowKey="id"
            dataSource={data.items}
            loading={accounts.isFetching && accounts.isPlaceholderData}
            locale={{ emptyText: t("accounts.empty") }}
            pagination={{ current: page, pageSize: PAGE_SIZE, total: data.total, showSizeChanger: false }}
            onChange={(pagination, _filters, sorter) => {
              setPage(pagination.current ?? 1);
              const one = Array.isArray(sorter) ? sorter[0] : sorter;
              if (one?.order && one.field) {
                setSort({
                  sortBy: one.field as Sort["sortBy"],
                  order: one.order === "ascend" ? "asc" : "desc",
                });
              }
            }}
            onRow={(row) => ({ onDoubleClick: () => navigate(`/accounts/${row.id}`) })}
            columns={[
              {
                title: t("accounts.name"),
                dataIndex: "name",
                sorter: true,
                sortOrder: sort.sortBy === "name" ? (sort.order === "asc" ? "ascend" : "descend") : null,
                render: (name: string, row) => (
                  <a
                    href={`/app/accounts/${row.id}`}
                    onClick={(event) => {
                      event.preventDefault();
                      navigate(`/accounts/${row.id}`);
                    }}
                  >
                    {name}
                  </a>
                ),
              },
              { title: t("accounts.number"), dataIndex: "number" },
              { title: t("accounts.currency"), dataIndex: "currency", width: 100 },
              {
                title: t("accounts.balance"),
                dataIndex: "balance",
                align: "right",
                sorter: true,
                sortOrder: sort.sortBy === "balance" ? (sort.order === "asc" ? "ascend" : "descend") : null,
                render: (balance: string, row) => (
                  <span style={{ whiteSpace: "nowrap" }} data-testid={`account-balance-${row.name}`}>
                    {money(balance, row.currency)}
                  </span>
                ),
              },
              {
                title: t("ui:actions"),
                width: 120,
                render: (_, row) => (
                  <Button
                    size="small"
                    onClick={() => setEditing(row)}
                    aria-label={`${t("ui:edit")} ${row.name}`}
                  >
                    {t("ui:edit")}
                  </Button>
                ),
              },
            ]}
          />
        )}
      </QueryState>
      {editing ? (
        <AccountForm account={editing === "new" ? null : editing} onClose={() => setEditing(null)} />
      ) : null}
    </div>
  );
};

type Values = {
  name: string;
  number: string;
  currency: string;
  allowOverdraft: boolean;
  description: string;
};
const FIELDS = ["name", "number", "currency", "allowOverdraft", "description"] as const;
const MAX_LENGTH = {
  name: maxLengthOf(ZCreateMoneyAccountInput.shape.name),
  number: maxLengthOf(ZCreateMoneyAccountInput.shape.number),
  description: maxLengthOf(ZCreateMoneyAccountInput.shape.description),
};

const AccountForm = ({ account, onClose }: { account: TMoneyAccountDto | null; onClose: () => void }) => {
  const { t } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const { message } = AntApp.useApp();
  const currencies = useCurrencies();
  const once = useSubmitOnce();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<Values>({
    defaultValues: {
      name: account?.name ?? "",
      number: account?.number ?? "",
      currency: account?.currency ?? "",
      allowOverdraft: account?.allowOverdraft ?? false,
      description: account?.description ?? "",
    },
  });
  const save = useMutation({
    mutationFn: async (values: Values) => {
      if (account) {
        const { currency: _fixed, ...changes } = values;
        return api.accounts.update.mutate({ id: account.id, data: changes });
      }
      return api.accounts.create.mutate(values);
    },
  });
  const required = (path: string) =>
    (path === "name" || path === "currency") && !form.getValues(path) ? t("form.required") : undefined;

  const submit = form.handleSubmit(async (values) => {
    setFormError(null);
    const input = account ? { ...values, currency: undefined } : values;
    const checked = account
      ? checkWith(ZUpdateMoneyAccountInput, { ...input, currency: undefined }, required)
      : checkWith(ZCreateMoneyAccountInput, input, required);
    if (!checked.ok) {
      const rest = showFieldErrors(form.setError, FIELDS, checked.errors);
      if (rest.length) setFormError(rest.join(" "));
      return;
    }
    try {
      await save.mutateAsync(values);
      await queryClient.invalidateQueries({ queryKey: KEYS.accounts });
      void message.success(t(account ? "accounts.saved" : "accounts.created"));
      onClose();
    } catch (error) {
      showFailure(describeFailure(error, t), form, FIELDS, setFormError);
    }
  });

  return (
    <FormModal
      id="account-form"
      title={t(account ? "accounts.edit" : "accounts.new")}
      open
      busy={once.busy}
      error={formError}
      onSubmit={() => void once.run(submit)}
      onCancel={onClose}
    >
      <FormField
        control={form.control}
        name="name"
        id="account-name"
        label={t("accounts.name")}
        render={({ field, status }) => (
          <Input {...field} id="account-name" autoFocus maxLength={MAX_LENGTH.name} status={status} />
        )}
      />
      <FormField
        control={form.control}
        name="number"
        id="account-number"
        label={t("accounts.number")}
        render={({ field, status }) => (
          <Input {...field} id="account-number" maxLength={MAX_LENGTH.number} status={status} />
        )}
      />
      <FormField
        control={form.control}
        name="currency"
        id="account-currency"
        label={t("accounts.currency")}
        render={({ field, status }) => (
          <Select
            {...field}
            id="account-currency"
            disabled={account !== null}
            loading={currencies.isPending}
            status={status}
            style={{ width: "100%" }}
            showSearch
            options={(currencies.data ?? []).map((c) => ({
              value: c.code,
              label: `${c.code} — ${c.name}`,
            }))}
          />
        )}
      />
      <FormField
        control={form.control}
        name="description"
        id="account-description"
        label={t("accounts.description")}
        render={({ field, status }) => (
          <Input {...field} id="account-description" maxLength={MAX_LENGTH.description} status={status} />
        )}
      />
      <Controller
        control={form.control}
        name="allowOverdraft"
        render={({ field }) => (
          <Checkbox
            id="account-overdraft"
            checked={field.value}
            onChange={(event) => field.onChange(event.target.checked)}
          >
            {t("accounts.allowOverdraft")}
          </Checkbox>
        )}
      />
    </FormModal>
  );
};
