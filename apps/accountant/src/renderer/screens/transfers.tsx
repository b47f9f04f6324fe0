import {
  applyRatio,
  EXCHANGE_GUARD_REASONS,
  marketQuoteOf,
  naturalQuoteBase,
  quoteRatio,
  ZExchangeInput,
  ZTransferInput,
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
  useNumberRule,
} from "@hisob/ui/numbers";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import {
  Alert,
  App as AntApp,
  Button,
  Card,
  Col,
  Input,
  Row,
  Segmented,
  Select,
  Space,
  Statistic,
  Typography,
} from "antd";
import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { invalidateMoney, useAllAccounts, useApi, useMinorUnits, useMoney } from "../api-context";
import { DateField } from "../components/date-input";
import { Field, FormField } from "../components/field";
import { checkWith, showFailure, showFieldErrors, useSubmitOnce } from "../forms";

type Mode = "transfer" | "exchange";
/** How an exchange is entered: the amount that arrived, or the bank's quote (1 base = rate quote). */
type How = "received" | "quote";
type Values = {
  fromAccountId: string;
  toAccountId: string;
  amount: string;
  how: How;
  amountReceived: string;
  quoteBase: string;
  quoteRate: string;
  date: string;
  comment: string;
};
const FIELDS = [
  "fromAccountId",
  "toAccountId",
  "amount",
  "amountReceived",
  "quoteRate",
  "date",
  "comment",
] as const;
const EMPTY: Values = {
  fromAccountId: "",
  toAccountId: "",
  amount: "",
  how: "received",
  amountReceived: "",
  quoteBase: "",
  quoteRate: "",
  date: "",
  comment: "",
};
/** The server's field names → this form's. */
const FORM_FIELD: Record<string, string> = {
  "marketRate.rate": "quoteRate",
  marketRate: "quoteRate",
  "marketRate.quote": "quoteRate",
  "marketRate.base": "quoteRate",
  rate: "quoteRate",
};
const GUARD_REASONS = new Set<string>(EXCHANGE_GUARD_REASONS);
const COMMENT_MAX = maxLengthOf(ZTransferInput.shape.comment);

/** "1 USD = 12 650 UZS" as the language writes numbers. */
const quoteText = (
  quote: { base: string; quote: string; rate: string },
  locale: Parameters<typeof formatDecimal>[1],
) => `1 ${quote.base} = ${formatDecimal(quote.rate, locale)} ${quote.quote}`;

export const TransfersScreen = () => {
  const { t } = useTranslation();
  const [mode, setMode] = useState<Mode>("transfer");
  return (
    <div>
      <Typography.Title level={1} style={{ marginTop: 0 }}>
        {t("transfers.title")}
      </Typography.Title>
      <Segmented
        aria-label={t("transfers.title")}
        value={mode}
        onChange={(value) => setMode(value as Mode)}
        options={[
          { value: "transfer", label: t("transfers.transfer") },
          { value: "exchange", label: t("transfers.exchange") },
        ]}
        style={{ marginBottom: 16 }}
      />
      <MovementForm key={mode} mode={mode} />
    </div>
  );
};

