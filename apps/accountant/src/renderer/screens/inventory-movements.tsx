import {
  INVENTORY_MOVEMENT_TYPES,
  type TInventoryItemDto,
  ZCreateInventoryMovementInput,
} from "@hisob/finance/schema";
import { describeFailure, formatDate, QueryState, todayIso, useLocale } from "@hisob/ui";
import { maxLengthOf } from "@hisob/ui/limits";
import { readNumber, useNumberRule } from "@hisob/ui/numbers";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, App as AntApp, Button, Drawer, Input, Select, Table, Typography } from "antd";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useApi } from "../api-context";
import { DateField } from "../components/date-input";
import { FormField } from "../components/field";
import { checkWith, showFailure, showFieldErrors, useSubmitOnce } from "../forms";
import { INVENTORY_KEY, QuantityInput, quantityRules, showQuantity } from "./inventory-quantity";

type Kind = (typeof INVENTORY_MOVEMENT_TYPES)[number];
type Values = { type: Kind; quantity: string; date: string; comment: string };
const FIELDS = ["type", "quantity", "date", "comment"] as const;
const COMMENT_MAX = maxLengthOf(ZCreateInventoryMovementInput.shape.comment);
/** What the server refuses about the quantity itself: its message goes next to that field. */
const QUANTITY_REASONS = new Set(["finance.insufficient_stock", "finance.quantity_out_of_range"]);

/** One item: its stock, a form for a movement in or out, and the movements so far (newest first). */
export const InventoryMovements = ({ item, onClose }: { item: TInventoryItemDto; onClose: () => void }) => {
  const { t } = useTranslation();
  const locale = useLocale();
  const api = useApi();
  const current = useQuery({
    queryKey: [...INVENTORY_KEY, "item", item.id],
    queryFn: () => api.inventory.get.query({ id: item.id }),
    initialData: item,
  });
  const movements = useQuery({
    queryKey: [...INVENTORY_KEY, "movements", item.id],
    queryFn: () => api.inventory.movements.query({ id: item.id, query: { limit: 50 } }),
  });
  const stock = current.data ?? item;
  return (
    <Drawer open onClose={onClose} size={640} title={`${stock.name} (${stock.sku})`} destroyOnHidden>
      <Typography.Paragraph>
        {t("inventory.quantity")}:{" "}
        <strong data-testid="item-stock">
          {showQuantity(stock.quantity, locale)} {stock.unit}
        </strong>
      </Typography.Paragraph>
      <MovementForm item={stock} />
      <Typography.Title level={2} style={{ fontSize: 16, marginTop: 8 }}>
        {t("inventory.movements")}
      </Typography.Title>
      <QueryState query={movements} rows={4}>
        {(page) => (
          <Table
            rowKey="id"
            size="small"
            pagination={false}
            dataSource={page.items}
            locale={{ emptyText: t("inventory.noMovements") }}
            columns={[
              {
                title: t("inventory.date"),
                dataIndex: "date",
                render: (date: string) => formatDate(date, locale),
              },
              {
                title: t("inventory.type"),
                dataIndex: "type",
                render: (type: Kind) => t(`inventory.${type}`),
              },
              {
                title: t("inventory.moveQuantity"),
                dataIndex: "quantity",
                align: "right",
                render: (quantity: string) => showQuantity(quantity, locale),
              },
              {
                title: t("inventory.after"),
                dataIndex: "quantityAfter",
                align: "right",
                render: (quantity: string) => showQuantity(quantity, locale),
              },
              { title: t("inventory.comment"), dataIndex: "comment", ellipsis: true },
            ]}
          />
        )}
      </QueryState>
    </Drawer>
  );
};

const MovementForm = ({ item }: { item: TInventoryItemDto }) => {
  const { t } = useTranslation();
  const locale = useLocale();
  const api = useApi();
  const queryClient = useQueryClient();
  const { message } = AntApp.useApp();
  const numberRule = useNumberRule();
  const once = useSubmitOnce();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<Values>({
    mode: "onTouched",
    defaultValues: { type: "receipt", quantity: "", date: todayIso(), comment: "" },
  });
  // Only an adjustment is signed (a stocktake that found fewer).
  const sign = form.watch("type") === "adjustment" ? "any" : "positive";

  const submit = form.handleSubmit(async (values) => {
    setFormError(null);
    const reading = readNumber(values.quantity, locale, quantityRules(sign));
    const checked = checkWith(
      ZCreateInventoryMovementInput,
      { ...values, quantity: reading.ok ? reading.decimal : values.quantity },
      () => undefined,
    );
    if (!checked.ok) {
      const rest = showFieldErrors(form.setError, FIELDS, checked.errors);
      if (rest.length) setFormError(rest.join(" "));
      return;
    }
    try {
      await api.inventory.recordMovement.mutate(
        { id: item.id, data: checked.input },
        { context: { idempotencyKey: once.key } },
      );
    } catch (error) {
      const failure = describeFailure(error, t);
      if (QUANTITY_REASONS.has(failure.reason)) {
        form.setError("quantity", { type: "server", message: failure.message }, { shouldFocus: true });
        return;
      }
      showFailure(failure, form, FIELDS, setFormError);
      return;
    }
    await queryClient.invalidateQueries({ queryKey: INVENTORY_KEY });
    void message.success(t("inventory.moved"));
    form.reset({ type: values.type, quantity: "", date: values.date, comment: "" });
    // Recorded: the next movement is a new intent.
    once.renew();
  });

  return (
    <form
      id="movement-form"
      noValidate
      aria-label={t("inventory.move")}
      onSubmit={(event) => {
        event.preventDefault();
        void once.run(submit);
      }}
    >
      {formError ? <Alert type="error" showIcon title={formError} style={{ marginBottom: 16 }} /> : null}
      <div style={{ display: "grid", gridTemplateColumns: "1fr 1fr", gap: 12 }}>
        <FormField
          control={form.control}
          name="type"
          id="movement-type"
          label={t("inventory.type")}
          render={({ field, status }) => (
            <Select
              {...field}
              id="movement-type"
              status={status}
              options={INVENTORY_MOVEMENT_TYPES.map((type) => ({
                value: type,
                label: t(`inventory.${type}`),
              }))}
            />
          )}
        />
        <DateField control={form.control} name="date" id="movement-date" label={t("inventory.date")} />
      </div>
      <FormField
        control={form.control}
        name="quantity"
        id="movement-quantity"
        label={t("inventory.moveQuantity")}
        rules={{ validate: numberRule(quantityRules(sign), { kind: "amount", currency: item.unit }) }}
        render={({ field, status }) => (
          <QuantityInput
            {...field}
            id="movement-quantity"
            unit={item.unit}
            sign={sign}
            locale={locale}
            status={status}
          />
        )}
      />
      <FormField
        control={form.control}
        name="comment"
        id="movement-comment"
        label={t("inventory.comment")}
        render={({ field, status }) => (
          <Input {...field} id="movement-comment" maxLength={COMMENT_MAX} status={status} />
        )}
      />
      <Button type="primary" htmlType="submit" loading={once.busy} data-testid="record-movement">
        {t("inventory.move")}
      </Button>
    </form>
  );
};
