import type { TJournalDetailDto } from "@hisob/finance/schema";
import { describeFailure, formatDate, QueryState, todayIso, useLocale } from "@hisob/ui";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { App as AntApp, Button, Card, Descriptions, Popconfirm, Space, Table, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useParams } from "react-router-dom";
import { KEYS, useApi, useMoney } from "../../api-context";
import { AttachmentLinks } from "../../components/attachments";
import { DateInput } from "../../components/date-input";
import { Field } from "../../components/field";
import { FormModal } from "../../components/form-modal";
import { useSubmitOnce } from "../../forms";
import { JournalForm } from "./journal-form";
import { accountName, amountColumn, JOURNAL_KEY, JournalStateTag, useDatedPosting } from "./journal-parts";

/*
 * One journal entry (docs/decisions/0100-manual-journals-and-revaluation.md): its lines; a draft is
 * changed, deleted or posted (once: one idempotency key per screen), a posted entry is reversed.
 */

type Line = TJournalDetailDto["lines"][number];

export const JournalDetailScreen = () => {
  const { id = "" } = useParams();
  const api = useApi();
  const entry = useQuery({
    queryKey: [...JOURNAL_KEY, "detail", id],
    queryFn: () => api.journal.get.query({ id }),
  });
  return (
    <QueryState query={entry} rows={8}>
      {(data) => <JournalDetail entry={data} />}
    </QueryState>
  );
};

