import { useLocale } from "@hisob/ui";
import { Col, Input, Row, Select } from "antd";
import { Controller, type UseFormReturn } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useMoney } from "../../api-context";
import { DateField } from "../../components/date-input";
import { Field, FormField } from "../../components/field";
import { MoneyField } from "../../components/money-field";
import { ExchangeFields } from "./exchange-fields";
import { COMMENT_MAX, type Values } from "./movement-values";
import type { MovementFigures } from "./use-movement-figures";

/** The form's fields: from and to (with their balances), the amount, an exchange's other side, date, comment. */
export const MovementFields = (props: {
  form: UseFormReturn<Values>;
  figures: MovementFigures;
  exchanging: boolean;
}) => {
  const { t } = useTranslation();
  const locale = useLocale();
  const money = useMoney(locale);
  const { form, figures, exchanging } = props;
  const { accounts, from } = figures;
  const { errors } = form.formState;
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
        <MoneyField
          control={form.control}
          name="amount"
          id="movement-amount"
          label={t("transfers.amount")}
          currency={from?.currency}
        />
      </Col>
      {exchanging ? (
        <Col xs={24} md={16}>
          <ExchangeFields form={form} figures={figures} />
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
  );
};
