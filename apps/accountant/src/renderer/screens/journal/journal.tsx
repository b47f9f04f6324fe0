import { JOURNAL_STATES, type TJournalDto } from "@hisob/finance/schema";
import { formatDate, QueryState, useLocale } from "@hisob/ui";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Button, Select, Space, Table, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useSearchParams } from "react-router-dom";
import { useApi, useMoney } from "../../api-context";
import { PeriodFilter, usePeriod } from "../../components/period-filter";
import { LIST_PAGE_SIZE } from "../../queries";
import { JournalForm } from "./journal-form";
import { JOURNAL_KEY, JournalStateTag } from "./journal-parts";
import { RevaluationDialog } from "./revaluation-dialog";

/*
 * Manual journal entries and revaluations (docs/decisions/0100-manual-journals-and-revaluation.md): the
 * list by period and state, newest first; a new entry's form; the revaluation dialog.
 */

type State = TJournalDto["state"];

export const JournalScreen = () => {
  const { t } = useTranslation();
  const locale = useLocale();
  const money = useMoney(locale);
  const api = useApi();
  const navigate = useNavigate();
  const [period, setPeriod] = usePeriod();
  const [params, setParams] = useSearchParams();
  const stateParam = params.get("state");
  const state = (JOURNAL_STATES as readonly string[]).includes(stateParam ?? "")
    ? (stateParam as State)
    : undefined;
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const [revaluing, setRevaluing] = useState(false);
  const query = {
    limit: LIST_PAGE_SIZE,
    offset: (page - 1) * LIST_PAGE_SIZE,
    ...(period.start && period.end ? { startDate: period.start, endDate: period.end } : {}),
    ...(state ? { state } : {}),
  };
  const list = useQuery({
    queryKey: [...JOURNAL_KEY, "list", query],
    queryFn: () => api.journal.list.query(query),
    placeholderData: keepPreviousData,
  });
  const setState = (next: State | undefined) => {
    const search = new URLSearchParams(params);
    if (next) search.set("state", next);
    else search.delete("state");
    setParams(search, { replace: true });
    setPage(1);
  };

  return (
    <div>
      <Space style={{ width: "100%", justifyContent: "space-between", marginBottom: 16 }} wrap>
        <Typography.Title level={1} style={{ margin: 0 }}>
          {t("journal.title")}
        </Typography.Title>
        <Space wrap>
          <Button onClick={() => setRevaluing(true)} data-testid="revalue">
            {t("journal.revalue")}
          </Button>
          <Button type="primary" onClick={() => setCreating(true)} data-testid="new-journal-entry">
            {t("journal.new")}
          </Button>
        </Space>
      </Space>
      <Space wrap style={{ marginBottom: 16 }} role="search" aria-label={t("journal.filters")}>
        <PeriodFilter
          value={period}
          onChange={(next) => {
            setPeriod(next);
            setPage(1);
          }}
        />
        <Select
          aria-label={t("journal.state")}
          data-testid="filter-state"
          style={{ width: 190 }}
          value={state ?? ""}
          onChange={(value) => setState((value || undefined) as State | undefined)}
          options={[
            { value: "", label: t("journal.allStates") },
            ...JOURNAL_STATES.map((each) => ({ value: each, label: t(`journal.states.${each}`) })),
          ]}
        />
      </Space>
      <QueryState query={list} rows={8}>
        {(data) => (
          <Table
            rowKey="id"
            dataSource={data.items}
            data-testid="journal-table"
            locale={{ emptyText: t("journal.empty") }}
            pagination={{
              current: page,
              pageSize: LIST_PAGE_SIZE,
              total: data.total,
              onChange: setPage,
              showSizeChanger: false,
            }}
            onRow={(row) => ({ onDoubleClick: () => navigate(`/journal/${row.id}`) })}
            columns={[
              {
                title: t("journal.date"),
                dataIndex: "date",
                render: (date: string) => (
                  <span style={{ whiteSpace: "nowrap" }}>{formatDate(date, locale)}</span>
                ),
              },
              {
                title: t("journal.number"),
                dataIndex: "number",
                render: (number: number, row: TJournalDto) => <Link to={`/journal/${row.id}`}>{number}</Link>,
              },
              {
                title: t("journal.memo"),
                dataIndex: "memo",
                render: (memo: string, row: TJournalDto) => (
                  <span style={{ overflowWrap: "anywhere" }}>{memo || t(`journal.kinds.${row.kind}`)}</span>
                ),
              },
              {
                title: t("journal.state"),
                dataIndex: "state",
                render: (each: State) => <JournalStateTag state={each} />,
              },
              {
                title: t("journal.total"),
                dataIndex: "total",
                align: "right" as const,
                render: (total: string, row: TJournalDto) => (
                  <span style={{ whiteSpace: "nowrap" }}>
                    {row.baseCurrency ? money(total, row.baseCurrency) : total}
                  </span>
                ),
              },
            ]}
          />
        )}
      </QueryState>
      {creating ? (
        <JournalForm onClose={() => setCreating(false)} onSaved={(id) => navigate(`/journal/${id}`)} />
      ) : null}
      {revaluing ? (
        <RevaluationDialog
          onClose={() => setRevaluing(false)}
          onPosted={(id) => navigate(`/journal/${id}`)}
        />
      ) : null}
    </div>
  );
};
