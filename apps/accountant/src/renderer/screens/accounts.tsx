import {
  type TMoneyAccountDto,
  type TOpeningBalanceDto,
  ZCreateMoneyAccountInput,
  ZListMoneyAccountsQuery,
  ZUpdateMoneyAccountInput,
} from "@hisob/finance/schema";
import { currencyOption, describeFailure, QueryState, todayIso, useLocale } from "@hisob/ui";
import { maxLengthOf } from "@hisob/ui/limits";
import { AmountInput, amountRules, amountText, readNumber, useNumberRule } from "@hisob/ui/numbers";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { App as AntApp, Button, Checkbox, Input, Select, Space, Table, Typography } from "antd";
import { useEffect, useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { invalidateMoney, KEYS, useApi, useCurrencies, useMinorUnits, useMoney } from "../api-context";
import { DateInput, useDateRule } from "../components/date-input";
import { FormField } from "../components/field";
import { FormModal } from "../components/form-modal";
import { checkWith, showFailure, showFieldErrors, useSubmitOnce } from "../forms";
import { FIRST_ACCOUNTS_PAGE, LIST_PAGE_SIZE, QUERIES } from "../queries";

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
    ...FIRST_ACCOUNTS_PAGE,
    offset: (page - 1) * LIST_PAGE_SIZE,
    ...sort,
    ...(search.trim() ? { search: search.trim() } : {}),
  };
  const accounts = useQuery({ ...QUERIES.accountsPage(api, query), placeholderData: keepPreviousData });

  return (
    <div>
      <Space style={{ width: "100%", justifyContent: "space-between", marginBottom: 16 }} wrap>
        <Typography.Title level={1} style={{ margin: 0 }}>
          {t("accounts.title")}
        </Typography.Title>
        <Space>
          <Input.Search
            aria-label={t("accounts.name")}
            placeholder={`${t("accounts.name")} / ${t("accounts.number")}`}
            maxLength={maxLengthOf(ZListMoneyAccountsQuery.shape.search)}
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
            pagination={{
              current: page,
              pageSize: LIST_PAGE_SIZE,
              total: data.total,
              showSizeChanger: false,
            }}
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
  /** What the account already held when its books moved here, as typed ("" for none). */
  openingAmount: string;
  openingDate: string;
};
const FIELDS = ["name", "number", "currency", "allowOverdraft", "description"] as const;
const MAX_LENGTH = {
  name: maxLengthOf(ZCreateMoneyAccountInput.shape.name),
  number: maxLengthOf(ZCreateMoneyAccountInput.shape.number),
  description: maxLengthOf(ZCreateMoneyAccountInput.shape.description),
};

/** The account's opening balance (null: none), loaded before its form opens. */
const useOpening = (account: TMoneyAccountDto | null) => {
  const api = useApi();
  const { t } = useTranslation();
  return useQuery({
    queryKey: [...KEYS.accounts, "opening", account?.id],
    enabled: account !== null,
    queryFn: async (): Promise<TOpeningBalanceDto | null> => {
      if (!account) return null;
      try {
        return await api.accounts.openingBalance.query({ id: account.id });
      } catch (error) {
        if (describeFailure(error, t).code === "NOT_FOUND") return null;
        throw error;
      }
    },
  });
};

const AccountForm = ({ account, onClose }: { account: TMoneyAccountDto | null; onClose: () => void }) => {
  const opening = useOpening(account);
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const failed = opening.isError;
  useEffect(() => {
    if (!failed) return;
    void message.error(describeFailure(opening.error, t).message);
    onClose();
  }, [failed, opening.error, message, t, onClose]);
  // The dialog opens once the opening balance is known (a moment; none to load for a new account).
  if (account && !opening.isSuccess) return null;
  return <AccountFormFields account={account} opening={opening.data ?? null} onClose={onClose} />;
};

