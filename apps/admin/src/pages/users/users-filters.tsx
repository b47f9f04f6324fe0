import { Input, Select } from "antd";
import { useT } from "../../i18n";
import { options, type Ref } from "../../list-screen-parts";

/** What the users list is narrowed to: email and name as typed, a role, active or not. */
export type UserFilters = { email: string; name: string; roleId?: string; active?: boolean };

/** The users list's filters above the table. */
export const UsersFilters = (props: {
  filters: UserFilters;
  roles: Ref[];
  onChange: (change: Partial<UserFilters>) => void;
}) => {
  const t = useT();
  const { filters, onChange } = props;
  return (
    <>
      <Input.Search
        aria-label={t("users.searchEmail")}
        placeholder={t("users.searchEmail")}
        allowClear
        value={filters.email}
        onChange={(event) => onChange({ email: event.target.value })}
        style={{ width: 260 }}
      />
      <Input.Search
        aria-label={t("users.searchName")}
        placeholder={t("users.searchName")}
        allowClear
        value={filters.name}
        onChange={(event) => onChange({ name: event.target.value })}
        style={{ width: 220 }}
      />
      <Select
        aria-label={t("users.role")}
        placeholder={t("users.role")}
        allowClear
        value={filters.roleId}
        options={options(props.roles)}
        onChange={(roleId?: string) => onChange({ roleId })}
        style={{ width: 180 }}
      />
      <Select
        aria-label={t("users.status")}
        value={filters.active === undefined ? "all" : String(filters.active)}
        options={[
          { value: "all", label: t("common.all") },
          { value: "true", label: t("common.active") },
          { value: "false", label: t("common.inactive") },
        ]}
        onChange={(value: string) => onChange({ active: value === "all" ? undefined : value === "true" })}
        style={{ width: 150 }}
      />
    </>
  );
};
