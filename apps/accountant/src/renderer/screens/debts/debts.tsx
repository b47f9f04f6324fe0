import { DEBT_KINDS, DEBT_STATUSES, type TDebtDto, type TListDebtsQuery } from "@hisob/finance/schema";
import { formatDate, QueryState, todayIso, useLocale } from "@hisob/ui";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Button, Checkbox, Select, Space, Table, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useSearchParams } from "react-router-dom";
import { useApi, useCurrencies, useMoney } from "../../api-context";
import { DateInput } from "../../components/date-input";
import { CounterpartyPicker } from "../../components/pickers";
import { FIRST_DEBTS_PAGE, LIST_PAGE_SIZE, QUERIES } from "../../queries";
import { debtFiltersSearch, readDebtFilters } from "../reports/party-report-query";
import { DebtCreateForm } from "./debt-create-form";
import { CounterpartyLink, DebtKindTag, DebtStatusTag, EmptyText, useCounterpartyNames } from "./debt-parts";

type Filters = {
  status?: TDebtDto["status"];
  kind?: TDebtDto["kind"];
  counterpartyId?: string;
  currency?: string;
  dueAfter?: string;
  dueBefore?: string;
  overdue?: boolean;
  /** Pending or partly settled (an aging figure read today links to these). */
  open?: boolean;
  /** Not yet due at the end of this day (the aging's first bucket links to these). */
  notDueOn?: string;
};

/** The filters as the server's list takes them: "overdue" is open and due before today. */
const toQuery = ({ overdue, ...filters }: Filters): TListDebtsQuery => {
  const query = Object.fromEntries(Object.entries(filters).filter(([, value]) => value)) as TListDebtsQuery;
  if (!overdue) return query;
  const today = todayIso();
  return {
    ...query,
    open: true,
    dueBefore: query.dueBefore && query.dueBefore < today ? query.dueBefore : today,
  };
};

export const DebtsScreen = () => {
  const { t } = useTranslation();
  const locale = useLocale();
  const api = useApi();
  const navigate = useNavigate();
  const currencies = useCurrencies();
  const [page, setPage] = useState(1);
  // The filters live in the address: a report's figure links here filtered, and Back keeps them.
  const [params, setParams] = useSearchParams();
  const filters = readDebtFilters(params) as Filters;
  const [creating, setCreating] = useState(false);
  const query = {
    ...toQuery(filters),
    ...FIRST_DEBTS_PAGE,
    offset: (page - 1) * LIST_PAGE_SIZE,
  } as const;
  const list = useQuery({ ...QUERIES.debtsList(api, query), placeholderData: keepPreviousData });
  const filter = (change: Partial<Filters>) => {
    setParams(debtFiltersSearch({ ...filters, ...change }), { replace: true });
    setPage(1);
  };

  return (
    <div>
      <Space style={{ width: "100%", justifyContent: "space-between", marginBottom: 16 }} wrap>
        <Typography.Title level={1} style={{ margin: 0 }}>
          {t("debts.title")}
        </Typography.Title>
        <Button type="primary" onClick={() => setCreating(true)} data-testid="new-debt">
          {t("debts.new")}
        </Button>
      </Space>
      <Space wrap style={{ marginBottom: 16 }} role="search" aria-label={t("debts.filters")}>
        <Select
          aria-label={t("debts.status")}
          data-testid="filter-status"
          style={{ width: 190 }}
          value={filters.status ?? ""}
          onChange={(value) => filter({ status: (value || undefined) as Filters["status"] })}
          options={[
            { value: "", label: t("debts.allStatuses") },
            ...DEBT_STATUSES.map((status) => ({ value: status, label: t(`debts.statuses.${status}`) })),
          ]}
        />
        <Select
          aria-label={t("debts.kind")}
          data-testid="filter-kind"
          style={{ width: 250 }}
          value={filters.kind ?? ""}
          onChange={(value) => filter({ kind: (value || undefined) as Filters["kind"] })}
          options={[
            { value: "", label: t("debts.allKinds") },
            ...DEBT_KINDS.map((kind) => ({ value: kind, label: t(`debts.kinds.${kind}`) })),
          ]}
        />
        <div style={{ width: 200 }}>
          <CounterpartyPicker
            id="filter-counterparty"
            aria-label={t("debts.counterparty")}
            value={filters.counterpartyId ?? null}
            onChange={(value) => filter({ counterpartyId: value ?? undefined })}
            placeholder={t("debts.allCounterparties")}
          />
        </div>
        <Select
          aria-label={t("debts.currency")}
          style={{ width: 190 }}
          value={filters.currency ?? ""}
          onChange={(value) => filter({ currency: value || undefined })}
          options={[
            { value: "", label: t("debts.allCurrencies") },
            ...(currencies.data ?? []).map((c) => ({ value: c.code, label: c.code })),
          ]}
        />
        <label htmlFor="filter-due-after">{t("debts.dueAfter")}</label>
        <DateInput
          id="filter-due-after"
          width={140}
          allowClear
          value={filters.dueAfter ?? ""}
          onChange={(date) => filter({ dueAfter: date || undefined })}
        />
        <label htmlFor="filter-due-before">{t("debts.dueBefore")}</label>
        <DateInput
          id="filter-due-before"
          width={140}
          allowClear
          value={filters.dueBefore ?? ""}
          onChange={(date) => filter({ dueBefore: date || undefined })}
        />
        <Checkbox
          checked={filters.overdue ?? false}
          onChange={(event) => filter({ overdue: event.target.checked })}
          data-testid="filter-overdue"
        >
          {t("debts.overdueOnly")}
        </Checkbox>
        <Checkbox
          checked={filters.open ?? false}
          onChange={(event) => filter({ open: event.target.checked })}
          data-testid="filter-open"
        >
          {t("debts.openOnly")}
        </Checkbox>
        {filters.notDueOn ? (
          <Tag closable onClose={() => filter({ notDueOn: undefined })} data-testid="filter-not-due">
            {t("debts.notDueOn", { date: formatDate(filters.notDueOn, locale) })}
          </Tag>
        ) : null}
      </Space>
      <QueryState query={list} rows={8}>
        {(data) => (
          <DebtsTable
            debts={data.items}
            pagination={{ current: page, pageSize: LIST_PAGE_SIZE, total: data.total, onChange: setPage }}
          />
        )}
      </QueryState>
      {creating ? (
        <DebtCreateForm onClose={() => setCreating(false)} onCreated={(id) => navigate(`/debts/${id}`)} />
      ) : null}
    </div>
  );
};

