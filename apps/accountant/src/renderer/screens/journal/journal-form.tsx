import {
  MAX_JOURNAL_ATTACHMENTS,
  multiplyRateWithin,
  type TJournalDetailDto,
  ZCreateJournalInput,
} from "@hisob/finance/schema";
import { describeFailure, todayIso, useLocale } from "@hisob/ui";
import { maxLengthOf } from "@hisob/ui/limits";
import {
  AmountInput,
  amountRules,
  formatDecimal,
  NumberInput,
  RATE_RULES,
  readNumber,
} from "@hisob/ui/numbers";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { App as AntApp, Button, Input, Select, Typography, type UploadFile } from "antd";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useApi, useMinorUnits, useMoney } from "../../api-context";
import { AttachmentsUpload, attachedFile, uploadedIds } from "../../components/attachments";
import { DateInput, useDateRule } from "../../components/date-input";
import { FormField } from "../../components/field";
import { FormModal } from "../../components/form-modal";
import { CounterpartyPicker } from "../../components/pickers";
import { checkWith, failureErrors, showFieldErrors, useSubmitOnce } from "../../forms";
import { JOURNAL_KEY, type LeafAccount, useBaseCurrency, useLeafAccounts } from "./journal-parts";

/*
 * A journal entry's draft (docs/decisions/0100-manual-journals-and-revaluation.md): a date, a memo and a
 * grid of lines — an account of the chart, a debit or a credit read as the user's language writes
 * amounts, a rate for an account in another currency, a counterparty on a receivable or payable account.
 * Under the grid, the totals and the running difference in the base currency, which must be zero.
 */

type Line = {
  key: number;
  glAccountId: string | null;
  debit: string;
  credit: string;
  rate: string;
  counterpartyId: string | null;
  memo: string;
};

type Values = { date: string; memo: string };
const FIELDS = ["date", "memo"] as const;
const MEMO_MAX = maxLengthOf(ZCreateJournalInput.shape.memo);
const LINE_FIELDS = ["glAccountId", "debit", "credit", "rate", "counterpartyId", "memo"] as const;

let nextKey = 1;
const emptyLine = (): Line => ({
  key: nextKey++,
  glAccountId: null,
  debit: "",
  credit: "",
  rate: "",
  counterpartyId: null,
  memo: "",
});

const fromDetail = (
  detail: TJournalDetailDto,
  text: (minor: string, currency: string) => string,
  decimalMark: string,
): Line[] =>
  detail.lines.map((line) => ({
    key: nextKey++,
    glAccountId: line.glAccountId,
    debit: line.debit === "0" ? "" : text(line.debit, line.currency),
    credit: line.credit === "0" ? "" : text(line.credit, line.currency),
    rate: line.rate && line.rate !== "1" ? line.rate.replace(".", decimalMark) : "",
    counterpartyId: line.counterpartyId,
    memo: line.memo,
  }));

