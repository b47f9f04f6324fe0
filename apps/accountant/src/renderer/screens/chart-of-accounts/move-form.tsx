import type { TGlAccountDto } from "@hisob/finance/schema";
import { describeFailure, useLocale } from "@hisob/ui";
import { useQueryClient } from "@tanstack/react-query";
import { App as AntApp, TreeSelect } from "antd";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useApi } from "../../api-context";
import { Field } from "../../components/field";
import { FormModal } from "../../components/form-modal";
import { GL_ACCOUNTS_KEY } from "./queries";
import { moveTargets } from "./tree";

/**
 * Moves an account, with its sub-accounts, under another parent or to the top of the chart
 * (docs/decisions/0111-books-features.md). The choices are the server's rule restated (its type, no
 * lines, not under itself); the server decides, and its refusal is shown as it words it.
 */
export const MoveForm = (props: {
  account: TGlAccountDto & { name: string };
  accounts: readonly TGlAccountDto[];
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  const locale = useLocale();
  const api = useApi();
  const queryClient = useQueryClient();
  const { message } = AntApp.useApp();
  const { account } = props;
  const [parentId, setParentId] = useState<string | null>(account.parentId);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const targets = useMemo(
    () => moveTargets(props.accounts, account, locale),
    [props.accounts, account, locale],
  );

  const submit = async () => {
    setError(null);
    setBusy(true);
    try {
      await api.generalLedger.moveAccount.mutate({ id: account.id, data: { parentId } });
    } catch (failure) {
      setError(describeFailure(failure, t).message);
      return;
    } finally {
      setBusy(false);
    }
    await queryClient.invalidateQueries({ queryKey: GL_ACCOUNTS_KEY });
    void message.success(t("chart.moved"));
    props.onClose();
  };

  return (
    <FormModal
      id="gl-move-form"
      title={t("chart.moveTitle", { code: account.code, name: account.name })}
      open
      busy={busy}
      error={error}
      submitLabel={t("chart.moveSubmit")}
      onSubmit={() => void submit()}
      onCancel={props.onClose}
    >
      <Field id="gl-move-parent" label={t("chart.moveParent")} hint={t("chart.moveHint")}>
        <TreeSelect
          id="gl-move-parent"
          data-testid="gl-move-parent"
          aria-label={t("chart.moveParent")}
          value={parentId ?? undefined}
          onChange={(value: string | undefined) => setParentId(value ?? null)}
          treeData={targets}
          treeDefaultExpandAll
          allowClear
          showSearch
          treeNodeFilterProp="title"
          placeholder={t("chart.moveTop")}
          style={{ width: "100%" }}
        />
      </Field>
    </FormModal>
  );
};
