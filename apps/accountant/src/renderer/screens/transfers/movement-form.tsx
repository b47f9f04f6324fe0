import { ZExchangeInput, ZTransferInput } from "@hisob/finance/schema";
import { describeFailure, todayIso, useLocale } from "@hisob/ui";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Alert, App as AntApp, Button, Card, Space, Typography } from "antd";
import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { invalidateMoney, useApi } from "../../api-context";
import { checkWith, showFailure, showFieldErrors, useSubmitOnce } from "../../forms";
import { MovementFields } from "./movement-fields";
import { MovementOutcome } from "./movement-outcome";
import { EMPTY, FIELDS, FORM_FIELD, GUARD_REASONS, type Mode, type Values } from "./movement-values";
import { useMovementFigures } from "./use-movement-figures";

/** A transfer between two accounts of one currency, or an exchange between two currencies. */
export const MovementForm = ({ mode }: { mode: Mode }) => {
  const { t } = useTranslation();
  const locale = useLocale();
  const api = useApi();
  const queryClient = useQueryClient();
  const { message } = AntApp.useApp();
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
  const values = form.watch();
  const figures = useMovementFigures(mode, values);
  const { accountOf, inputOf } = figures;

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
        <MovementFields form={form} figures={figures} exchanging={exchanging} />
        {/* The question stands beside what it questions and the Post button: in view on a small window. */}
        <div style={{ display: "flex", gap: 16, justifyContent: "space-between", alignItems: "flex-end" }}>
          <MovementOutcome
            guard={guard}
            exchanging={exchanging}
            destination={figures.destination}
            reading={figures.reading}
            to={figures.to}
            locale={locale}
            busy={once.busy}
            onConfirm={() => void once.run(confirm)}
          />
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