/** Debts as rows: also the counterparty page's list (without its counterparty column). */
export const DebtsTable = (props: {
  debts: TDebtDto[];
  withCounterparty?: boolean;
  pagination?: { current: number; pageSize: number; total: number; onChange: (page: number) => void } | false;
  empty?: string;
}) => {
  const { t } = useTranslation();
  const locale = useLocale();
  const money = useMoney(locale);
  const nameOf = useCounterpartyNames(props.debts.map((debt) => debt.counterpartyId));
  const withCounterparty = props.withCounterparty ?? true;
  return (
    <Table
      rowKey="id"
      dataSource={props.debts}
      data-testid="debts-table"
      locale={{ emptyText: <EmptyText text={props.empty ?? t("debts.empty")} /> }}
      pagination={props.pagination === false ? false : { ...props.pagination, showSizeChanger: false }}
      columns={[
        ...(withCounterparty
          ? [
              {
                title: t("debts.counterparty"),
                dataIndex: "counterpartyId",
                render: (id: string) => <CounterpartyLink id={id} name={nameOf(id)} />,
              },
            ]
          : []),
        {
          title: t("debts.kind"),
          dataIndex: "kind",
          render: (kind: TDebtDto["kind"]) => <DebtKindTag kind={kind} />,
        },
        {
          title: t("debts.description"),
          dataIndex: "description",
          render: (text: string) => <span style={{ overflowWrap: "anywhere" }}>{text}</span>,
        },
        {
          title: t("debts.dueDate"),
          dataIndex: "dueDate",
          render: (date: string | null) => (
            <span style={{ whiteSpace: "nowrap" }}>
              {date ? formatDate(date, locale) : t("debts.noDueDate")}
            </span>
          ),
        },
        {
          title: t("debts.amount"),
          dataIndex: "amount",
          align: "right" as const,
          render: (amount: string, row: TDebtDto) => (
            <span style={{ whiteSpace: "nowrap" }}>{money(amount, row.currency)}</span>
          ),
        },
        {
          title: t("debts.outstanding"),
          dataIndex: "outstanding",
          align: "right" as const,
          render: (amount: string, row: TDebtDto) => (
            <strong style={{ whiteSpace: "nowrap" }}>{money(amount, row.currency)}</strong>
          ),
        },
        {
          title: t("debts.status"),
          dataIndex: "status",
          render: (_: string, row: TDebtDto) => <DebtStatusTag debt={row} />,
        },
        {
          title: t("ui:actions"),
          width: 100,
          render: (_: unknown, row: TDebtDto) => (
            <Link to={`/debts/${row.id}`} data-testid={`open-debt-${row.id}`}>
              {t("debts.open")}
            </Link>
          ),
        },
      ]}
    />
  );
};
