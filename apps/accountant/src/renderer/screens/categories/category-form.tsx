import { ZCreateCategoryInput, ZUpdateCategoryInput } from "@hisob/finance/schema";
import { describeFailure } from "@hisob/ui";
import { useQueryClient } from "@tanstack/react-query";
import { App as AntApp, Input, TreeSelect } from "antd";
import { useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { KEYS, useApi } from "../../api-context";
import { Field } from "../../components/field";
import { FormModal } from "../../components/form-modal";
import { checkWith, showFailure, showFieldErrors } from "../../forms";
import type { CategoryKind, CategoryNode, ParentOption } from "./tree";

/** What the dialog does: a new category, a new name, or a new place in the tree. */
export type CategoryEdit =
  | { mode: "create"; parentId: string | null }
  | { mode: "rename"; category: CategoryNode }
  | { mode: "move"; category: CategoryNode };

type Values = { name: string; parentId: string | null };
const FIELDS = ["name", "parentId"] as const;

/** Create, rename or move a category; a cycle or an unknown parent comes back from the server, shown here. */
export const CategoryForm = (props: {
  kind: CategoryKind;
  edit: CategoryEdit;
  parents: ParentOption[];
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const { message } = AntApp.useApp();
  const procedures = props.kind === "payments" ? api.paymentCategories : api.expenseCategories;
  const { edit } = props;
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const form = useForm<Values>({
    defaultValues: {
      name: edit.mode === "create" ? "" : edit.category.name,
      parentId: edit.mode === "create" ? edit.parentId : edit.category.parentId,
    },
  });
  const required = (path: string) => (path === "name" ? t("form.required") : undefined);

  const submit = form.handleSubmit(async (values) => {
    setFormError(null);
    const input =
      edit.mode === "create"
        ? { name: values.name, parentId: values.parentId }
        : edit.mode === "rename"
          ? { name: values.name }
          : { parentId: values.parentId };
    const checked =
      edit.mode === "create"
        ? checkWith(ZCreateCategoryInput, input, required)
        : checkWith(ZUpdateCategoryInput, input, required);
    if (!checked.ok) {
      const rest = showFieldErrors(form.setError, FIELDS, checked.errors);
      if (rest.length) setFormError(rest.join(" "));
      return;
    }
    setBusy(true);
    try {
      if (edit.mode === "create") await procedures.create.mutate(input as Values);
      else await procedures.update.mutate({ id: edit.category.id, data: input });
    } catch (error) {
      showFailure(describeFailure(error, t), form, FIELDS, setFormError);
      return;
    } finally {
      setBusy(false);
    }
    await queryClient.invalidateQueries({
      queryKey: props.kind === "payments" ? KEYS.paymentCategories : KEYS.expenseCategories,
    });
    void message.success(t("categories.saved"));
    props.onClose();
  });

  const errors = form.formState.errors;
  return (
    <FormModal
      id="category-form"
      title={t(`categories.${edit.mode}Title`)}
      open
      busy={busy}
      error={formError}
      onSubmit={() => void submit()}
      onCancel={props.onClose}
    >
      {edit.mode !== "move" ? (
        <Field id="category-name" label={t("categories.name")} error={errors.name?.message}>
          <Controller
            name="name"
            control={form.control}
            render={({ field }) => (
              <Input {...field} id="category-name" autoFocus aria-invalid={!!errors.name} maxLength={100} />
            )}
          />
        </Field>
      ) : null}
      {edit.mode !== "rename" ? (
        <Field id="category-parent" label={t("categories.parent")} error={errors.parentId?.message}>
          <Controller
            name="parentId"
            control={form.control}
            render={({ field }) => (
              <TreeSelect
                id="category-parent"
                aria-label={t("categories.parent")}
                value={field.value ?? undefined}
                onChange={(value) => field.onChange(value ?? null)}
                treeData={props.parents}
                treeDefaultExpandAll
                allowClear
                showSearch
                treeNodeFilterProp="title"
                placeholder={t("categories.topLevel")}
                style={{ width: "100%" }}
              />
            )}
          />
        </Field>
      ) : null}
    </FormModal>
  );
};
