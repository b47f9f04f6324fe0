import { Select, Tag } from "antd";
import { useEffect, useState } from "react";
import { callOwn, type ItemOf } from "./api";
import { useT } from "./i18n";

type Tenant = ItemOf<"tenants.list">;

/**
 * The platform administrator's organization switcher in the header (decision 0084): their own
 * organization, or any other one, found by name as they type. Choosing one reopens the screen in it.
 */
export const OrganizationPicker = (props: {
  own: { id: string; name: string };
  value: string;
  onChange: (tenantId: string) => void;
}) => {
  const t = useT();
  const [search, setSearch] = useState("");
  const [found, setFound] = useState<Tenant[]>([]);
  const [current, setCurrent] = useState<Tenant | null>(null);
  const [loading, setLoading] = useState(false);

  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      setLoading(true);
      callOwn("tenants.list", { name: search.trim() || undefined, sortBy: "name", limit: 50 })
        .then((page) => live && setFound(page.items))
        .catch(() => live && setFound([]))
        .finally(() => live && setLoading(false));
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [search]);

  // The chosen organization's name, even when it is not among the names found.
  useEffect(() => {
    if (props.value === props.own.id) return setCurrent(null);
    let live = true;
    callOwn("tenants.get", { id: props.value })
      .then((tenant) => live && setCurrent(tenant))
      .catch(() => live && setCurrent(null));
    return () => {
      live = false;
    };
  }, [props.value, props.own.id]);

  const label = (tenant: Tenant) => (
    <span>
      {tenant.name}
      {!tenant.active && (
        <Tag style={{ marginInlineStart: 8 }} color="default">
          {t("common.inactive")}
        </Tag>
      )}
    </span>
  );
  const listed = new Map<string, Tenant>();
  for (const tenant of [...(current ? [current] : []), ...found]) listed.set(tenant.id, tenant);
  const options = [
    { value: props.own.id, label: props.own.name, tenant: null as Tenant | null },
    ...[...listed.values()]
      .filter((tenant) => tenant.id !== props.own.id)
      .map((tenant) => ({ value: tenant.id, label: tenant.name, tenant })),
  ];

  return (
    <Select
      aria-label={t("header.organization")}
      data-testid="organization-picker"
      value={props.value}
      onChange={props.onChange}
      showSearch={{ filterOption: false, onSearch: setSearch }}
      loading={loading}
      options={options}
      optionRender={(option) =>
        option.data.tenant ? (
          label(option.data.tenant)
        ) : (
          <span>
            {option.data.label}
            <Tag style={{ marginInlineStart: 8 }} color="purple">
              {t("tenants.platform")}
            </Tag>
          </span>
        )
      }
      popupMatchSelectWidth={320}
      style={{ width: 280 }}
    />
  );
};
