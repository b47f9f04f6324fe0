import {
  type CoreServices,
  ZAddRolePermissionsInput,
  ZCreateRoleInput,
  ZListRolesQuery,
  ZPermissionDto,
  ZRoleDto,
  ZRolePermissions,
  ZUpdateRoleInput,
} from "@hisob/core";
import { ZPage } from "@hisob/kernel";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ctxOf } from "../http/auth-context";

const ZIdParams = z.object({ id: z.uuid() });
const tags = ["roles"];

/** Roles of the caller's tenant, their permissions, and the catalogue of grantable permissions. */
export const rolesRoutes: FastifyPluginAsyncZod<{ services: CoreServices }> = async (app, { services }) => {
  const { roles } = services;

  app.get(
    "/roles",
    {
      schema: {
        tags,
        summary: "List roles (roles:read:all)",
        querystring: ZListRolesQuery,
        response: { 200: ZPage(ZRoleDto) },
      },
    },
    (request) => roles.list(ctxOf(request), request.query),
  );

  app.post(
    "/roles",
    {
      schema: {
        tags,
        summary: "Create a role (roles:create:all)",
        body: ZCreateRoleInput,
        response: { 201: ZRoleDto },
      },
    },
    async (request, reply) => reply.code(201).send(await roles.create(ctxOf(request), request.body)),
  );

  app.get(
    "/roles/:id",
    {
      schema: {
        tags,
        summary: "Get a role (roles:read:all)",
        params: ZIdParams,
        response: { 200: ZRoleDto },
      },
    },
    (request) => roles.get(ctxOf(request), request.params.id),
  );

  app.put(
    "/roles/:id",
    {
      schema: {
        tags,
        summary: "Update a role; `permissions` replaces the whole set (roles:update:all)",
        params: ZIdParams,
        body: ZUpdateRoleInput,
        response: { 200: ZRoleDto },
      },
    },
    (request) => roles.update(ctxOf(request), request.params.id, request.body),
  );

  app.delete(
    "/roles/:id",
    {
      schema: {
        tags,
        summary: "Delete a role and its assignments (roles:delete:all)",
        params: ZIdParams,
        response: { 204: z.null().describe("Deleted") },
      },
    },
    async (request, reply) => {
      await roles.delete(ctxOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    "/roles/:id/permissions",
    {
      schema: {
        tags,
        summary: "A role's permissions, sorted (roles:read:all)",
        params: ZIdParams,
        response: { 200: ZRolePermissions },
      },
    },
    (request) => roles.listRolePermissions(ctxOf(request), request.params.id),
  );

  app.post(
    "/roles/:id/permissions",
    {
      schema: {
        tags,
        summary: "Add permissions to a role; idempotent; returns the new set (roles:update:all)",
        params: ZIdParams,
        body: ZAddRolePermissionsInput,
        response: { 200: ZRolePermissions },
      },
    },
    (request) => roles.grantPermissions(ctxOf(request), request.params.id, request.body),
  );

  app.delete(
    "/roles/:id/permissions/:permission",
    {
      schema: {
        tags,
        summary: "Remove one permission from a role; returns the new set (roles:update:all)",
        params: ZIdParams.extend({ permission: z.string().min(1).max(200) }),
        response: { 200: ZRolePermissions },
      },
    },
    (request) => roles.revokePermission(ctxOf(request), request.params.id, request.params.permission),
  );

  app.get(
    "/permissions",
    {
      schema: {
        tags,
        summary: "Permissions a role of the caller's tenant may hold (roles:read:all)",
        response: { 200: z.array(ZPermissionDto) },
      },
    },
    (request) => roles.listPermissions(ctxOf(request)),
  );
};
