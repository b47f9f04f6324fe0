import { useTranslation } from "react-i18next";
import { KEYS, useApi } from "../api-context";
import { RecordPicker } from "./record-picker";

/* The pickers of the finance forms, each over its server list (searched by the server, by name). */

const PAGE = 20;

type PickerProps = {
  id: string;
  value: string | null;
  onChange: (value: string | null) => void;
  onBlur?: () => void;
  status?: "" | "error";
  placeholder?: string;
  "aria-label"?: string;
};

/** A payment category (money in) or an expense category (money out). */
export const CategoryPicker = ({ kind, ...props }: PickerProps & { kind: "payments" | "expenses" }) => {
  const api = useApi();
  const { t } = useTranslation();
  const procedures = kind === "payments" ? api.paymentCategories : api.expenseCategories;
  return (
    <RecordPicker
      {...props}
      placeholder={props.placeholder ?? t("picker.noCategory")}
      queryKey={kind === "payments" ? KEYS.paymentCategories : KEYS.expenseCategories}
      search={async (text) =>
        (
          await procedures.list.query({
            limit: PAGE,
            sortBy: "name",
            order: "asc",
            search: text || undefined,
          })
        ).items.map((category) => ({ id: category.id, name: category.name, hint: category.description }))
      }
      resolve={async (id) => {
        const category = await procedures.get.query({ id });
        return { id: category.id, name: category.name, hint: category.description };
      }}
    />
  );
};

/** A customer, supplier or other counterparty (the hint is its TIN). */
export const CounterpartyPicker = (props: PickerProps) => {
  const api = useApi();
  const { t } = useTranslation();
  return (
    <RecordPicker
      {...props}
      placeholder={props.placeholder ?? t("picker.noCounterparty")}
      queryKey={KEYS.counterparties}
      search={async (text) =>
        (
          await api.counterparties.list.query({
            limit: PAGE,
            sortBy: "name",
            order: "asc",
            search: text || undefined,
          })
        ).items.map((counterparty) => ({
          id: counterparty.id,
          name: counterparty.name,
          hint: counterparty.tin,
        }))
      }
      resolve={async (id) => {
        const counterparty = await api.counterparties.get.query({ id });
        return { id: counterparty.id, name: counterparty.name, hint: counterparty.tin };
      }}
    />
  );
};