export const JournalForm = (props: {
  /** A draft to change; none: a new entry. */
  draft?: TJournalDetailDto;
  onClose: () => void;
  onSaved: (id: string) => void;
}) => {
  const { t } = useTranslation();
  const locale = useLocale();
  const api = useApi();
  const queryClient = useQueryClient();
  const { message } = AntApp.useApp();
  const minorUnits = useMinorUnits();
  const money = useMoney(locale);
  const base = useBaseCurrency();
  const { leaves, byId, query: chart } = useLeafAccounts();
  const dateRule = useDateRule();
  const once = useSubmitOnce();
  const [formError, setFormError] = useState<string | null>(null);
  const [lineErrors, setLineErrors] = useState<Record<string, string>>({});
  const plain = (minor: string, currency: string) => {
    const digits = minorUnits(currency);
    const padded = minor.padStart(digits + 1, "0");
    const whole = padded.slice(0, padded.length - digits);
    const fraction = padded.slice(padded.length - digits);
    return digits === 0 ? whole : `${whole}${locale === "en" ? "." : ","}${fraction}`;
  };
  const [lines, setLines] = useState<Line[]>(() =>
    props.draft ? fromDetail(props.draft, plain, locale === "en" ? "." : ",") : [emptyLine(), emptyLine()],
  );
  const [files, setFiles] = useState<UploadFile[]>(() => (props.draft?.attachments ?? []).map(attachedFile));
  const form = useForm<Values>({
    mode: "onTouched",
    defaultValues: { date: props.draft?.date ?? todayIso(), memo: props.draft?.memo ?? "" },
  });

  const currencyOf = (account: LeafAccount | undefined) => account?.currency ?? base ?? "";
  const needsRate = (account: LeafAccount | undefined) =>
    Boolean(account?.currency && base && account.currency !== base);

  /** A line's amount (minor units, debit positive) and its base-currency value, or null while unreadable. */
  const lineValue = (line: Line) => {
    const account = line.glAccountId ? byId.get(line.glAccountId) : undefined;
    const currency = currencyOf(account);
    const rules = amountRules(currency, minorUnits(currency));
    const debit = line.debit.trim() ? readNumber(line.debit, locale, rules) : null;
    const credit = line.credit.trim() ? readNumber(line.credit, locale, rules) : null;
    if ((debit && !debit.ok) || (credit && !credit.ok)) return null;
    const amount = (debit?.ok ? debit.scaled : 0n) - (credit?.ok ? credit.scaled : 0n);
    if (!needsRate(account)) return { amount, base: amount };
    const rate = line.rate.trim() ? readNumber(line.rate, locale, RATE_RULES) : null;
    // A value beyond what an amount can hold is unreadable like a typo (the server refuses it at the rate).
    const base = rate?.ok ? multiplyRateWithin(amount, rate.decimal) : null;
    return base === null ? null : { amount, base };
  };
  const values = lines.map(lineValue);
  const debits = values.reduce((sum, value) => sum + (value && value.base > 0n ? value.base : 0n), 0n);
  const credits = values.reduce((sum, value) => sum + (value && value.base < 0n ? -value.base : 0n), 0n);
  const difference = debits - credits;
  const baseMoney = (minor: bigint) => (base ? money(minor < 0n ? -minor : minor, base) : "");

  const change = (key: number, patch: Partial<Line>) =>
    setLines((current) => current.map((line) => (line.key === key ? { ...line, ...patch } : line)));

  const save = useMutation({
    mutationFn: (input: Record<string, unknown>) =>
      props.draft
        ? api.journal.update.mutate({
            id: props.draft.id,
            data: input as Parameters<typeof api.journal.update.mutate>[0]["data"],
          })
        : api.journal.create.mutate(input as Parameters<typeof api.journal.create.mutate>[0], {
            context: { idempotencyKey: once.key },
          }),
  });

  const showErrors = (errors: Record<string, string>) => {
    const perLine: Record<string, string> = {};
    const rest: Record<string, string> = {};
    for (const [path, text] of Object.entries(errors)) {
      if (/^lines\.\d+\./.test(path)) perLine[path] = text;
      else if (path === "lines") rest.form = text;
      else rest[path] = text;
    }
    setLineErrors(perLine);
    const left = showFieldErrors(form.setError, FIELDS, rest);
    return left;
  };

  const submit = form.handleSubmit(async (formValues) => {
    setFormError(null);
    setLineErrors({});
    if (files.some((file) => file.status === "uploading")) {
      setFormError(t("attachments.stillUploading"));
      return;
    }
    const input = {
      date: formValues.date,
      memo: formValues.memo,
      attachmentIds: uploadedIds(files),
      lines: lines.map((line) => {
        const account = line.glAccountId ? byId.get(line.glAccountId) : undefined;
        const currency = currencyOf(account);
        const rules = amountRules(currency, minorUnits(currency));
        const read = (text: string) => {
          if (!text.trim()) return "0";
          const reading = readNumber(text, locale, rules);
          return reading.ok ? reading.scaled.toString() : text;
        };
        const rate = line.rate.trim() ? readNumber(line.rate, locale, RATE_RULES) : null;
        return {
          glAccountId: line.glAccountId ?? "",
          debit: read(line.debit),
          credit: read(line.credit),
          rate: needsRate(account) ? (rate?.ok ? rate.decimal : line.rate || null) : null,
          counterpartyId: account?.takesCounterparty ? line.counterpartyId : null,
          memo: line.memo,
        };
      }),
    };
    const checked = checkWith(ZCreateJournalInput, input, (path) =>
      path.endsWith(".glAccountId") ? t("journal.chooseAccount") : undefined,
    );
    if (!checked.ok) {
      const left = showErrors(checked.errors);
      if (left.length) setFormError(left.join(" "));
      return;
    }
    if (difference !== 0n) {
      setFormError(t("journal.differenceMustBeZero", { difference: baseMoney(difference) }));
      return;
    }
    try {
      const saved = await save.mutateAsync(input);
      await queryClient.invalidateQueries({ queryKey: JOURNAL_KEY });
      void message.success(t("journal.saved"));
      props.onSaved(saved.id);
    } catch (error) {
      // The form stays open with what was typed; the server's words go next to the field they name.
      const failure = describeFailure(error, t);
      const left = showErrors(failureErrors(failure));
      setFormError(left.length || failure.issues.length === 0 ? failure.message : left.join(" ") || null);
      if (failure.reason === "finance.journal_unbalanced") setFormError(failure.message);
    }
  });

  return (
    <FormModal
      id="journal-form"
      title={props.draft ? t("journal.edit") : t("journal.new")}
      open
      width={1100}
      busy={once.busy}
      error={formError}
      submitLabel={t("journal.saveDraft")}
      onSubmit={() => void once.run(submit)}
      onCancel={props.onClose}
    >
      <div style={{ display: "grid", gridTemplateColumns: "220px 1fr", gap: 16 }}>
        <FormField
          control={form.control}
          name="date"
          id="journal-date"
          label={t("journal.date")}
          rules={{ validate: dateRule() }}
          render={({ bound }) => <DateInput {...bound} value={String(bound.value ?? "")} invalid="report" />}
        />
        <FormField
          control={form.control}
          name="memo"
          id="journal-memo"
          label={t("journal.memo")}
          render={({ field, status }) => (
            <Input {...field} id="journal-memo" maxLength={MEMO_MAX} status={status} />
          )}
        />
      </div>
      <div style={{ marginBottom: 16 }}>
        <label htmlFor="journal-attachments" style={{ display: "block", marginBottom: 4, fontWeight: 500 }}>
          {t("journal.attachmentsLabel")}
        </label>
        <AttachmentsUpload
          id="journal-attachments"
          files={files}
          onChange={setFiles}
          max={MAX_JOURNAL_ATTACHMENTS}
        />
      </div>
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {t("journal.lines")}
      </Typography.Title>
      <div data-testid="journal-lines">
        <div style={{ display: "grid", gridTemplateColumns: GRID, gap: 8, fontWeight: 500, marginBottom: 4 }}>
          <span>{t("journal.account")}</span>
          <span>{t("journal.debit")}</span>
          <span>{t("journal.credit")}</span>
          <span>{t("journal.counterparty")}</span>
          <span>{t("journal.lineMemo")}</span>
          <span />
        </div>
        {lines.map((line, index) => {
          const account = line.glAccountId ? byId.get(line.glAccountId) : undefined;
          const currency = currencyOf(account);
          const digits = minorUnits(currency);
          const error = (field: (typeof LINE_FIELDS)[number]) => lineErrors[`lines.${index}.${field}`];
          const n = index + 1;
          return (
            <div key={line.key} data-testid={`journal-line-${index}`} style={{ marginBottom: 8 }}>
              <div style={{ display: "grid", gridTemplateColumns: GRID, gap: 8, alignItems: "start" }}>
                <div>
                  <Select
                    id={`line-${index}-account`}
                    aria-label={`${t("journal.line", { n })}: ${t("journal.account")}`}
                    showSearch
                    optionFilterProp="label"
                    placeholder={t("journal.chooseAccount")}
                    loading={chart.isPending}
                    status={error("glAccountId") ? "error" : ""}
                    style={{ width: "100%" }}
                    value={line.glAccountId ?? undefined}
                    onChange={(value: string) => change(line.key, { glAccountId: value })}
                    options={leaves.map((leaf) => ({ value: leaf.id, label: leaf.label }))}
                    popupMatchSelectWidth={420}
                  />
                  <LineError text={error("glAccountId")} />
                </div>
                <div>
                  <AmountInput
                    id={`line-${index}-debit`}
                    aria-label={`${t("journal.line", { n })}: ${t("journal.debit")}`}
                    value={line.debit}
                    onChange={(text) => change(line.key, { debit: text })}
                    currency={currency || undefined}
                    minorUnits={digits}
                    status={error("debit") ? "error" : ""}
                  />
                  <LineError text={error("debit")} />
                </div>
                <div>
                  <AmountInput
                    id={`line-${index}-credit`}
                    aria-label={`${t("journal.line", { n })}: ${t("journal.credit")}`}
                    value={line.credit}
                    onChange={(text) => change(line.key, { credit: text })}
                    currency={currency || undefined}
                    minorUnits={digits}
                    status={error("credit") ? "error" : ""}
                  />
                  <LineError text={error("credit")} />
                </div>
                <div>
                  {account?.takesCounterparty ? (
                    <CounterpartyPicker
                      id={`line-${index}-counterparty`}
                      aria-label={`${t("journal.line", { n })}: ${t("journal.counterparty")}`}
                      value={line.counterpartyId}
                      onChange={(value) => change(line.key, { counterpartyId: value })}
                    />
                  ) : null}
                  <LineError text={error("counterpartyId")} />
                </div>
                <div>
                  <Input
                    id={`line-${index}-memo`}
                    aria-label={`${t("journal.line", { n })}: ${t("journal.lineMemo")}`}
                    value={line.memo}
                    maxLength={500}
                    onChange={(event) => change(line.key, { memo: event.target.value })}
                  />
                  <LineError text={error("memo")} />
                </div>
                <div>
                  <Button
                    aria-label={t("journal.removeLine", { n })}
                    data-testid={`remove-line-${index}`}
                    disabled={lines.length <= 2}
                    onClick={() => setLines((current) => current.filter((each) => each.key !== line.key))}
                  >
                    ×
                  </Button>
                </div>
              </div>
              {needsRate(account) ? (
                <div style={{ maxWidth: 360, marginTop: 4 }}>
                  <label htmlFor={`line-${index}-rate`}>
                    {t("journal.rate")} ({t("journal.rateHint", { base, currency })})
                  </label>
                  <NumberInput
                    id={`line-${index}-rate`}
                    value={line.rate}
                    onChange={(text) => change(line.key, { rate: text })}
                    rules={RATE_RULES}
                    subject={{ kind: "rate" }}
                    status={error("rate") ? "error" : ""}
                    preview={(reading) => formatDecimal(reading.decimal, locale)}
                  />
                  <LineError text={error("rate")} />
                </div>
              ) : null}
            </div>
          );
        })}
      </div>
      <Button onClick={() => setLines((current) => [...current, emptyLine()])} data-testid="add-line">
        {t("journal.addLine")}
      </Button>
      <div
        style={{ display: "flex", gap: 24, justifyContent: "flex-end", marginTop: 12, flexWrap: "wrap" }}
        data-testid="journal-totals"
      >
        <span>
          {t("journal.debit")}: <strong>{baseMoney(debits)}</strong>
        </span>
        <span>
          {t("journal.credit")}: <strong>{baseMoney(credits)}</strong>
        </span>
        <span aria-live="polite" data-testid="journal-difference">
          {difference === 0n ? (
            <Typography.Text type="success">{t("journal.balanced")}</Typography.Text>
          ) : (
            <Typography.Text type="danger">
              {t("journal.difference")}: <strong>{baseMoney(difference)}</strong>
            </Typography.Text>
          )}
        </span>
      </div>
    </FormModal>
  );
};

const GRID =
  "minmax(220px, 2.2fr) minmax(150px, 1.3fr) minmax(150px, 1.3fr) minmax(160px, 1.4fr) minmax(120px, 1fr) 40px";

const LineError = ({ text }: { text: string | undefined }) =>
  text ? (
    <Typography.Text type="danger" role="alert" style={{ display: "block", fontSize: 12 }}>
      {text}
    </Typography.Text>
  ) : null;
