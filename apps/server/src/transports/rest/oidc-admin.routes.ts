import {
  type OidcProvider,
  ZOidcClientDto,
  ZRegisterClientInput,
  ZRegisteredClientDto,
  ZRotatedSecretDto,
  ZSigningKeyDto,
  ZUpdateClientInput,
} from "@hisob/oidc";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ctxOf } from "../shared/auth-context";

const ZClientParams = z.object({ clientId: z.string().regex(/^[A-Za-z0-9._-]{3,100}$/) });
const ZKidParams = z.object({ kid: z.uuid() });

/**
 * Managing the OpenID provider on a running server (platform administrators): the same service as
 * the CLI's oidc:* commands. Not under /oidc/, which belongs to the protocol endpoints.
 */
export const oidcAdminRoutes: FastifyPluginAsyncZod<{ oidc: OidcProvider }> = async (app, { oidc }) => {
  const { admin } = oidc;
  const clients = { tags: ["oidc clients"] };
  const keys = { tags: ["signing keys"] };

  app.get(
    "/oidc-clients",
    {
      schema: {
        ...clients,
        summary: "List OIDC clients (oidc_clients:read:all)",
        response: { 200: z.array(ZOidcClientDto) },
      },
    },
    (request) => admin.listClients(ctxOf(request)),
  );

  app.post(
    "/oidc-clients",
    {
      schema: {
        ...clients,
        summary:
          "Register an OIDC client (oidc_clients:create:all); a confidential client's secret is in this answer only",
        body: ZRegisterClientInput,
        response: { 201: ZRegisteredClientDto },
      },
    },
    async (request, reply) => reply.code(201).send(await admin.createClient(ctxOf(request), request.body)),
  );

  app.get(
    "/oidc-clients/:clientId",
    {
      schema: {
        ...clients,
        summary: "Get an OIDC client (oidc_clients:read:all)",
        params: ZClientParams,
        response: { 200: ZOidcClientDto },
      },
    },
    (request) => admin.getClient(ctxOf(request), request.params.clientId),
  );

  app.put(
    "/oidc-clients/:clientId",
    {
      schema: {
        ...clients,
        summary: "Edit an OIDC client; isActive: false deactivates it (oidc_clients:update:all)",
        params: ZClientParams,
        body: ZUpdateClientInput,
        response: { 200: ZOidcClientDto },
      },
    },
    (request) => admin.updateClient(ctxOf(request), request.params.clientId, request.body),
  );

  app.post(
    "/oidc-clients/:clientId/secret",
    {
      schema: {
        ...clients,
        summary:
          "Rotate a confidential client's secret (oidc_clients:update:all): the new one is shown once, the old one stops working",
        params: ZClientParams,
        response: { 200: ZRotatedSecretDto },
      },
    },
    (request) => admin.rotateSecret(ctxOf(request), request.params.clientId),
  );

  app.get(
    "/signing-keys",
    {
      schema: {
        ...keys,
        summary: "List signing keys, newest first (signing_keys:read:all)",
        response: { 200: z.array(ZSigningKeyDto) },
      },
    },
    (request) => admin.listKeys(ctxOf(request)),
  );

  app.post(
    "/signing-keys",
    {
      schema: {
        ...keys,
        summary:
          "Rotate: a new signing key signs from now on; older keys stay published until retired (signing_keys:rotate:all)",
        response: { 201: ZSigningKeyDto },
      },
    },
    async (request, reply) => reply.code(201).send(await admin.rotateKey(ctxOf(request))),
  );

  app.post(
    "/signing-keys/:kid/retire",
    {
      schema: {
        ...keys,
        summary:
          "Retire an older key once no token it signed can still be valid (signing_keys:retire:all); 409 before that",
        params: ZKidParams,
        response: { 200: ZSigningKeyDto },
      },
    },
    (request) => admin.retireKey(ctxOf(request), request.params.kid),
  );
};
