import {
  type CoreServices,
  ZCreateTenantInput,
  ZListTenantsQuery,
  ZTenantDto,
  ZUpdateTenantInput,
} from "@hisob/core";
import { ZPage } from "@hisob/kernel";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ctxOf } from "../http/auth-context";

const ZIdParams = z.object({ id: z.uuid() });
const tags = ["tenants"];

/** Tenants: the platform admin's (tenants:*:all exists only in the platform tenant). */
export const tenantsRoutes: FastifyPluginAsyncZod<{ services: CoreServices }> = async (app, { services }) => {
  const { tenants } = services;
  app.get(
    "/tenants",
    {
      schema: {
        tags,
        summary: "List tenants (tenants:read:all)",
        querystring: ZListTenantsQuery,
        response: { 200: ZPage(ZTenantDto) },
      },
    },
    (request) => tenants.list(ctxOf(request), request.query),
  );
  app.post(
    "/tenants",
    {
      schema: {
        tags,
        summary: "Create a tenant with its admin role (tenants:create:all)",
        body: ZCreateTenantInput,
        response: { 201: ZTenantDto },
      },
    },
    async (request, reply) => reply.code(201).send(await tenants.create(ctxOf(request), request.body)),
  );
  app.get(
    "/tenants/:id",
    {
      schema: {
        tags,
        summary: "Get a tenant (tenants:read:all)",
        params: ZIdParams,
        response: { 200: ZTenantDto },
      },
    },
    (request) => tenants.get(ctxOf(request), request.params.id),
  );
  app.put(
    "/tenants/:id",
    {
      schema: {
        tags,
        summary: "Update or (de)activate a tenant (tenants:update:all); deactivation ends its sessions",
        params: ZIdParams,
        body: ZUpdateTenantInput,
        response: { 200: ZTenantDto },
      },
    },
    (request) => tenants.update(ctxOf(request), request.params.id, request.body),
  );
};
