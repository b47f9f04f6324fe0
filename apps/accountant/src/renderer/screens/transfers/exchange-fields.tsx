import { useLocale } from "@hisob/ui";
import { NumberInput, RATE_RULES, useNumberRule } from "@hisob/ui/numbers";
import { Segmented, Select, Typography } from "antd";
import { Controller, type UseFormReturn } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Field } from "../../components/field";
import { MoneyField } from "../../components/money-field";
import { quoteText, type Values } from "./movement-values";
import type { MovementFigures } from "./use-movement-figures";

/**
 * An exchange's other side: how it is entered (the amount that arrived, or the bank's quote) and
 * that field, with the rate the typed amounts mean beside it.
 */
export const ExchangeFields = (props: { form: UseFormReturn<Values>; figures: MovementFigures }) => {
  const { t } = useTranslation();
  const locale = useLocale();
  const numberRule = useNumberRule();
  const { form } = props;
  const { to, base, quoteCurrency, currencies, reading } = props.figures;
  const { errors } = form.formState;
  const how = form.watch("how");
  return (
    <>
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
      {how === "received" ? (
        <MoneyField
          control={form.control}
          name="amountReceived"
          id="movement-received"
          label={t("transfers.amountReceived")}
          currency={to?.currency}
          checked={() => form.getValues("how") === "received"}
          hint={
            // The rate the typed amounts mean, beside them (a line kept while empty: no jump).
            <Typography.Text type="secondary" data-testid="received-rate-hint">
              {reading ? t("transfers.rateHint", { rate: reading }) : "\u00a0"}
            </Typography.Text>
          }
        />
      ) : (
        <Field id="movement-quote" label={t("transfers.marketRate")} error={errors.quoteRate?.message}>
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
    </>
  );
};