const AccountFormFields = ({
  account,
  opening,
  onClose,
}: {
  account: TMoneyAccountDto | null;
  opening: TOpeningBalanceDto | null;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  const locale = useLocale();
  const api = useApi();
  const queryClient = useQueryClient();
  const { message } = AntApp.useApp();
  const currencies = useCurrencies();
  const minorUnits = useMinorUnits();
  const numberRule = useNumberRule();
  const dateRule = useDateRule();
  const once = useSubmitOnce();
  const [formError, setFormError] = useState<string | null>(null);
  /** The account once created: a retry after a refused opening balance only sets the balance. */
  const [created, setCreated] = useState<TMoneyAccountDto | null>(null);
  const form = useForm<Values>({
    mode: "onTouched",
    defaultValues: {
      name: account?.name ?? "",
      number: account?.number ?? "",
      currency: account?.currency ?? "",
      allowOverdraft: account?.allowOverdraft ?? false,
      description: account?.description ?? "",
      openingAmount:
        account && opening ? amountText(opening.amount, minorUnits(account.currency), locale) : "",
      openingDate: opening?.date ?? todayIso(),
    },
  });
  const currency = form.watch("currency");
  const digits = minorUnits(currency);
  // An account that may go negative may also start owing.
  const openingRules = amountRules(
    currency || undefined,
    digits,
    form.watch("allowOverdraft") ? "any" : "nonNegative",
  );
  const locked = opening !== null && !opening.isEditable;
  const required = (path: string) =>
    (path === "name" || path === "currency") && !form.getValues(path) ? t("form.required") : undefined;

  const submit = form.handleSubmit(async (values) => {
    setFormError(null);
    const { openingAmount, openingDate, ...fields } = values;
    const existing = account ?? created;
    const checked = existing
      ? checkWith(ZUpdateMoneyAccountInput, { ...fields, currency: undefined }, required)
      : checkWith(ZCreateMoneyAccountInput, fields, required);
    if (!checked.ok) {
      const rest = showFieldErrors(form.setError, FIELDS, checked.errors);
      if (rest.length) setFormError(rest.join(" "));
      return;
    }
    let saved: TMoneyAccountDto;
    try {
      if (existing) {
        const { currency: _fixed, ...changes } = fields;
        saved = await api.accounts.update.mutate({ id: existing.id, data: changes });
      } else {
        // One key per dialog: a retry after a lost answer gets the account the first request opened.
        saved = await api.accounts.create.mutate(fields, { context: { idempotencyKey: once.key } });
        setCreated(saved);
      }
    } catch (error) {
      showFailure(describeFailure(error, t), form, FIELDS, setFormError);
      return;
    }
    const reading = readNumber(openingAmount, locale, openingRules);
    const wanted = reading.ok ? reading.scaled : 0n;
    const current = opening ? BigInt(opening.amount) : 0n;
    const changed = wanted !== current || (wanted !== 0n && openingDate !== opening?.date);
    if (!locked && changed) {
      try {
        await api.accounts.setOpeningBalance.mutate({
          id: saved.id,
          data: { amount: wanted.toString(), date: openingDate, comment: opening?.comment ?? "" },
        });
      } catch (error) {
        await queryClient.invalidateQueries({ queryKey: KEYS.accounts });
        // The account is saved; the balance's refusal stands next to its fields.
        showFailure(
          describeFailure(error, t),
          form,
          ["openingAmount", "openingDate"],
          setFormError,
          (errors) =>
            Object.fromEntries(
              Object.entries(errors).map(([path, text]) => [
                path === "amount" ? "openingAmount" : path === "date" ? "openingDate" : path,
                text,
              ]),
            ),
        );
        return;
      }
    }
    await invalidateMoney(queryClient);
    void message.success(t(account ? "accounts.saved" : "accounts.created"));
    onClose();
  });

  return (
    <FormModal
      id="account-form"
      title={t(account || created ? "accounts.edit" : "accounts.new")}
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
            disabled={account !== null || created !== null}
            loading={currencies.isPending}
            status={status}
            style={{ width: "100%" }}
            showSearch
            options={(currencies.data ?? []).map((c) => currencyOption(c, locale))}
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
      <div style={{ marginTop: 16 }}>
        <FormField
          control={form.control}
          name="openingAmount"
          id="account-opening"
          label={t("accounts.opening")}
          hint={
            locked ? (
              <Typography.Text type="secondary" data-testid="opening-locked">
                {t("accounts.openingLocked")}
              </Typography.Text>
            ) : undefined
          }
          rules={{
            validate: (text: string) =>
              locked || numberRule(openingRules, { kind: "amount", currency }, { optional: true })(text),
          }}
          render={({ field, status }) =>
            locked ? (
              <Input id="account-opening" value={field.value} disabled />
            ) : (
              <AmountInput
                {...field}
                id="account-opening"
                currency={currency || undefined}
                minorUnits={digits}
                sign={openingRules.sign}
                status={status}
              />
            )
          }
        />
        <FormField
          control={form.control}
          name="openingDate"
          id="account-opening-date"
          label={t("accounts.openingDate")}
          rules={{
            // A date only for a balance to set.
            validate: (value: string) =>
              locked || !form.getValues("openingAmount").trim() || dateRule()(value),
          }}
          render={({ bound }) => <DateInput {...bound} invalid="report" disabled={locked} />}
        />
      </div>
    </FormModal>
  );
};
