import { Select, Space } from "antd";
import { useTranslation } from "react-i18next";
import { useAllAccounts } from "../../api-context";
import { DateInput } from "../../components/date-input";
import { CategoryPicker, CounterpartyPicker } from "../../components/pickers";
import type { DocumentKind } from "./document-kind";

/** The category and counterparty filters: wide enough for the longest placeholder in en/ru/uz
 * ("Barcha kontragentlar") beside the clear and arrow icons, so none is cut off. */
const FILTER_PICKER_WIDTH = 190;

/** What the list is narrowed to (in the address) and how it is sorted (the screen's). */
export type DocumentFilters = {
  accountId?: string;
  categoryId?: string;
  counterpartyId?: string;
  from?: string;
  to?: string;
  sortBy: "date" | "amount" | "createdAt";
  order: "asc" | "desc";
};

/** The list's filters: account, category, counterparty, and the dates from and to. */
export const DocumentFiltersBar = (props: {
  kind: DocumentKind;
  filters: DocumentFilters;
  onChange: (change: Partial<DocumentFilters>) => void;
}) => {
  const { t } = useTranslation();
  const accounts = useAllAccounts();
  const { kind, filters } = props;
  const filter = props.onChange;
  return (
    <Space wrap style={{ marginBottom: 16 }} role="search" aria-label={t("documents.filters")}>
      <Select
        aria-label={t("documents.account")}
        style={{ width: 200 }}
        value={filters.accountId ?? ""}
        onChange={(value) => filter({ accountId: value || undefined })}
        options={[
          { value: "", label: t("documents.allAccounts") },
          ...(accounts.data?.items ?? []).map((a) => ({ value: a.id, label: `${a.name} (${a.currency})` })),
        ]}
      />
      <div style={{ width: FILTER_PICKER_WIDTH }}>
        <CategoryPicker
          kind={kind}
          id="filter-category"
          aria-label={t("documents.category")}
          value={filters.categoryId ?? null}
          onChange={(value) => filter({ categoryId: value ?? undefined })}
          placeholder={t("documents.allCategories")}
        />
      </div>
      <div style={{ width: FILTER_PICKER_WIDTH }}>
        <CounterpartyPicker
          id="filter-counterparty"
          aria-label={t("documents.counterparty")}
          value={filters.counterpartyId ?? null}
          onChange={(value) => filter({ counterpartyId: value ?? undefined })}
          placeholder={t("documents.allCounterparties")}
        />
      </div>
      <label htmlFor="filter-from">{t("documents.from")}</label>
      <DateInput
        id="filter-from"
        width={140}
        allowClear
        value={filters.from ?? ""}
        onChange={(date) => filter({ from: date || undefined })}
      />
      <label htmlFor="filter-to">{t("documents.to")}</label>
      <DateInput
        id="filter-to"
        width={140}
        allowClear
        value={filters.to ?? ""}
        onChange={(date) => filter({ to: date || undefined })}
      />
    </Space>
  );
};
