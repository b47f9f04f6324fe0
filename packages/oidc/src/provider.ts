import type { Db, Outbox } from "@hisob/db";
import { type Clock, systemClock } from "@hisob/kernel";
import { createAccessTokenVerifier } from "./access-tokens";
import { createOidcAdmin } from "./admin/oidc-admin";
import { TOKEN_LIFETIME_BOUNDS } from "./admin/oidc-admin.schema";
import { createAuthorize } from "./authorize/authorize";
import { createClients } from "./clients/clients";
import { createWebOrigins } from "./clients/web-origins";
import {
  DEFAULT_CODE_LIFETIME_SECONDS,
  DEFAULT_KEY_PROPAGATION_SECONDS,
  discoveryDocument,
  type OidcConfig,
} from "./config";
import { createConsentInteractions } from "./consent/consent-interaction";
import { createEndSession } from "./end-session";
import { createIntrospect } from "./introspect";
import { createSigningKeys } from "./keys";
import { createRevoke } from "./revoke";
import { createTokenEndpoint } from "./token/token-endpoint";
import { createUserinfo } from "./userinfo";

export const DESKTOP_CLIENT_ID = "hisob-desktop";

export type OidcProviderDeps = {
  db: Db;
  /** Revoked grants and clients whose tokens stop are announced through it (docs/decisions/0011). */
  outbox: Outbox;
  config: Omit<OidcConfig, "codeLifetime"> & { codeLifetime?: number };
  /** OIDC_CRYPTO_KEY: encrypts the signing keys at rest. */
  cryptoKey: string;
  clock?: Clock;
};

/**
 * The OpenID provider: one action per endpoint (discovery, authorize, token, userinfo, keys,
 * revoke), sharing clients, signing keys and the access-token check. Transport-free: the server's
 * routes parse HTTP and call these.
 */
export const createOidcProvider = (deps: OidcProviderDeps) => {
  const clock = deps.clock ?? systemClock;
  const config: OidcConfig = {
    ...deps.config,
    codeLifetime: deps.config.codeLifetime ?? DEFAULT_CODE_LIFETIME_SECONDS,
  };
  const { db, outbox } = deps;
  const clients = createClients({ db });
  const keys = createSigningKeys({
    db,
    cryptoKey: deps.cryptoKey,
    clock,
    longestTokenLifetimeSeconds: Math.max(
      config.accessTokenLifetime,
      config.idTokenLifetime,
      config.refreshTokenLifetime,
      // A client may sign its ID tokens for longer than the server's setting (decision 0085).
      TOKEN_LIFETIME_BOUNDS.idTokenLifetime.max,
    ),
    propagationDelaySeconds: config.keyPropagationSeconds ?? DEFAULT_KEY_PROPAGATION_SECONDS,
  });
  const verifyAccessToken = createAccessTokenVerifier({ db, clock, clients });
  const webOrigins = createWebOrigins({ db, clock });
  const admin = createOidcAdmin({ db, outbox, clients, keys, config, onClientChanged: webOrigins.forget });

  return {
    config,
    clients,
    keys,
    /** Browser origins the clients list (CORS on the browser-callable endpoints, decision 0085). */
    webOrigins,
    /** Clients and keys management, shared by the REST routes and the CLI. */
    admin,
    verifyAccessToken,
    discovery: () => discoveryDocument(config),
    authorize: createAuthorize({
      db,
      clients,
      config,
      clock,
      interactions: createConsentInteractions(deps.cryptoKey),
    }),
    token: createTokenEndpoint({ db, outbox, clients, config, clock, signer: keys }),
    userinfo: createUserinfo({ config, verifyAccessToken }),
    revoke: createRevoke({ db, outbox, clients, clock }),
    introspect: createIntrospect({ db, clients, clock, config }),
    endSession: createEndSession({ db, clients, keys, config }),

    /**
     * At start: a signing key exists and decrypts with this OIDC_CRYPTO_KEY (else startup stops
     * with "failed to decrypt private key"), and the accountant app is registered.
     */
    start: async () => {
      await keys.ensureActiveKey();
      await keys.load();
      await clients.ensure({
        clientId: DESKTOP_CLIENT_ID,
        name: "Hisob accountant app",
        isPublic: true,
        requirePkce: true,
        isFirstParty: true,
        applicationType: "native",
        redirectUris: [`${config.issuer}/app/callback`, "http://127.0.0.1/callback"],
        postLogoutRedirectUris: [`${config.issuer}/app/`],
      });
    },
  };
};

export type OidcProvider = ReturnType<typeof createOidcProvider>;
