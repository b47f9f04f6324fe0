import { type TDocumentDto, ZCreateDocumentInput, ZUpdateDocumentInput } from "@hisob/finance/schema";
import { describeFailure, formatDate, numberLocale, QueryState, todayIso, useLocale } from "@hisob/ui";
import { maxLengthOf } from "@hisob/ui/limits";
import { AmountInput, amountRules, amountText, readNumber, useNumberRule } from "@hisob/ui/numbers";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { App as AntApp, Button, Input, Popconfirm, Select, Space, Table, Tag, Typography } from "antd";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router-dom";
import { invalidateMoney, KEYS, useAllAccounts, useApi, useMinorUnits, useMoney } from "../api-context";
import { DateField, DateInput } from "../components/date-input";
import { DownloadButton } from "../components/downloads";
import { FormField } from "../components/field";
import { FormModal } from "../components/form-modal";
import { CategoryPicker, CounterpartyPicker } from "../components/pickers";
import { checkWith, showFailure, showFieldErrors, useSubmitOnce } from "../forms";
import { readDocumentFilters } from "./reports/report-query";

/* Payments (money in) and expenses (money out): the same list and form over their own procedures. */

/** The category and counterparty filters: wide enough for the longest placeholder in en/ru/uz
 * ("Barcha kontragentlar") beside the clear and arrow icons, so none is cut off. */
const FILTER_PICKER_WIDTH = 190;

export type DocumentKind = "payments" | "expenses";
const PAGE_SIZE = 20;

type Filters = {
  accountId?: string;
  categoryId?: string;
  counterpartyId?: string;
  from?: string;
  to?: string;
  sortBy: "date" | "amount" | "createdAt";
  order: "asc" | "desc";
};

