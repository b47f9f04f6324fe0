import type { ZAuditEntryDto } from "@hisob/core/schema";
import { ListPage, type Page, queryString, useListData, useLocale, usePaging } from "@hisob/ui";
import { Button, DatePicker, Input, Select, Space, Table, Tag, Typography } from "antd";
import type { Dayjs } from "dayjs";
import { useCallback, useMemo, useState } from "react";
import type { z } from "zod";
import { useActingTenantId } from "../acting";
import { api } from "../api";
import {
  AUDIT_ENTITIES,
  auditActionLabel,
  auditEntityLabel,
  auditFieldLabel,
  auditFieldValue,
  auditNames,
} from "../audit-labels";
import { useFormatDate, useT } from "../i18n";

/* The audit log keeps its hand-written route (its export takes no `?lang=`): its schema types it. */
type Entry = z.output<typeof ZAuditEntryDto>;

/** Before → after of each changed field, one line per field. */
const Changes = ({ entry, names }: { entry: Entry; names: Record<string, string> }) => {
  const language = useLocale();
  // Both sides together name the currency of an amount (an update may record only the amount).
  const record = { ...entry.after, ...entry.before };
  const show = (key: string, value: unknown) => auditFieldValue(language, key, value, record, names);
  const keys = [...new Set([...Object.keys(entry.before ?? {}), ...Object.keys(entry.after ?? {})])];
  if (keys.length === 0) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <Space direction="vertical" size={0} style={{ maxWidth: 420 }}>
      {keys.map((key) => (
        <Typography.Text key={key} style={{ fontSize: 12 }} ellipsis={{ tooltip: true }}>
          <b title={key}>{auditFieldLabel(language, key)}</b>:{" "}
          {entry.before && key in entry.before ? <del>{show(key, entry.before[key])}</del> : null}
          {entry.before && key in entry.before && entry.after && key in entry.after ? " → " : null}
          {entry.after && key in entry.after ? show(key, entry.after[key]) : null}
        </Typography.Text>
      ))}
    </Space>
  );
};

export const AuditPage = () => {
  const t = useT();
  const language = useLocale();
  const formatDate = useFormatDate();
  const acting = useActingTenantId();
  const [filters, setFilters] = useState<{
    entity?: string;
    entityId?: string;
    userId?: string;
    from?: Dayjs | null;
    to?: Dayjs | null;
  }>({});
  const paging = usePaging(50);
  const filter = (change: Partial<typeof filters>) => {
    setFilters({ ...filters, ...change });
    paging.reset();
  };

  const filterQuery = {
    entity: filters.entity,
    entityId: filters.entityId?.trim(),
    userId: filters.userId,
    from: filters.from?.toISOString(),
    to: filters.to?.toISOString(),
  };
  const listUrl = `/audit${queryString({ ...filterQuery, limit: paging.limit, offset: paging.offset })}`;
  const fetchEntries = useCallback(() => api<Page<Entry>>("GET", listUrl), [listUrl]);
  const { data, error, load, loading } = useListData(fetchEntries);
  const names = useMemo(() => auditNames(data?.items ?? []), [data]);

  return (
    <ListPage
      title={t("audit.title")}
      error={error}
      onRetry={load}
      action={
        // A download cannot name another organization (decision 0084): only one's own log exports.
        acting ? undefined : (
          <Button href={`/audit/export${queryString(filterQuery)}`} download>
            {t("common.export")}
          </Button>
        )
      }
      filters={
        <>
          <Select
            aria-label={t("audit.entity")}
            placeholder={t("audit.entity")}
            allowClear
            value={filters.entity}
            options={AUDIT_ENTITIES.map((value) => ({ value, label: auditEntityLabel(language, value) }))}
            onChange={(entity?: string) => filter({ entity })}
            style={{ width: 200 }}
          />
          <Input
            aria-label={t("audit.entityId")}
            placeholder={t("audit.entityId")}
            allowClear
            value={filters.entityId}
            onChange={(event) => filter({ entityId: event.target.value })}
            style={{ width: 300 }}
          />
          <DatePicker
            aria-label={t("audit.from")}
            placeholder={t("audit.from")}
            showTime
            value={filters.from ?? null}
            onChange={(from) => filter({ from })}
          />
          <DatePicker
            aria-label={t("audit.to")}
            placeholder={t("audit.to")}
            showTime
            value={filters.to ?? null}
            onChange={(to) => filter({ to })}
          />
          {filters.userId && (
            <Tag closable onClose={() => filter({ userId: undefined })}>
              {t("audit.who")}: {filters.userId}
            </Tag>
          )}
        </>
      }
    >
      <Table<Entry>
        rowKey="id"
        size="small"
        loading={loading}
        dataSource={data?.items ?? []}
        pagination={paging.pagination(data?.total ?? 0, (total) => t("common.total", { count: total }))}
        onChange={paging.change}
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
                  onClick={() => filter({ userId: entry.userId ?? undefined })}
                >
                  {entry.userEmail ?? names[entry.userId] ?? entry.userId}
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
                {entry.entityId && names[entry.entityId] && <span>{names[entry.entityId]}</span>}
                {entry.entityId && (
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {entry.entityId}
                  </Typography.Text>
                )}
              </Space>
            ),
          },
          { title: t("audit.changes"), render: (_, entry) => <Changes entry={entry} names={names} /> },
          { title: t("audit.ip"), dataIndex: "ip", width: 120 },
        ]}
      />
    </ListPage>
  );
};
