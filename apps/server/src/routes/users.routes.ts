import {
  type CoreServices,
  XLSX_CONTENT_TYPE,
  ZAssignRolesInput,
  ZCreateUserInput,
  ZExportUsersQuery,
  ZListUsersQuery,
  ZUpdateUserInput,
  ZUserDto,
} from "@hisob/core";
import { ZPage } from "@hisob/kernel";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ctxOf } from "../http/auth-context";
import { takeDownloadLang } from "../http/download-locale";
import { sendXlsx } from "../http/xlsx-reply";

const ZIdParams = z.object({ id: z.uuid() });
const tags = ["users"];

/** Users of the caller's tenant. Permissions: see the README's route table. */
export const usersRoutes: FastifyPluginAsyncZod<{ services: CoreServices }> = async (app, { services }) => {
  const { users } = services;

  app.get(
    "/users",
    {
      schema: {
        tags,
        summary: "List users (users:read:all; users:read:own lists only oneself)",
        querystring: ZListUsersQuery,
        response: { 200: ZPage(ZUserDto) },
      },
    },
    (request) => users.list(ctxOf(request), request.query),
  );

  app.get(
    "/users/export",
    {
      schema: {
        tags,
        summary:
          "The users list as a spreadsheet (.xlsx), same query as GET /users; every matching row unless limit is given",
        querystring: ZExportUsersQuery,
        produces: [XLSX_CONTENT_TYPE],
      },
      config: { freshCaller: true },
      preValidation: takeDownloadLang,
    },
    (request, reply) => sendXlsx(request, reply, users.prepareExport(ctxOf(request), request.query)),
  );

  app.post(
    "/users",
    {
      schema: {
        tags,
        summary: "Create a user (users:create:all)",
        body: ZCreateUserInput,
        response: { 201: ZUserDto },
      },
    },
    async (request, reply) => reply.code(201).send(await users.create(ctxOf(request), request.body)),
  );

  app.get(
    "/users/:id",
    {
      schema: {
        tags,
        summary: "Get a user (users:read:all, or users:read:own for oneself)",
        params: ZIdParams,
        response: { 200: ZUserDto },
      },
    },
    (request) => users.get(ctxOf(request), request.params.id),
  );

  app.put(
    "/users/:id",
    {
      schema: {
        tags,
        summary: "Update a user (users:update:all, or users:update:own for one's own name, language, avatar)",
        params: ZIdParams,
        body: ZUpdateUserInput,
        response: { 200: ZUserDto },
      },
    },
    (request) => users.update(ctxOf(request), request.params.id, request.body),
  );

  app.delete(
    "/users/:id",
    {
      schema: {
        tags,
        summary: "Delete a user (users:delete:all)",
        params: ZIdParams,
        response: { 204: z.null().describe("Deleted") },
      },
    },
    async (request, reply) => {
      await users.delete(ctxOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    "/users/:id/roles",
    {
      schema: {
        tags,
        summary: "Assign roles to a user (users:update:all)",
        params: ZIdParams,
        body: ZAssignRolesInput,
        response: { 200: ZUserDto },
      },
    },
    (request) => users.assignRoles(ctxOf(request), request.params.id, request.body),
  );

  app.delete(
    "/users/:id/roles/:roleId",
    {
      schema: {
        tags,
        summary: "Unassign a role from a user (users:update:all)",
        params: ZIdParams.extend({ roleId: z.uuid() }),
        response: { 200: ZUserDto },
      },
    },
    (request) => users.unassignRole(ctxOf(request), request.params.id, request.params.roleId),
  );
};