export const DocumentsScreen = ({ kind }: { kind: DocumentKind }) => {
  const { t } = useTranslation();
  const locale = useLocale();
  const money = useMoney(locale);
  const api = useApi();
  const queryClient = useQueryClient();
  const { message } = AntApp.useApp();
  const accounts = useAllAccounts();
  const accountName = (id: string) => accounts.data?.items.find((a) => a.id === id)?.name ?? "";
  const [page, setPage] = useState(1);
  // The filters live in the address, so a report's figure opens this list filtered as it counts
  // (screens/reports/report-query.ts) and a reload or a bookmark keeps them; the sort is the screen's.
  const [params, setParams] = useSearchParams();
  const [sort, setSort] = useState<Pick<Filters, "sortBy" | "order">>({ sortBy: "date", order: "desc" });
  const filters: Filters = { ...sort, ...readDocumentFilters(params) };
  const setFilters = (update: (current: Filters) => Filters) => {
    const { sortBy, order, ...rest } = update(filters);
    setSort({ sortBy, order });
    const kept = Object.entries(rest).filter((entry): entry is [string, string] => Boolean(entry[1]));
    setParams(Object.fromEntries(kept), { replace: true });
  };
  const [editing, setEditing] = useState<TDocumentDto | "new" | null>(null);
  const query = {
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
    ...Object.fromEntries(Object.entries(filters).filter(([, value]) => value)),
  } as Filters & { limit: number; offset: number };
  const procedures = api[kind];
  const list = useQuery({
    queryKey: [...KEYS[kind], query],
    queryFn: () => procedures.list.query(query),
    placeholderData: keepPreviousData,
  });
  // Every matching document's count and sums per currency, computed by the server (not this page's).
  const { sortBy: _sortBy, order: _order, ...matching } = query;
  const { limit: _limit, offset: _offset, ...filtersOnly } = matching;
  const totals = useQuery({
    queryKey: [...KEYS[kind], "totals", filtersOnly],
    queryFn: () => procedures.totals.query(filtersOnly),
    placeholderData: keepPreviousData,
  });
  const remove = useMutation({ mutationFn: (id: string) => procedures.delete.mutate({ id }) });
  const filter = (change: Partial<Filters>) => {
    setFilters((current) => ({ ...current, ...change }));
    setPage(1);
  };
  const order = (field: Filters["sortBy"]) =>
    filters.sortBy === field ? (filters.order === "asc" ? ("ascend" as const) : ("descend" as const)) : null;

  return (
    <div>
      <Space style={{ width: "100%", justifyContent: "space-between", marginBottom: 16 }} wrap>
        <Typography.Title level={1} style={{ margin: 0 }}>
          {t(`documents.${kind}`)}
        </Typography.Title>
        <Space>
          <DownloadButton
            testId="download-documents"
            prepare={() =>
              api.exports[kind].query(
                Object.fromEntries(Object.entries(filters).filter(([, value]) => value)) as Filters,
              )
            }
          />
          <Button type="primary" onClick={() => setEditing("new")} data-testid="new-document">
            {t(kind === "payments" ? "documents.newPayment" : "documents.newExpense")}
          </Button>
        </Space>
      </Space>
      <Space wrap style={{ marginBottom: 16 }} role="search" aria-label={t("documents.filters")}>
        <Select
          aria-label={t("documents.account")}
          style={{ width: 200 }}
          value={filters.accountId ?? ""}
          onChange={(value) => filter({ accountId: value || undefined })}
          options={[
            { value: "", label: t("documents.allAccounts") },
            ...(accounts.data?.items ?? []).map((a) => ({ value: a.id, label: `${a.name} (${a.currency})` })),
          ]}
        />
        <div style={{ width: FILTER_PICKER_WIDTH }}>
          <CategoryPicker
            kind={kind}
            id="filter-category"
            aria-label={t("documents.category")}
            value={filters.categoryId ?? null}
            onChange={(value) => filter({ categoryId: value ?? undefined })}
            placeholder={t("documents.allCategories")}
          />
        </div>
        <div style={{ width: FILTER_PICKER_WIDTH }}>
          <CounterpartyPicker
            id="filter-counterparty"
            aria-label={t("documents.counterparty")}
            value={filters.counterpartyId ?? null}
            onChange={(value) => filter({ counterpartyId: value ?? undefined })}
            placeholder={t("documents.allCounterparties")}
          />
        </div>
        <label htmlFor="filter-from">{t("documents.from")}</label>
        <DateInput
          id="filter-from"
          width={140}
          allowClear
          value={filters.from ?? ""}
          onChange={(date) => filter({ from: date || undefined })}
        />
        <label htmlFor="filter-to">{t("documents.to")}</label>
        <DateInput
          id="filter-to"
          width={140}
          allowClear
          value={filters.to ?? ""}
          onChange={(date) => filter({ to: date || undefined })}
        />
      </Space>
      <div
        style={{
          display: "flex",
          flexWrap: "wrap",
          alignItems: "center",
          gap: 8,
          marginBottom: 12,
          minHeight: 24,
        }}
        data-testid="documents-totals"
        aria-live="polite"
      >
        {/* Loading, and a failure said with a retry: never a blank where the totals belong. */}
        <QueryState query={totals} rows={1} errorTitle={t("documents.totalsFailed")}>
          {(data) => (
            <>
              <Typography.Text strong data-testid="documents-count">
                {t(kind === "payments" ? "documents.paymentCount" : "documents.expenseCount", {
                  // Grouped as the app's money is ("1 234" in ru and uz).
                  n: new Intl.NumberFormat(numberLocale(locale)).format(data.count),
                })}
              </Typography.Text>
              {data.currencies.map((row) => (
                <Tag
                  key={row.currency}
                  data-testid={`documents-total-${row.currency}`}
                  style={{ marginInlineEnd: 0 }}
                >
                  {t("documents.total")}:{" "}
                  <strong style={{ whiteSpace: "nowrap" }}>{money(row.amount, row.currency)}</strong>
                </Tag>
              ))}
            </>
          )}
        </QueryState>
      </div>
      <QueryState query={list} rows={8}>
        {(data) => (
          <Table
            rowKey="id"
            dataSource={data.items}
            locale={{
              emptyText: t(kind === "payments" ? "documents.emptyPayments" : "documents.emptyExpenses"),
            }}
            pagination={{ current: page, pageSize: PAGE_SIZE, total: data.total, showSizeChanger: false }}
            onChange={(pagination, _f, sorter) => {
              setPage(pagination.current ?? 1);
              const one = Array.isArray(sorter) ? sorter[0] : sorter;
              if (one?.order && one.field) {
                setFilters((current) => ({
                  ...current,
                  sortBy: one.field as Filters["sortBy"],
                  order: one.order === "ascend" ? "asc" : "desc",
                }));
              }
            }}
            columns={[
              {
                title: t("documents.date"),
                dataIndex: "date",
                sorter: true,
                sortOrder: order("date"),
                width: 130,
                render: (date: string) => (
                  <span style={{ whiteSpace: "nowrap" }}>{formatDate(date, locale)}</span>
                ),
              },
              {
                title: t("documents.account"),
                dataIndex: "accountId",
                render: (id: string) => accountName(id),
              },
              {
                title: t("documents.category"),
                dataIndex: "categoryName",
                render: (name: string | null) => name ?? <NoValue />,
              },
              {
                title: t("documents.counterparty"),
                dataIndex: "counterpartyName",
                render: (name: string | null) => name ?? <NoValue />,
              },
              {
                // Wraps, never cut: an accountant reads the whole comment at any window size.
                title: t("documents.comment"),
                dataIndex: "comment",
                render: (comment: string) => <span style={{ overflowWrap: "anywhere" }}>{comment}</span>,
              },
              {
                title: t("documents.amount"),
                dataIndex: "amount",
                align: "right",
                sorter: true,
                sortOrder: order("amount"),
                render: (amount: string, row) => (
                  <span style={{ whiteSpace: "nowrap" }}>{money(amount, row.currency)}</span>
                ),
              },
              {
                title: t("ui:actions"),
                width: 180,
                render: (_, row) => (
                  <Space>
                    <Button size="small" onClick={() => setEditing(row)}>
                      {t("ui:edit")}
                    </Button>
                    <Popconfirm
                      title={t("documents.deleteTitle")}
                      description={t("documents.deleteText")}
                      okText={t("ui:delete")}
                      cancelText={t("ui:cancel")}
                      okButtonProps={{ danger: true }}
                      onConfirm={async () => {
                        try {
                          await remove.mutateAsync(row.id);
                          await invalidateMoney(queryClient);
                          void message.success(t("documents.deleted"));
                        } catch (error) {
                          void message.error(describeFailure(error, t).message);
                        }
                      }}
                    >
                      <Button size="small" danger>
                        {t("ui:delete")}
                      </Button>
                    </Popconfirm>
                  </Space>
                ),
              },
            ]}
          />
        )}
      </QueryState>
      {editing ? (
        <DocumentForm
          kind={kind}
          document={editing === "new" ? null : editing}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </div>
  );
};

/** An empty cell, read as "none" rather than skipped. */
const NoValue = () => <span style={{ color: "#595959" }}>—</span>;

type Values = {
  accountId: string;
  amount: string;
  date: string;
  categoryId: string | null;
  counterpartyId: string | null;
  comment: string;
};
const FIELDS = ["accountId", "amount", "date", "categoryId", "counterpartyId", "comment"] as const;
const COMMENT_MAX = maxLengthOf(ZCreateDocumentInput.shape.comment);

const DocumentForm = (props: { kind: DocumentKind; document: TDocumentDto | null; onClose: () => void }) => {
  const { kind, document } = props;
  const { t } = useTranslation();
  const locale = useLocale();
  const api = useApi();
  const queryClient = useQueryClient();
  const { message } = AntApp.useApp();
  const accounts = useAllAccounts();
  const minorUnits = useMinorUnits();
  const numberRule = useNumberRule();
  const once = useSubmitOnce();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<Values>({
    // A field's own check (what was typed is a number, a date) speaks once the field is left.
    mode: "onTouched",
    defaultValues: {
      accountId: document?.accountId ?? "",
      // As the language writes it ("9 750 000,50" in Russian), the way it is typed back.
      amount: document ? amountText(document.amount, minorUnits(document.currency), locale) : "",
      date: document?.date ?? todayIso(),
      categoryId: document?.categoryId ?? null,
      counterpartyId: document?.counterpartyId ?? null,
      comment: document?.comment ?? "",
    },
  });
  const currencyOf = (accountId: string) => accounts.data?.items.find((a) => a.id === accountId)?.currency;
  const currency = currencyOf(form.watch("accountId"));
  const digits = minorUnits(currency ?? "");
  const save = useMutation({
    mutationFn: (input: Values & { currency?: string }) =>
      document
        ? api[kind].update.mutate({ id: document.id, data: input })
        : api[kind].create.mutate(input, { context: { idempotencyKey: once.key } }),
  });

  const submit = form.handleSubmit(async (values) => {
    setFormError(null);
    const reading = readNumber(values.amount, locale, amountRules(currency, digits));
    // The field's rule refused anything else; the currency goes along, so the server checks that the
    // amount was read with the account's own minor units.
    const input = {
      ...values,
      amount: reading.ok ? reading.scaled.toString() : values.amount,
      ...(currency ? { currency } : {}),
    };
    const messageFor = (path: string) => {
      if (path === "accountId") return t("form.chooseAccount");
      if (path === "date" && !values.date) return t("form.required");
      return undefined;
    };
    const checked = checkWith(document ? ZUpdateDocumentInput : ZCreateDocumentInput, input, messageFor);
    if (!checked.ok) {
      const rest = showFieldErrors(form.setError, FIELDS, checked.errors);
      if (rest.length) setFormError(rest.join(" "));
      return;
    }
    try {
      await save.mutateAsync(input);
      await invalidateMoney(queryClient);
      void message.success(t(document ? "documents.saved" : "documents.created"));
      props.onClose();
    } catch (error) {
      // The form stays open with what was typed; the server's message is in the user's language.
      showFailure(describeFailure(error, t), form, FIELDS, setFormError);
    }
  });

  const title =
    kind === "payments"
      ? t(document ? "documents.editPayment" : "documents.newPayment")
      : t(document ? "documents.editExpense" : "documents.newExpense");
  return (
    <FormModal
      id="document-form"
      title={title}
      open
      busy={once.busy}
      error={formError}
      onSubmit={() => void once.run(submit)}
      onCancel={props.onClose}
    >
      <FormField
        control={form.control}
        name="accountId"
        id="document-account"
        label={t("documents.account")}
        render={({ field, status }) => (
          <Select
            {...field}
            id="document-account"
            autoFocus
            showSearch
            optionFilterProp="label"
            status={status}
            style={{ width: "100%" }}
            loading={accounts.isPending}
            options={(accounts.data?.items ?? []).map((a) => ({
              value: a.id,
              label: `${a.name} (${a.currency})`,
            }))}
          />
        )}
      />
      <FormField
        control={form.control}
        name="amount"
        id="document-amount"
        label={t("documents.amount")}
        rules={{
          validate: (text: string) =>
            numberRule(amountRules(currency, digits), { kind: "amount", currency: currency ?? "" })(text),
        }}
        render={({ field, status }) => (
          <AmountInput
            {...field}
            id="document-amount"
            currency={currency}
            minorUnits={digits}
            status={status}
          />
        )}
      />
      <DateField control={form.control} name="date" id="document-date" label={t("documents.date")} />
      <FormField
        control={form.control}
        name="categoryId"
        id="document-category"
        label={t("documents.category")}
        render={({ bound }) => <CategoryPicker kind={kind} {...bound} />}
      />
      <FormField
        control={form.control}
        name="counterpartyId"
        id="document-counterparty"
        label={t("documents.counterparty")}
        render={({ bound }) => <CounterpartyPicker {...bound} />}
      />
      <FormField
        control={form.control}
        name="comment"
        id="document-comment"
        label={t("documents.comment")}
        render={({ field, status }) => (
          <Input {...field} id="document-comment" maxLength={COMMENT_MAX} status={status} />
        )}
      />
    </FormModal>
  );
};
