import type { Server } from "node:http";
import { createServer } from "node:net";
import Provider from "oidc-provider";

/*
 * A real upstream OpenID provider for the external sign-in tests: panva's `oidc-provider` (certified),
 * with its development login screen (any login, any password) and consent granted automatically. Unlike
 * our own provider — whose `email_verified` is always false until email verification exists — its
 * accounts say what each test needs: a verified email, an unverified one, an unknown one.
 */

export type UpstreamAccount = { email?: string; emailVerified?: boolean };

/** A port free right now on 127.0.0.1 (the issuer must be known before the provider starts). */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });

export const startUpstreamProvider = async (options: {
  port: number;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** Login name → what the provider says about that account. */
  accounts: Record<string, UpstreamAccount>;
}) => {
  const issuer = `http://127.0.0.1:${options.port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        redirect_uris: [options.redirectUri],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    claims: { openid: ["sub"], email: ["email", "email_verified"] },
    pkce: { required: () => true },
    ttl: {
      AuthorizationCode: 60,
      Interaction: 600,
      Session: 600,
      Grant: 600,
      AccessToken: 600,
      IdToken: 600,
    },
    cookies: { keys: ["upstream-test-cookie-key-0123456789"] },
    features: { devInteractions: { enabled: true } },
    findAccount: async (_ctx, id) => {
      const account = options.accounts[id];
      if (!account) return undefined;
      return {
        accountId: id,
        claims: async () => ({
          sub: id,
          ...(account.email === undefined ? {} : { email: account.email }),
          ...(account.emailVerified === undefined ? {} : { email_verified: account.emailVerified }),
        }),
      };
    },
    // No consent screen: the test's users have already agreed.
    loadExistingGrant: async (ctx) => {
      const accountId = ctx.oidc.session?.accountId;
      const clientId = ctx.oidc.client?.clientId;
      if (!accountId || !clientId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ accountId, clientId });
      grant.addOIDCScope("openid email profile");
      await grant.save();
      return grant;
    },
  });
  const server: Server = await new Promise((resolve) => {
    const listening = provider.listen(options.port, "127.0.0.1", () => resolve(listening));
  });
  return {
    issuer,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
