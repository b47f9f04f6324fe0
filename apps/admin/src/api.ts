import { type HttpBinding, inputKeyOf } from "@hisob/kernel/schema";
import { createRestClient, type RestClient, signInUrl } from "@hisob/ui";
import { actingTenantId } from "./acting";
import { type AdminOperationId, type InputOf, type OutputOf, ROUTES, urlOf } from "./catalog";
import { i18n } from "./i18n";

export type { AdminOperationId, InputOf, ItemOf, OperationId, OutputOf } from "./catalog";
export { urlOf } from "./catalog";

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

/** An operation's path with its parameters filled in from the input. */
const pathOf = (http: HttpBinding, input: unknown): string => {
  const values = (input ?? {}) as Record<string, unknown>;
  return http.path.replace(/:([A-Za-z][A-Za-z0-9]*)/g, (_, name: string) =>
    encodeURIComponent(String(values[inputKeyOf(http, name)])),
  );
};

type Call = <Id extends AdminOperationId>(
  id: Id,
  ...input: InputOf<Id> extends undefined ? [] : [input: InputOf<Id>]
) => Promise<OutputOf<Id>>;

const callOver =
  (rest: RestClient): Call =>
  (id, ...args) => {
    const http: HttpBinding = ROUTES[id];
    const input = args[0] as unknown;
    if (http.method === "GET" || http.method === "DELETE")
      return rest(http.method, urlOf(id, input as never));
    // A change: the parameters in the path, the rest (the `rest` key, or all of it) as the body.
    const values = (input ?? {}) as Record<string, unknown>;
    const body = http.rest ? values[http.rest] : http.path.includes(":") ? undefined : input;
    return rest(http.method, pathOf(http, input), body);
  };

/** `call("users.update", { id, data })`: an operation of the catalog, in the organization acted in. */
export const call = callOver(api);
/** An operation about the signed-in administrator themselves: never in another organization. */
export const callOwn = callOver(ownApi);