const JournalDetail = ({ entry }: { entry: TJournalDetailDto }) => {
  const { t } = useTranslation();
  const locale = useLocale();
  const money = useMoney(locale);
  const api = useApi();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { message } = AntApp.useApp();
  const [editing, setEditing] = useState(false);
  const [reversing, setReversing] = useState(false);
  const posting = useSubmitOnce();
  const related = useQuery({
    queryKey: [...JOURNAL_KEY, "detail", entry.reversalOfId ?? entry.reversedById ?? "none"],
    queryFn: () => api.journal.get.query({ id: entry.reversalOfId ?? entry.reversedById ?? "" }),
    enabled: Boolean(entry.reversalOfId ?? entry.reversedById),
  });
  const refresh = () =>
    Promise.all([JOURNAL_KEY, KEYS.reports].map((queryKey) => queryClient.invalidateQueries({ queryKey })));
  const post = useMutation({
    mutationFn: () => api.journal.post.mutate({ id: entry.id }, { context: { idempotencyKey: posting.key } }),
  });
  const remove = useMutation({ mutationFn: () => api.journal.delete.mutate({ id: entry.id }) });
  const base = entry.baseCurrency ?? "";
  const amount = (minor: string, currency: string) => (minor === "0" ? "" : money(minor, currency));

  return (
    <div>
      <Space style={{ width: "100%", justifyContent: "space-between", marginBottom: 16 }} wrap>
        <Space direction="vertical" size={0}>
          <Link to="/journal">← {t("journal.back")}</Link>
          <Typography.Title level={1} style={{ margin: 0 }}>
            {t(`journal.kinds.${entry.kind}`)} № {entry.number}
          </Typography.Title>
        </Space>
        <Space wrap>
          {entry.state === "draft" ? (
            <>
              <Button onClick={() => setEditing(true)} data-testid="edit-journal-entry">
                {t("journal.edit")}
              </Button>
              <Popconfirm
                title={t("journal.deleteConfirm")}
                okText={t("journal.delete")}
                cancelText={t("ui:cancel")}
                okButtonProps={{ danger: true, loading: remove.isPending }}
                onConfirm={async () => {
                  try {
                    await remove.mutateAsync();
                    await refresh();
                    void message.success(t("journal.deleted"));
                    navigate("/journal");
                  } catch (error) {
                    void message.error(describeFailure(error, t).message);
                  }
                }}
              >
                <Button danger data-testid="delete-journal-entry">
                  {t("journal.delete")}
                </Button>
              </Popconfirm>
              <Popconfirm
                title={t("journal.postConfirm")}
                okText={t("journal.post")}
                cancelText={t("ui:cancel")}
                okButtonProps={{ loading: posting.busy }}
                onConfirm={() =>
                  posting.run(async () => {
                    try {
                      await post.mutateAsync();
                      await refresh();
                      void message.success(t("journal.posted"));
                    } catch (error) {
                      void message.error(describeFailure(error, t).message);
                    }
                  })
                }
              >
                <Button type="primary" loading={posting.busy} data-testid="post-journal-entry">
                  {t("journal.post")}
                </Button>
              </Popconfirm>
            </>
          ) : null}
          {entry.state === "posted" && entry.reversalOfId === null ? (
            <Button danger onClick={() => setReversing(true)} data-testid="reverse-journal-entry">
              {t("journal.reverse")}
            </Button>
          ) : null}
        </Space>
      </Space>
      <Card style={{ marginBottom: 16 }}>
        <Descriptions column={{ xs: 1, md: 3 }} size="small">
          <Descriptions.Item label={t("journal.date")}>{formatDate(entry.date, locale)}</Descriptions.Item>
          <Descriptions.Item label={t("journal.state")}>
            <JournalStateTag state={entry.state} />
          </Descriptions.Item>
          <Descriptions.Item label={t("journal.total")}>
            <span data-testid="journal-total">{base ? money(entry.total, base) : entry.total}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t("journal.memo")} span={3}>
            <span style={{ overflowWrap: "anywhere" }}>{entry.memo}</span>
          </Descriptions.Item>
          {entry.reversalOfId ? (
            <Descriptions.Item label={t("journal.reversal")} span={3}>
              <Link to={`/journal/${entry.reversalOfId}`} data-testid="reversal-of">
                {t("journal.reversalOf", { number: related.data?.number ?? "…" })}
              </Link>
            </Descriptions.Item>
          ) : null}
          {entry.reversedById ? (
            <Descriptions.Item label={t("journal.reversal")} span={3}>
              <Link to={`/journal/${entry.reversedById}`} data-testid="reversed-by">
                {t("journal.reversedBy", { number: related.data?.number ?? "…" })}
              </Link>
            </Descriptions.Item>
          ) : null}
          {entry.attachments.length > 0 ? (
            <Descriptions.Item label={t("journal.attachments", { count: entry.attachments.length })} span={3}>
              <AttachmentLinks attachments={entry.attachments} />
            </Descriptions.Item>
          ) : null}
        </Descriptions>
      </Card>
      <Table
        rowKey="id"
        size="small"
        data-testid="journal-entry-lines"
        dataSource={entry.lines}
        pagination={false}
        columns={[
          {
            title: t("journal.account"),
            render: (_: unknown, line: Line) => (
              <span>
                <strong>{line.code}</strong> {accountName(line, locale)}
              </span>
            ),
          },
          { title: t("journal.lineMemo"), dataIndex: "memo" },
          amountColumn(t("journal.debit"), (line: Line) => amount(line.debit, line.currency)),
          amountColumn(t("journal.credit"), (line: Line) => amount(line.credit, line.currency)),
          amountColumn(t("journal.baseAmount", { base }), (line: Line) =>
            base ? money(line.baseAmount, base) : line.baseAmount,
          ),
        ]}
      />
      {editing ? (
        <JournalForm draft={entry} onClose={() => setEditing(false)} onSaved={() => setEditing(false)} />
      ) : null}
      {reversing ? (
        <ReverseForm
          entry={entry}
          onClose={() => setReversing(false)}
          onReversed={(reversalId) => {
            setReversing(false);
            navigate(`/journal/${reversalId}`);
          }}
        />
      ) : null}
    </div>
  );
};

/** The reversal's date (today by default, not before the entry's), posted once. */
const ReverseForm = (props: {
  entry: TJournalDetailDto;
  onClose: () => void;
  onReversed: (reversalId: string) => void;
}) => {
  const { t } = useTranslation();
  const api = useApi();
  const today = todayIso();
  const posting = useDatedPosting({
    initialDate: today < props.entry.date ? props.entry.date : today,
    post: (date, idempotencyKey) =>
      api.journal.reverse.mutate({ id: props.entry.id, data: { date } }, { context: { idempotencyKey } }),
    done: t("journal.reversed"),
    onPosted: (reversal) => props.onReversed(reversal.id),
  });
  return (
    <FormModal
      id="journal-reverse"
      title={t("journal.reverseTitle", { number: props.entry.number })}
      open
      busy={posting.busy}
      error={posting.formError}
      submitLabel={t("journal.reverse")}
      onSubmit={posting.submit}
      onCancel={props.onClose}
    >
      <Typography.Paragraph type="secondary">{t("journal.reverseIntro")}</Typography.Paragraph>
      <Field id="reverse-date" label={t("journal.reverseDate")} error={posting.dateError}>
        <DateInput id="reverse-date" value={posting.date} onChange={posting.setDate} invalid="report" />
      </Field>
    </FormModal>
  );
};
