import { createRestClient, signInUrl } from "@hisob/ui";
import { actingTenantId } from "./acting";
import { i18n } from "./i18n";

const common = {
  language: () => i18n.language,
  onUnauthenticated: () => window.location.assign(signInUrl()),
};

/**
 * The admin screens' one way to the server: the shared REST client, same-origin with the `session`
 * cookie, errors in the user's language; a 401 sends the browser to the login page and back. While a
 * platform administrator acts in another organization (`?org=`), every call names it in the
 * `x-tenant-id` header (decision 0084).
 */
export const api = createRestClient({
  ...common,
  headers: (): Record<string, string> => {
    const tenantId = actingTenantId();
    return tenantId ? { "x-tenant-id": tenantId } : {};
  },
});

/** Calls about the signed-in administrator themselves (their account, the organization picker): never in another organization. */
export const ownApi = createRestClient(common);