const MovementForm = ({ mode }: { mode: Mode }) => {
  const { t } = useTranslation();
  const locale = useLocale();
  const money = useMoney(locale);
  const minorUnits = useMinorUnits();
  const api = useApi();
  const queryClient = useQueryClient();
  const { message } = AntApp.useApp();
  const accounts = useAllAccounts();
  const numberRule = useNumberRule();
  const once = useSubmitOnce();
  const [formError, setFormError] = useState<string | null>(null);
  /**
   * The plausibility guard's warning and the very input it was given for: "Post at this rate" posts
   * exactly that input (confirmed), so the warning always describes what would be posted.
   */
  const [guard, setGuard] = useState<{ message: string; input: Record<string, unknown> } | null>(null);
  const form = useForm<Values>({ mode: "onTouched", defaultValues: { ...EMPTY, date: todayIso() } });
  // Counts the form's changes: a refusal that arrives after a change is about values no longer shown.
  const changes = useRef(0);
  // Any change to the form makes a warning about other values stale: it goes at once.
  useEffect(() => {
    const subscription = form.watch(() => {
      changes.current++;
      setGuard(null);
    });
    return () => subscription.unsubscribe();
  }, [form]);
  const { errors } = form.formState;
  const values = form.watch();
  const accountOf = (id: string) => accounts.data?.items.find((a) => a.id === id);
  const from = accountOf(values.fromAccountId);
  const to = accountOf(values.toAccountId);
  const fromDigits = minorUnits(from?.currency ?? "");
  const toDigits = minorUnits(to?.currency ?? "");
  const fromCurrency = from ? { code: from.currency, minorUnits: fromDigits } : null;
  const toCurrency = to ? { code: to.currency, minorUnits: toDigits } : null;
  // The quote's base: as chosen, else the stronger currency ("1 USD = … UZS", "1 EUR = … USD").
  const base =
    values.quoteBase && [from?.currency, to?.currency].includes(values.quoteBase)
      ? values.quoteBase
      : from && to
        ? naturalQuoteBase(from.currency, to.currency)
        : (from?.currency ?? to?.currency ?? "");
  const quoteCurrency = base === from?.currency ? (to?.currency ?? "") : (from?.currency ?? "");
  // Each number as the language reads it (the fields' own rules refuse the rest before posting).
  const amountRead = readNumber(values.amount, locale, amountRules(from?.currency, fromDigits));
  const receivedRead = readNumber(values.amountReceived, locale, amountRules(to?.currency, toDigits));
  const rateRead = readNumber(values.quoteRate, locale, RATE_RULES);

  // What the destination receives and the rate it means, by the server's own arithmetic (rates.ts).
  let destination: bigint | null = null;
  let reading: string | null = null;
  if (
    mode === "exchange" &&
    amountRead.ok &&
    fromCurrency &&
    toCurrency &&
    fromCurrency.code !== toCurrency.code
  ) {
    const amountIn = amountRead.scaled;
    if (values.how === "received" && receivedRead.ok) {
      destination = receivedRead.scaled;
    } else if (values.how === "quote" && rateRead.ok) {
      const ratio = quoteRatio(
        { base, quote: quoteCurrency, rate: rateRead.decimal },
        fromCurrency,
        toCurrency,
      );
      if (ratio) destination = applyRatio(amountIn, ratio);
    }
    if (destination !== null && destination > 0n) {
      reading = quoteText(marketQuoteOf(amountIn, destination, fromCurrency, toCurrency), locale);
    }
  }

  const post = useMutation({
    mutationFn: (input: Record<string, unknown>) => {
      const context = { context: { idempotencyKey: once.key } };
      return mode === "exchange"
        ? api.exchanges.create.mutate(
            input as unknown as Parameters<typeof api.exchanges.create.mutate>[0],
            context,
          )
        : api.transfers.create.mutate(
            input as unknown as Parameters<typeof api.transfers.create.mutate>[0],
            context,
          );
    },
  });

  /** What the form posts: the numbers as read (exact), the rest as typed. */
  const inputOf = (current: Values): Record<string, unknown> => {
    const amount = readNumber(current.amount, locale, amountRules(from?.currency, fromDigits));
    const common = {
      fromAccountId: current.fromAccountId,
      toAccountId: current.toAccountId,
      amount: amount.ok ? amount.scaled.toString() : current.amount,
      date: current.date,
      comment: current.comment,
    };
    if (mode === "transfer") return common;
    if (current.how === "received") {
      const received = readNumber(current.amountReceived, locale, amountRules(to?.currency, toDigits));
      return { ...common, amountReceived: received.ok ? received.scaled.toString() : current.amountReceived };
    }
    const rate = readNumber(current.quoteRate, locale, RATE_RULES);
    return {
      ...common,
      marketRate: { base, quote: quoteCurrency, rate: rate.ok ? rate.decimal : current.quoteRate },
    };
  };
  const toForm = (errors: Record<string, string>) =>
    Object.fromEntries(Object.entries(errors).map(([path, text]) => [FORM_FIELD[path] ?? path, text]));

  const send = async (current: Values, input: Record<string, unknown>) => {
    setFormError(null);
    setGuard(null);
    const asSent = changes.current;
    try {
      await post.mutateAsync(input);
      await invalidateMoney(queryClient);
      void message.success(t("transfers.posted"));
      form.reset({ ...EMPTY, how: current.how, date: current.date });
      once.renew();
    } catch (error) {
      const failure = describeFailure(error, t);
      if (GUARD_REASONS.has(failure.reason)) {
        // The same input, confirmed, is what "Post at this rate" sends — offered only while the form
        // still shows that input (a value changed while the request was out: the question is moot).
        if (changes.current === asSent) setGuard({ message: failure.message, input });
        return;
      }
      showFailure(failure, form, FIELDS, setFormError, toForm);
    }
  };

  const submit = form.handleSubmit(async (current) => {
    const input = inputOf(current);
    const messageFor = (path: string) => {
      if (path === "fromAccountId") return t("form.chooseAccount");
      if (path === "toAccountId")
        return current.toAccountId ? t("form.sameAccount") : t("form.chooseAccount");
      if (path === "date" && !current.date) return t("form.required");
      return undefined;
    };
    const checked = checkWith(mode === "exchange" ? ZExchangeInput : ZTransferInput, input, messageFor);
    if (!checked.ok) {
      const rest = showFieldErrors(form.setError, FIELDS, toForm(checked.errors));
      if (rest.length) setFormError(rest.join(" "));
      return;
    }
    const fromAccount = accountOf(current.fromAccountId);
    const toAccount = accountOf(current.toAccountId);
    if (fromAccount && toAccount) {
      const same = fromAccount.currency === toAccount.currency;
      if (mode === "transfer" && !same)
        return form.setError("toAccountId", { message: t("form.sameCurrency") });
      if (mode === "exchange" && same)
        return form.setError("toAccountId", { message: t("form.differentCurrency") });
    }
    await send(current, input);
  });
  /** Posts exactly what the warning was about, confirmed. */
  const confirm = async () => {
    if (!guard) return;
    await send(form.getValues(), { ...guard.input, confirmRate: true });
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Escape") {
      form.reset({ ...EMPTY, date: todayIso() });
      setFormError(null);
      setGuard(null);
    }
  };
  const accountOptions = (accounts.data?.items ?? []).map((a) => ({
    value: a.id,
    label: `${a.name} (${a.currency}) · ${money(a.balance, a.currency)}`,
  }));
  const select = (name: "fromAccountId" | "toAccountId", id: string) => (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <Select
          {...field}
          id={id}
          showSearch
          optionFilterProp="label"
          status={errors[name] ? "error" : ""}
          style={{ width: "100%" }}
          loading={accounts.isPending}
          options={accountOptions}
        />
      )}
    />
  );
  const currencies = [from?.currency, to?.currency].filter((code): code is string => Boolean(code));
  const exchanging = mode === "exchange";

  return (
    <Card style={{ maxWidth: 860 }}>
      <Typography.Paragraph type="secondary">
        {t(exchanging ? "transfers.exchangeHint" : "transfers.transferHint")}
      </Typography.Paragraph>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void once.run(submit);
        }}
        onKeyDown={onKeyDown}
        noValidate
        aria-label={t(exchanging ? "transfers.exchange" : "transfers.transfer")}
        data-testid={`${mode}-form`}
      >
        {formError ? (
          <Alert
            type="error"
            showIcon
            title={formError}
            style={{ marginBottom: 16 }}
            data-testid="form-error"
          />
        ) : null}
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Field id="movement-from" label={t("transfers.from")} error={errors.fromAccountId?.message}>
              {select("fromAccountId", "movement-from")}
            </Field>
          </Col>
          <Col xs={24} md={12}>
            <Field id="movement-to" label={t("transfers.to")} error={errors.toAccountId?.message}>
              {select("toAccountId", "movement-to")}
            </Field>
          </Col>
          <Col xs={24} md={exchanging ? 8 : 12}>
            <FormField
              control={form.control}
              name="amount"
              id="movement-amount"
              label={t("transfers.amount")}
              rules={{
                validate: (text: string) =>
                  numberRule(amountRules(from?.currency, fromDigits), {
                    kind: "amount",
                    currency: from?.currency ?? "",
                  })(text),
              }}
              render={({ field, status }) => (
                <AmountInput
                  {...field}
                  id="movement-amount"
                  currency={from?.currency}
                  minorUnits={fromDigits}
                  status={status}
                />
              )}
            />
          </Col>
          {exchanging ? (
            <Col xs={24} md={16}>
              <div style={{ marginBottom: 4 }}>
                <Controller
                  control={form.control}
                  name="how"
                  render={({ field }) => (
                    <Segmented
                      size="small"
                      aria-label={t("transfers.how")}
                      value={field.value}
                      onChange={(value) => field.onChange(value)}
                      options={[
                        { value: "received", label: t("transfers.byReceived") },
                        { value: "quote", label: t("transfers.byQuote") },
                      ]}
                    />
                  )}
                />
              </div>
              {values.how === "received" ? (
                <FormField
                  control={form.control}
                  name="amountReceived"
                  id="movement-received"
                  label={t("transfers.amountReceived")}
                  rules={{
                    validate: (text: string) =>
                      form.getValues("how") !== "received" ||
                      numberRule(amountRules(to?.currency, toDigits), {
                        kind: "amount",
                        currency: to?.currency ?? "",
                      })(text),
                  }}
                  hint={
                    // The rate the typed amounts mean, beside them (a line kept while empty: no jump).
                    <Typography.Text type="secondary" data-testid="received-rate-hint">
                      {reading ? t("transfers.rateHint", { rate: reading }) : "\u00a0"}
                    </Typography.Text>
                  }
                  render={({ field, status }) => (
                    <AmountInput
                      {...field}
                      id="movement-received"
                      currency={to?.currency}
                      minorUnits={toDigits}
                      status={status}
                    />
                  )}
                />
              ) : (
                <Field
                  id="movement-quote"
                  label={t("transfers.marketRate")}
                  error={errors.quoteRate?.message}
                >
                  <Controller
                    control={form.control}
                    name="quoteRate"
                    rules={{
                      validate: (text: string) =>
                        form.getValues("how") !== "quote" || numberRule(RATE_RULES, { kind: "rate" })(text),
                    }}
                    render={({ field }) => (
                      <NumberInput
                        {...field}
                        id="movement-quote"
                        rules={RATE_RULES}
                        subject={{ kind: "rate" }}
                        suffix={quoteCurrency}
                        status={errors.quoteRate ? "error" : ""}
                        before={
                          <Controller
                            control={form.control}
                            name="quoteBase"
                            render={({ field: baseField }) => (
                              <Select
                                aria-label={t("transfers.quoteBase")}
                                value={base || undefined}
                                onChange={(value) => baseField.onChange(value)}
                                style={{ width: 110 }}
                                options={currencies.map((code) => ({ value: code, label: `1 ${code} =` }))}
                                data-testid="quote-base"
                              />
                            )}
                          />
                        }
                        preview={(rate) =>
                          t("transfers.quoteReads", {
                            quote: quoteText({ base, quote: quoteCurrency, rate: rate.decimal }, locale),
                          })
                        }
                      />
                    )}
                  />
                </Field>
              )}
            </Col>
          ) : null}
          <Col xs={24} md={exchanging ? 8 : 12}>
            <DateField control={form.control} name="date" id="movement-date" label={t("documents.date")} />
          </Col>
          <Col xs={24} md={exchanging ? 16 : 12}>
            <FormField
              control={form.control}
              name="comment"
              id="movement-comment"
              label={t("documents.comment")}
              render={({ field, status }) => (
                <Input {...field} id="movement-comment" maxLength={COMMENT_MAX} status={status} />
              )}
            />
          </Col>
        </Row>
        {/* The question stands beside what it questions and the Post button: in view on a small window. */}
        <div style={{ display: "flex", gap: 16, justifyContent: "space-between", alignItems: "flex-end" }}>
          {guard ? (
            <Alert
              type="warning"
              showIcon
              title={guard.message}
              style={{ flex: 1 }}
              data-testid="rate-guard"
              action={
                <Button
                  danger
                  onClick={() => void once.run(confirm)}
                  loading={once.busy}
                  data-testid="confirm-rate"
                >
                  {t("transfers.confirmRate")}
                </Button>
              }
            />
          ) : exchanging ? (
            <Space size="large" align="end">
              <Statistic
                title={t("transfers.willReceive")}
                value={destination !== null && to ? money(destination, to.currency) : "—"}
                styles={{ content: { fontSize: 20 } }}
                data-testid="exchange-destination"
              />
              <Statistic
                title={t("transfers.effectiveRate")}
                value={reading ?? "—"}
                styles={{ content: { fontSize: 20 } }}
                data-testid="exchange-rate"
              />
            </Space>
          ) : (
            <span />
          )}
          <Space>
            {guard ? null : <Typography.Text type="secondary">{t("ui:keyboardHint")}</Typography.Text>}
            <Button
              type="primary"
              htmlType="submit"
              loading={once.busy}
              disabled={guard !== null}
              data-testid="post-movement"
            >
              {t("transfers.post")}
            </Button>
          </Space>
        </div>
      </form>
    </Card>
  );
};
