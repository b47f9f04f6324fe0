import { useEffect, useState } from "react";

/**
 * The organization a platform administrator is acting in (decision 0084), remembered in the address
 * as `?org=<id>` so a reload, a link or the back button keep it. Absent: their own organization.
 */
export const ORG_PARAM = "org";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The organization the address names, or null (none, or not an id). */
export const actingTenantId = (): string | null => {
  const value = new URLSearchParams(window.location.search).get(ORG_PARAM);
  return value && UUID.test(value) ? value.toLowerCase() : null;
};

/** `?org=<id>` for links that keep the organization, or "" when acting in one's own. */
export const orgSearch = (tenantId: string | null): string =>
  tenantId ? `?${new URLSearchParams({ [ORG_PARAM]: tenantId })}` : "";

/** The organization the address names, following history changes. */
export const useActingTenantId = (): string | null => {
  const [id, setId] = useState(actingTenantId);
  useEffect(() => {
    const onChange = () => setId(actingTenantId());
    window.addEventListener("popstate", onChange);
    return () => window.removeEventListener("popstate", onChange);
  }, []);
  return id;
};
