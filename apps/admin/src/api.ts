import { createRestClient, signInUrl } from "@hisob/ui";
import { i18n } from "./i18n";

/**
 * The admin screens' one way to the server: the shared REST client, same-origin with the `session`
 * cookie, errors in the user's language; a 401 sends the browser to the login page and back.
 */
export const api = createRestClient({
  language: () => i18n.language,
  onUnauthenticated: () => window.location.assign(signInUrl()),
});
