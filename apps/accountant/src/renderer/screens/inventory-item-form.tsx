import { ZCreateInventoryItemInput } from "@hisob/finance/schema";
import { describeFailure, useLocale } from "@hisob/ui";
import { maxLengthOf } from "@hisob/ui/limits";
import { amountRules, readNumber, useNumberRule } from "@hisob/ui/numbers";
import { useQueryClient } from "@tanstack/react-query";
import { App as AntApp, Input } from "antd";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useApi, useCurrencies, useMinorUnits } from "../api-context";
import { FormField } from "../components/field";
import { FormModal } from "../components/form-modal";
import { CurrencyField, MoneyField } from "../components/money-field";
import { checkWith, showFailure, showFieldErrors, useSubmitOnce } from "../forms";
import { useBaseCurrency } from "../setup-progress";
import { INVENTORY_KEY, QuantityInput, quantityRules } from "./inventory-quantity";

type Values = {
  name: string;
  sku: string;
  unit: string;
  currency: string;
  unitPrice: string;
  quantity: string;
  description: string;
};
const FIELDS = ["name", "sku", "unit", "currency", "unitPrice", "quantity", "description"] as const;
const SHAPE = ZCreateInventoryItemInput.shape;
const MAX = {
  name: maxLengthOf(SHAPE.name),
  sku: maxLengthOf(SHAPE.sku),
  unit: maxLengthOf(SHAPE.unit),
  description: maxLengthOf(SHAPE.description),
};

/** A new item: what it is, its price, and how many are on hand now (its first movement). */
export const InventoryItemForm = ({ onClose }: { onClose: () => void }) => {
  const { t } = useTranslation();
  const locale = useLocale();
  const api = useApi();
  const queryClient = useQueryClient();
  const { message } = AntApp.useApp();
  const currencies = useCurrencies();
  const minorUnits = useMinorUnits();
  const numberRule = useNumberRule();
  const once = useSubmitOnce();
  const [formError, setFormError] = useState<string | null>(null);
  // The base currency chosen at setup, when it is still among the organization's currencies.
  const base = useBaseCurrency();
  const firstCurrency = currencies.data?.find((c) => c.code === base)?.code ?? currencies.data?.[0]?.code;
  const form = useForm<Values>({
    mode: "onTouched",
    defaultValues: {
      name: "",
      sku: "",
      unit: t("inventory.defaultUnit"),
      currency: firstCurrency ?? "",
      unitPrice: "",
      quantity: "",
      description: "",
    },
  });
  const currency = form.watch("currency");
  const unit = form.watch("unit");
  const digits = minorUnits(currency);
  const priceRules = amountRules(currency || undefined, digits, "nonNegative");

  const submit = form.handleSubmit(async (values) => {
    setFormError(null);
    const price = readNumber(values.unitPrice, locale, priceRules);
    const quantity = readNumber(values.quantity, locale, quantityRules("nonNegative"));
    const required = (path: string) =>
      ["name", "sku", "unit", "currency"].includes(path) && !values[path as keyof Values].trim()
        ? t("form.required")
        : undefined;
    const checked = checkWith(
      ZCreateInventoryItemInput,
      {
        ...values,
        unitPrice: price.ok ? price.scaled.toString() : "0",
        quantity: quantity.ok ? quantity.decimal : "0",
      },
      required,
    );
    if (!checked.ok) {
      const rest = showFieldErrors(form.setError, FIELDS, checked.errors);
      if (rest.length) setFormError(rest.join(" "));
      return;
    }
    try {
      await api.inventory.create.mutate(checked.input);
    } catch (error) {
      showFailure(describeFailure(error, t), form, FIELDS, setFormError);
      return;
    }
    await queryClient.invalidateQueries({ queryKey: INVENTORY_KEY });
    void message.success(t("inventory.created"));
    onClose();
  });

  return (
    <FormModal
      id="item-form"
      title={t("inventory.new")}
      open
      busy={once.busy}
      error={formError}
      onSubmit={() => void once.run(submit)}
      onCancel={onClose}
    >
      <FormField
        control={form.control}
        name="name"
        id="item-name"
        label={t("inventory.name")}
        render={({ field, status }) => (
          <Input {...field} id="item-name" autoFocus maxLength={MAX.name} status={status} />
        )}
      />
      <div style={{ display: "grid", gridTemplateColumns: "2fr 1fr", gap: 12 }}>
        <FormField
          control={form.control}
          name="sku"
          id="item-sku"
          label={t("inventory.sku")}
          render={({ field, status }) => (
            <Input {...field} id="item-sku" maxLength={MAX.sku} status={status} />
          )}
        />
        <FormField
          control={form.control}
          name="unit"
          id="item-unit"
          label={t("inventory.unit")}
          render={({ field, status }) => (
            <Input {...field} id="item-unit" maxLength={MAX.unit} status={status} />
          )}
        />
      </div>
      <CurrencyField
        control={form.control}
        name="currency"
        id="item-currency"
        label={t("inventory.currency")}
      />
      <MoneyField
        control={form.control}
        name="unitPrice"
        id="item-price"
        label={t("inventory.unitPrice")}
        currency={currency}
        sign="nonNegative"
        optional
      />
      <FormField
        control={form.control}
        name="quantity"
        id="item-quantity"
        label={t("inventory.openingQuantity")}
        rules={{
          validate: numberRule(
            quantityRules("nonNegative"),
            { kind: "amount", currency: unit },
            { optional: true },
          ),
        }}
        render={({ field, status }) => (
          <QuantityInput
            {...field}
            id="item-quantity"
            unit={unit}
            sign="nonNegative"
            locale={locale}
            status={status}
          />
        )}
      />
      <FormField
        control={form.control}
        name="description"
        id="item-description"
        label={t("inventory.description")}
        render={({ field, status }) => (
          <Input {...field} id="item-description" maxLength={MAX.description} status={status} />
        )}
      />
    </FormModal>
  );
};
