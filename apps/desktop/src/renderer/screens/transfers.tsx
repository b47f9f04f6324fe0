import { ZExchangeInput, ZTransferInput } from "@hisob/finance/schema";
import { describeFailure, exchangeDestination, parseAmount, todayIso, useLocale } from "@hisob/ui";
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
import { Field } from "../components/field";
import { checkWith, failureErrors, showFieldErrors } from "../forms";

type Mode = "transfer" | "exchange";
type Values = {
  fromAccountId: string;
  toAccountId: string;
  amount: string;
  rate: string;
  date: string;
  comment: string;
};
const FIELDS = ["fromAccountId", "toAccountId", "amount", "rate", "date", "comment"] as const;
const EMPTY: Values = { fromAccountId: "", toAccountId: "", amount: "", rate: "", date: "", comment: "" };

export const TransfersScreen = () => {
  const { t } = useTranslation();
  const [mode, setMode] = useState<Mode>("transfer");
  return (
    <div>
      <Typography.Title level={2} style={{ marginTop: 0 }}>
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
  const form = useForm<Values>({ defaultValues: { ...EMPTY, date: todayIso() } });
  const { errors } = form.formState;
  const values = form.watch();
  const accountOf = (id: string) => accounts.data?.items.find((a) => a.id === id);
  const from = accountOf(values.fromAccountId);
  const to = accountOf(values.toAccountId);
  const fromDigits = minorUnits(from?.currency ?? "");
  const amountMinor = parseAmount(values.amount, fromDigits);
  // What the destination receives: trunc(amount × rate), by the server's own arithmetic.
  const destination =
    mode === "exchange" && amountMinor && !amountMinor.startsWith("-")
      ? exchangeDestination(amountMinor, values.rate)
      : null;

  const post = useMutation({
    mutationFn: (input: Record<string, string>) =>
      mode === "exchange"
        ? api.exchanges.create.mutate(input as unknown as Parameters<typeof api.exchanges.create.mutate>[0])
        : api.transfers.create.mutate(input as Parameters<typeof api.transfers.create.mutate>[0]),
  });

  const submit = form.handleSubmit(async (current) => {
    setFormError(null);
    const amount = parseAmount(current.amount, fromDigits);
    const { rate, ...common } = current;
    const input = {
      ...common,
      amount: amount ?? current.amount,
      ...(mode === "exchange" ? { rate: rate.trim().replace(",", ".") } : {}),
    };
    const messageFor = (path: string) => {
      if (path === "fromAccountId") return t("form.chooseAccount");
      if (path === "toAccountId")
        return current.toAccountId ? t("form.sameAccount") : t("form.chooseAccount");
      if (path === "amount") {
        if (!current.amount.trim()) return t("form.required");
        return amount === null ? t("form.invalidAmount", { digits: fromDigits }) : t("form.positiveAmount");
      }
      if (path === "rate") return current.rate.trim() ? t("form.invalidRate") : t("form.required");
      if (path === "date" && !current.date) return t("form.required");
      return undefined;
    };
    const checked = checkWith(mode === "exchange" ? ZExchangeInput : ZTransferInput, input, messageFor);
    if (!checked.ok) {
      const rest = showFieldErrors(form.setError, FIELDS, checked.errors);
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
      form.reset({ ...EMPTY, date: current.date });
    } catch (error) {
      const failure = describeFailure(error, t);
      const rest = showFieldErrors(form.setError, FIELDS, failureErrors(failure));
      setFormError(rest.length || failure.issues.length === 0 ? failure.message : null);
    }
  });

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Escape") {
      form.reset({ ...EMPTY, date: todayIso() });
      setFormError(null);
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
            <Field id="movement-amount" label={t("transfers.amount")} error={errors.amount?.message}>
              <Controller
                control={form.control}
                name="amount"
                render={({ field }) => (
                  <Input
                    {...field}
                    id="movement-amount"
                    inputMode="decimal"
                    autoComplete="off"
                    suffix={from?.currency ?? ""}
                    status={errors.amount ? "error" : ""}
                  />
                )}
              />
            </Field>
          </Col>
          {mode === "exchange" ? (
            <Col xs={24} md={8}>
              <Field id="movement-rate" label={t("transfers.rate")} error={errors.rate?.message}>
                <Controller
                  control={form.control}
                  name="rate"
                  render={({ field }) => (
                    <Input
                      {...field}
                      id="movement-rate"
                      inputMode="decimal"
                      autoComplete="off"
                      status={errors.rate ? "error" : ""}
                    />
                  )}
                />
              </Field>
            </Col>
          ) : null}
          <Col xs={24} md={mode === "exchange" ? 8 : 12}>
            <Field id="movement-date" label={t("documents.date")} error={errors.date?.message}>
              <Controller
                control={form.control}
                name="date"
                render={({ field }) => (
                  <Input {...field} id="movement-date" type="date" status={errors.date ? "error" : ""} />
                )}
              />
            </Field>
          </Col>
          <Col xs={24}>
            <Field id="movement-comment" label={t("documents.comment")} error={errors.comment?.message}>
              <Controller
                control={form.control}
                name="comment"
                render={({ field }) => <Input {...field} id="movement-comment" />}
              />
            </Field>
          </Col>
        </Row>
        <Space style={{ width: "100%", justifyContent: "space-between" }} align="end">
          {mode === "exchange" ? (
            <Statistic
              title={t("transfers.willReceive")}
              value={destination !== null && to ? money(destination, to.currency) : "—"}
              styles={{ content: { fontSize: 20 } }}
              data-testid="exchange-destination"
            />
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
