import { describeFailure, type Locale, todayIso, useLocale } from "@hisob/ui";
import { formatDecimal, NumberInput, RATE_RULES, readNumber } from "@hisob/ui/numbers";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Alert, Table, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useApi, useMoney } from "../../api-context";
import { DateInput } from "../../components/date-input";
import { Field } from "../../components/field";
import { FormModal } from "../../components/form-modal";
import { accountName, amountColumn, JOURNAL_KEY, useDatedPosting } from "./journal-parts";

/** A row of the preview: a money account, or a counterparty's open balance on an account of the chart. */
type PreviewRow = {
  key: string;
  label: string;
  testId: string;
  currency: string;
  balance: string;
  bookedBase: string;
  rate: string | null;
  revaluedBase: string | null;
  difference: string;
};

/*
 * Period-end revaluation (docs/decisions/0100-manual-journals-and-revaluation.md): as of a day, each
 * foreign-currency account's balance at a rate (the last known by default, editable per currency),
 * previewed — what it would post, per account, and the gain and loss — before it posts, once.
 */

/** The rates typed so far that read as rates; the others take the last known until they do. */
const typedRates = (typed: Record<string, string>, locale: Locale) =>
  Object.entries(typed).flatMap(([currency, text]) => {
    const reading = text.trim() ? readNumber(text, locale, RATE_RULES) : null;
    return reading?.ok ? [{ currency, rate: reading.decimal }] : [];
  });

export const RevaluationDialog = (props: { onClose: () => void; onPosted: (id: string) => void }) => {
  const { t } = useTranslation();
  const locale = useLocale();
  const money = useMoney(locale);
  const api = useApi();
  const [typed, setTyped] = useState<Record<string, string>>({});
  const rates = typedRates(typed, locale);
  const posting = useDatedPosting({
    initialDate: todayIso(),
    post: (date, idempotencyKey) =>
      api.journal.revalue.mutate(
        { date, rates, memo: t("journal.revaluation.memo") },
        { context: { idempotencyKey } },
      ),
    done: t("journal.revaluation.posted"),
    onPosted: (posted) => props.onPosted(posted.id),
  });
  const { date } = posting;
  const ratesParam = rates.map((each) => `${each.currency}:${each.rate}`).join(",");
  const preview = useQuery({
    queryKey: [...JOURNAL_KEY, "revaluation", date, ratesParam],
    queryFn: () =>
      api.journal.previewRevaluation.query({ date, ...(ratesParam ? { rates: ratesParam } : {}) }),
    enabled: posting.dateOk,
    placeholderData: keepPreviousData,
  });
  const base = preview.data?.baseCurrency ?? "";
  // Money accounts first, then open receivables and payables per account and counterparty
  // (docs/decisions/0111-books-features.md); the same figures for both.
  const rows: PreviewRow[] = [
    ...(preview.data?.rows ?? []).map((row) => ({
      ...row,
      key: row.moneyAccountId,
      label: row.name,
      testId: `revaluation-difference-${row.currency}`,
    })),
    ...(preview.data?.counterparties ?? []).map((row) => ({
      ...row,
      key: `${row.glAccountId}:${row.counterpartyId}:${row.currency}`,
      label: `${row.code} ${accountName(row, locale)} · ${row.counterparty}`,
      testId: `revaluation-difference-${row.code}-${row.currency}`,
    })),
  ];
  const currencies = [...new Set(rows.map((row) => row.currency))];

  return (
    <FormModal
      id="revaluation-form"
      title={t("journal.revaluation.title")}
      open
      width={1000}
      busy={posting.busy}
      error={posting.formError}
      submitLabel={t("journal.revaluation.post")}
      onSubmit={posting.submit}
      onCancel={props.onClose}
    >
      <Typography.Paragraph type="secondary">{t("journal.revaluation.intro")}</Typography.Paragraph>
      <div style={{ display: "flex", gap: 24, flexWrap: "wrap" }}>
        <div style={{ width: 220 }}>
          <Field id="revaluation-date" label={t("journal.revaluation.asOf")} error={posting.dateError}>
            <DateInput id="revaluation-date" value={date} onChange={posting.setDate} invalid="report" />
          </Field>
        </div>
        {currencies.map((currency) => {
          const known = rows.find((row) => row.currency === currency)?.rate ?? null;
          return (
            <div key={currency} style={{ width: 240 }}>
              <Field
                id={`rate-${currency}`}
                label={`${t("journal.revaluation.rate")}: ${t("journal.rateHint", { base, currency })}`}
              >
                <NumberInput
                  id={`rate-${currency}`}
                  value={typed[currency] ?? ""}
                  onChange={(text) => setTyped((current) => ({ ...current, [currency]: text }))}
                  rules={RATE_RULES}
                  subject={{ kind: "rate" }}
                  preview={(reading) => formatDecimal(reading.decimal, locale)}
                  suffix={
                    known && !typed[currency] ? (
                      <Typography.Text type="secondary">{formatDecimal(known, locale)}</Typography.Text>
                    ) : null
                  }
                />
              </Field>
            </div>
          );
        })}
      </div>
      <Typography.Title level={5}>{t("journal.revaluation.preview")}</Typography.Title>
      <Table<PreviewRow>
        rowKey="key"
        size="small"
        data-testid="revaluation-preview"
        loading={preview.isFetching}
        dataSource={rows}
        pagination={false}
        locale={{ emptyText: t("journal.revaluation.nothing") }}
        scroll={{ x: true }}
        columns={[
          { title: t("journal.revaluation.account"), dataIndex: "label" },
          amountColumn(t("journal.revaluation.balance"), (row: PreviewRow) =>
            money(row.balance, row.currency),
          ),
          amountColumn(t("journal.revaluation.booked"), (row: PreviewRow) =>
            base ? money(row.bookedBase, base) : "",
          ),
          {
            title: t("journal.revaluation.rate"),
            align: "right" as const,
            render: (_: unknown, row) =>
              (row.rate ? formatDecimal(row.rate, locale) : null) ?? (
                <Typography.Text type="warning">{t("journal.revaluation.noRate")}</Typography.Text>
              ),
          },
          amountColumn(t("journal.revaluation.revalued"), (row: PreviewRow) =>
            row.revaluedBase && base ? money(row.revaluedBase, base) : "",
          ),
          {
            title: t("journal.revaluation.difference"),
            align: "right" as const,
            render: (_: unknown, row) => (
              <Typography.Text
                type={
                  row.difference.startsWith("-") ? "danger" : row.difference === "0" ? undefined : "success"
                }
                style={{ whiteSpace: "nowrap" }}
                data-testid={row.testId}
              >
                {base ? money(row.difference, base) : row.difference}
              </Typography.Text>
            ),
          },
        ]}
      />
      {preview.data ? (
        <div
          style={{ display: "flex", gap: 24, justifyContent: "flex-end", marginTop: 12 }}
          data-testid="revaluation-totals"
        >
          <span>
            {t("journal.revaluation.gain")}: <strong>{base ? money(preview.data.gain, base) : ""}</strong>
          </span>
          <span>
            {t("journal.revaluation.loss")}: <strong>{base ? money(preview.data.loss, base) : ""}</strong>
          </span>
        </div>
      ) : null}
      {preview.isError ? (
        <Alert
          type="error"
          showIcon
          title={describeFailure(preview.error, t).message}
          style={{ marginTop: 12 }}
        />
      ) : null}
    </FormModal>
  );
};
