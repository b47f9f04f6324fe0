import { Alert, Button, DatePicker, Input, Select, Space, Table, Tag, Typography } from "antd";
import type { Dayjs } from "dayjs";
import { useCallback, useContext, useEffect, useState } from "react";
import { api, type Page, query } from "../api";
import { AUDIT_ENTITIES, auditActionLabel, auditEntityLabel, auditFieldLabel } from "../audit-labels";
import { LanguageContext, useFormatDate, useT } from "../i18n";

type Entry = {
  id: string;
  tenantId: string | null;
  occurredAt: string;
  userId: string | null;
  userEmail: string | null;
  ip: string | null;
  userAgent: string | null;
  entity: string;
  entityId: string | null;
  action: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
};

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/**
 * A recorded value as a person reads it: times in the user's format, a list as its names (a role is
 * `{ id, name }`), nothing as a dash; anything else as it was recorded.
 */
const showValue = (value: unknown, formatDate: (iso: string) => string): string => {
  if (value === null || value === undefined || value === "") return "—";
  if (typeof value === "string") return ISO_TIME.test(value) ? formatDate(value) : value;
  if (Array.isArray(value))
    return value.length === 0 ? "—" : value.map((item) => showValue(item, formatDate)).join(", ");
  if (typeof value === "object" && typeof (value as { name?: unknown }).name === "string")
    return (value as { name: string }).name;
  return typeof value === "object" ? JSON.stringify(value) : String(value);
};

/** Before → after of each changed field, one line per field. */
const Changes = ({ entry }: { entry: Entry }) => {
  const language = useContext(LanguageContext);
  const formatDate = useFormatDate();
  const show = (value: unknown) => showValue(value, formatDate);
  const keys = [...new Set([...Object.keys(entry.before ?? {}), ...Object.keys(entry.after ?? {})])];
  if (keys.length === 0) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <Space direction="vertical" size={0} style={{ maxWidth: 420 }}>
      {keys.map((key) => (
        <Typography.Text key={key} style={{ fontSize: 12 }} ellipsis={{ tooltip: true }}>
          <b title={key}>{auditFieldLabel(language, key)}</b>:{" "}
          {entry.before && key in entry.before ? <del>{show(entry.before[key])}</del> : null}
          {entry.before && key in entry.before && entry.after && key in entry.after ? " → " : null}
          {entry.after && key in entry.after ? show(entry.after[key]) : null}
        </Typography.Text>
      ))}
    </Space>
  );
};

export const AuditPage = () => {
  const t = useT();
  const language = useContext(LanguageContext);
  const formatDate = useFormatDate();
  const [filters, setFilters] = useState<{
    entity?: string;
    entityId?: string;
    userId?: string;
    from?: Dayjs | null;
    to?: Dayjs | null;
  }>({});
  const [pageState, setPageState] = useState({ current: 1, pageSize: 50 });
  const [data, setData] = useState<Page<Entry> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);

  const filterQuery = {
    entity: filters.entity,
    entityId: filters.entityId?.trim(),
    userId: filters.userId,
    from: filters.from?.toISOString(),
    to: filters.to?.toISOString(),
  };
  const queryString = query({
    ...filterQuery,
    limit: pageState.pageSize,
    offset: (pageState.current - 1) * pageState.pageSize,
  });
  const load = useCallback(() => {
    setLoading(true);
    setError(null);
    api<Page<Entry>>("GET", `/audit${queryString}`)
      .then(setData, (caught: unknown) => setError(caught instanceof Error ? caught.message : String(caught)))
      .finally(() => setLoading(false));
  }, [queryString]);
  useEffect(() => {
    load();
  }, [load]);

  return (
    <Space direction="vertical" size="middle" style={{ width: "100%" }}>
      <Space style={{ width: "100%", justifyContent: "space-between" }}>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {t("audit.title")}
        </Typography.Title>
        <Button href={`/audit/export${query(filterQuery)}`} download>
          {t("common.export")}
        </Button>
      </Space>
      <Space wrap>
        <Select
          aria-label={t("audit.entity")}
          placeholder={t("audit.entity")}
          allowClear
          value={filters.entity}
          options={AUDIT_ENTITIES.map((value) => ({ value, label: auditEntityLabel(language, value) }))}
          onChange={(entity?: string) => setFilters({ ...filters, entity })}
          style={{ width: 200 }}
        />
        <Input
          aria-label={t("audit.entityId")}
          placeholder={t("audit.entityId")}
          allowClear
          value={filters.entityId}
          onChange={(event) => setFilters({ ...filters, entityId: event.target.value })}
          style={{ width: 300 }}
        />
        <DatePicker
          aria-label={t("audit.from")}
          placeholder={t("audit.from")}
          showTime
          value={filters.from ?? null}
          onChange={(from) => setFilters({ ...filters, from })}
        />
        <DatePicker
          aria-label={t("audit.to")}
          placeholder={t("audit.to")}
          showTime
          value={filters.to ?? null}
          onChange={(to) => setFilters({ ...filters, to })}
        />
        {filters.userId && (
          <Tag closable onClose={() => setFilters({ ...filters, userId: undefined })}>
            {t("audit.who")}: {filters.userId}
          </Tag>
        )}
      </Space>
      {error && (
        <Alert type="error" message={error} action={<Button onClick={load}>{t("common.retry")}</Button>} />
      )}
      <Table<Entry>
        rowKey="id"
        size="small"
        loading={loading}
        dataSource={data?.items ?? []}
        pagination={{
          current: pageState.current,
          pageSize: pageState.pageSize,
          total: data?.total ?? 0,
          showTotal: (total) => t("common.total", { count: total }),
        }}
        onChange={(pagination) =>
          setPageState({ current: pagination.current ?? 1, pageSize: pagination.pageSize ?? 50 })
        }
        columns={[
          {
            title: t("audit.when"),
            dataIndex: "occurredAt",
            width: 170,
            render: (value: string) => formatDate(value),
          },
          {
            title: t("audit.who"),
            render: (_, entry) =>
              entry.userId ? (
                <Button
                  type="link"
                  size="small"
                  style={{ padding: 0 }}
                  onClick={() => setFilters({ ...filters, userId: entry.userId ?? undefined })}
                >
                  {entry.userEmail ?? entry.userId}
                </Button>
              ) : (
                <Typography.Text type="secondary">{t("audit.system")}</Typography.Text>
              ),
          },
          {
            title: t("audit.action"),
            dataIndex: "action",
            render: (action: string) => <Tag title={action}>{auditActionLabel(language, action)}</Tag>,
          },
          {
            title: t("audit.entity"),
            render: (_, entry) => (
              <Space direction="vertical" size={0}>
                <span title={entry.entity}>
                  {auditEntityLabel(language, entry.entity)}{" "}
                  {entry.tenantId === null && <Tag color="purple">{t("audit.platform")}</Tag>}
                </span>
                {entry.entityId && (
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {entry.entityId}
                  </Typography.Text>
                )}
              </Space>
            ),
          },
          { title: t("audit.changes"), render: (_, entry) => <Changes entry={entry} /> },
          { title: t("audit.ip"), dataIndex: "ip", width: 120 },
        ]}
      />
    </Space>
  );
};
