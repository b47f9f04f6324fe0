import { applyRatio, marketQuoteOf, quoteRatio, ZExchangeInput, ZTransferInput } from "@hisob/finance/schema";
import { ZRate } from "@hisob/kernel/schema";
import { describeFailure, numberLocale, parseAmount, todayIso, useLocale } from "@hisob/ui";
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
import { type KeyboardEvent, useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { invalidateMoney, useAllAccounts, useApi, useMinorUnits, useMoney } from "../api-context";
import { DateInput } from "../components/date-input";
import { Field, FormField } from "../components/field";
import { checkWith, showFailure, showFieldErrors } from "../forms";

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
const GUARD_REASONS = new Set(["finance.exchange_rate_unconfirmed", "finance.exchange_rate_implausible"]);

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
  const [formError, setFormError] = useState<string | null>(null);
  /** The plausibility guard's message, while the person decides whether to post at this rate. */
  const [guard, setGuard] = useState<string | null>(null);
  const form = useForm<Values>({ defaultValues: { ...EMPTY, date: todayIso() } });
  const { errors } = form.formState;
  const values = form.watch();
  const accountOf = (id: string) => accounts.data?.items.find((a) => a.id === id);
  const from = accountOf(values.fromAccountId);
  const to = accountOf(values.toAccountId);
  const fromDigits = minorUnits(from?.currency ?? "");
  const toDigits = minorUnits(to?.currency ?? "");
  const amountMinor = parseAmount(values.amount, fromDigits);
  const positive = (minor: string | null) =>
    minor && !minor.startsWith("-") && minor !== "0" ? minor : null;
  const fromCurrency = from ? { code: from.currency, minorUnits: fromDigits } : null;
  const toCurrency = to ? { code: to.currency, minorUnits: toDigits } : null;
  // The quote's base: as chosen, else the currency that is not the som (banks quote "1 USD = … UZS").
  const base =
    values.quoteBase && [from?.currency, to?.currency].includes(values.quoteBase)
      ? values.quoteBase
      : to && to.currency !== "UZS"
        ? to.currency
        : (from?.currency ?? "");
  const quoteCurrency = base === from?.currency ? (to?.currency ?? "") : (from?.currency ?? "");
  const quoteRate = values.quoteRate
    .trim()
    .replace(",", ".")
    .replace(/[\s\u00a0]/g, "");
  const receivedMinor = positive(parseAmount(values.amountReceived, toDigits));

  // What the destination receives and the rate it means, by the server's own arithmetic (rates.ts).
  let destination: bigint | null = null;
  let reading: string | null = null;
  const amountIn = positive(amountMinor);
  if (
    mode === "exchange" &&
    amountIn &&
    fromCurrency &&
    toCurrency &&
    fromCurrency.code !== toCurrency.code
  ) {
    if (values.how === "received" && receivedMinor) {
      destination = BigInt(receivedMinor);
    } else if (values.how === "quote" && ZRate.safeParse(quoteRate).success) {
      const ratio = quoteRatio({ base, quote: quoteCurrency, rate: quoteRate }, fromCurrency, toCurrency);
      if (ratio) destination = applyRatio(BigInt(amountIn), ratio);
    }
    if (destination !== null && destination > 0n) {
      const quote = marketQuoteOf(BigInt(amountIn), destination, fromCurrency, toCurrency);
      const number = new Intl.NumberFormat(numberLocale(locale), { maximumFractionDigits: 20 }).format(
        quote.rate as `${number}`,
      );
      reading = `1 ${quote.base} = ${number} ${quote.quote}`;
    }
  }

  const post = useMutation({
    mutationFn: (input: Record<string, unknown>) =>
      mode === "exchange"
        ? api.exchanges.create.mutate(input as unknown as Parameters<typeof api.exchanges.create.mutate>[0])
        : api.transfers.create.mutate(input as unknown as Parameters<typeof api.transfers.create.mutate>[0]),
  });

  const send = async (current: Values, confirmRate: boolean) => {
    setFormError(null);
    setGuard(null);
    const amount = parseAmount(current.amount, fromDigits);
    const common = {
      fromAccountId: current.fromAccountId,
      toAccountId: current.toAccountId,
      amount: amount ?? current.amount,
      date: current.date,
      comment: current.comment,
    };
    const input: Record<string, unknown> =
      mode === "transfer"
        ? common
        : current.how === "received"
          ? {
              ...common,
              amountReceived: parseAmount(current.amountReceived, toDigits) ?? current.amountReceived,
              ...(confirmRate ? { confirmRate } : {}),
            }
          : {
              ...common,
              marketRate: { base, quote: quoteCurrency, rate: quoteRate },
              ...(confirmRate ? { confirmRate } : {}),
            };
    const messageFor = (path: string) => {
      if (path === "fromAccountId") return t("form.chooseAccount");
      if (path === "toAccountId")
        return current.toAccountId ? t("form.sameAccount") : t("form.chooseAccount");
      if (path === "amount") {
        if (!current.amount.trim()) return t("form.required");
        return amount === null ? t("form.invalidAmount", { digits: fromDigits }) : t("form.positiveAmount");
      }
      if (path === "amountReceived") {
        if (!current.amountReceived.trim()) return t("form.required");
        return parseAmount(current.amountReceived, toDigits) === null
          ? t("form.invalidAmount", { digits: toDigits })
          : t("form.positiveAmount");
      }
      if (path.startsWith("marketRate"))
        return current.quoteRate.trim() ? t("form.invalidRate") : t("form.required");
      if (path === "date" && !current.date) return t("form.required");
      return undefined;
    };
    const checked = checkWith(mode === "exchange" ? ZExchangeInput : ZTransferInput, input, messageFor);
    const toForm = (errors: Record<string, string>) =>
      Object.fromEntries(Object.entries(errors).map(([path, text]) => [FORM_FIELD[path] ?? path, text]));
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
    try {
      await post.mutateAsync(input);
      await invalidateMoney(queryClient);
      void message.success(t("transfers.posted"));
      form.reset({ ...EMPTY, how: current.how, date: current.date });
    } catch (error) {
      const failure = describeFailure(error, t);
      if (GUARD_REASONS.has(failure.reason)) {
        setGuard(failure.message);
        return;
      }
      showFailure(failure, form, FIELDS, setFormError, toForm);
    }
  };
  const submit = form.handleSubmit((current) => send(current, false));
  const confirm = form.handleSubmit((current) => send(current, true));

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

  return (
    <Card style={{ maxWidth: 860 }}>
      <Typography.Paragraph type="secondary">
        {t(mode === "exchange" ? "transfers.exchangeHint" : "transfers.transferHint")}
      </Typography.Paragraph>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (!post.isPending) void submit();
        }}
        onKeyDown={onKeyDown}
        noValidate
        aria-label={t(mode === "exchange" ? "transfers.exchange" : "transfers.transfer")}
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
        {guard ? (
          <Alert
            type="warning"
            showIcon
            title={guard}
            style={{ marginBottom: 16 }}
            data-testid="rate-guard"
            action={
              <Button
                danger
                onClick={() => void confirm()}
                loading={post.isPending}
                data-testid="confirm-rate"
              >
                {t("transfers.confirmRate")}
              </Button>
            }
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
          <Col xs={24} md={mode === "exchange" ? 8 : 12}>
            <FormField
              control={form.control}
              name="amount"
              id="movement-amount"
              label={t("transfers.amount")}
              render={({ field, status }) => (
                <Input
                  {...field}
                  id="movement-amount"
                  inputMode="decimal"
                  autoComplete="off"
                  suffix={from?.currency ?? ""}
                  status={status}
                />
              )}
            />
          </Col>
          {mode === "exchange" ? (
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
                      onChange={(value) => {
                        field.onChange(value);
                        setGuard(null);
                      }}
                      options={[
                        { value: "received", label: t("transfers.byReceived") },
                        { value: "quote", label: t("transfers.byQuote") },
                      ]}
                    />
                  )}
                />
              </div>
              {values.how === "received" ? (
                <Field
                  id="movement-received"
                  label={t("transfers.amountReceived")}
                  error={errors.amountReceived?.message}
                  hint={
                    // The rate the typed amounts mean, beside them (a line kept while empty: no jump).
                    <Typography.Text type="secondary" data-testid="received-rate-hint">
                      {reading ? t("transfers.rateHint", { rate: reading }) : "\u00a0"}
                    </Typography.Text>
                  }
                >
                  <Controller
                    control={form.control}
                    name="amountReceived"
                    render={({ field }) => (
                      <Input
                        {...field}
                        id="movement-received"
                        inputMode="decimal"
                        autoComplete="off"
                        suffix={to?.currency ?? ""}
                        status={errors.amountReceived ? "error" : ""}
                      />
                    )}
                  />
                </Field>
              ) : (
                <Field
                  id="movement-quote"
                  label={t("transfers.marketRate")}
                  error={errors.quoteRate?.message}
                >
                  <Space.Compact style={{ width: "100%" }}>
                    <Controller
                      control={form.control}
                      name="quoteBase"
                      render={({ field }) => (
                        <Select
                          aria-label={t("transfers.quoteBase")}
                          value={base || undefined}
                          onChange={(value) => field.onChange(value)}
                          style={{ width: 110 }}
                          options={currencies.map((code) => ({ value: code, label: `1 ${code} =` }))}
                          data-testid="quote-base"
                        />
                      )}
                    />
                    <Controller
                      control={form.control}
                      name="quoteRate"
                      render={({ field }) => (
                        <Input
                          {...field}
                          id="movement-quote"
                          inputMode="decimal"
                          autoComplete="off"
                          suffix={quoteCurrency}
                          status={errors.quoteRate ? "error" : ""}
                        />
                      )}
                    />
                  </Space.Compact>
                </Field>
              )}
            </Col>
          ) : null}
          <Col xs={24} md={mode === "exchange" ? 8 : 12}>
            <FormField
              control={form.control}
              name="date"
              id="movement-date"
              label={t("documents.date")}
              render={({ bound }) => <DateInput {...bound} />}
            />
          </Col>
          <Col xs={24} md={mode === "exchange" ? 16 : 12}>
            <FormField
              control={form.control}
              name="comment"
              id="movement-comment"
              label={t("documents.comment")}
              render={({ field }) => <Input {...field} id="movement-comment" />}
            />
          </Col>
        </Row>
        <Space style={{ width: "100%", justifyContent: "space-between" }} align="end">
          {mode === "exchange" ? (
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
            <Typography.Text type="secondary">{t("ui:keyboardHint")}</Typography.Text>
            <Button type="primary" htmlType="submit" loading={post.isPending} data-testid="post-movement">
              {t("transfers.post")}
            </Button>
          </Space>
        </Space>
      </form>
    </Card>
  );
};
