import {
  type CoreServices,
  ZAddGroupUsersInput,
  ZCreateGroupInput,
  ZGroupDto,
  ZListGroupsQuery,
  ZUpdateGroupInput,
} from "@hisob/core";
import { ZPage } from "@hisob/kernel";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ctxOf } from "../http/auth-context";

const ZIdParams = z.object({ id: z.uuid() });
const tags = ["groups"];

/** Groups of the caller's tenant: their users and roles. Members hold the group's roles' permissions. */
export const groupsRoutes: FastifyPluginAsyncZod<{ services: CoreServices }> = async (app, { services }) => {
  const { groups } = services;

  app.get(
    "/groups",
    {
      schema: {
        tags,
        summary: "List groups (groups:read:all)",
        querystring: ZListGroupsQuery,
        response: { 200: ZPage(ZGroupDto) },
      },
    },
    (request) => groups.list(ctxOf(request), request.query),
  );

  app.post(
    "/groups",
    {
      schema: {
        tags,
        summary: "Create a group, optionally with roles and users (groups:create:all)",
        body: ZCreateGroupInput,
        response: { 201: ZGroupDto },
      },
    },
    async (request, reply) => reply.code(201).send(await groups.create(ctxOf(request), request.body)),
  );

  app.get(
    "/groups/:id",
    {
      schema: {
        tags,
        summary: "Get a group (groups:read:all)",
        params: ZIdParams,
        response: { 200: ZGroupDto },
      },
    },
    (request) => groups.get(ctxOf(request), request.params.id),
  );

  app.put(
    "/groups/:id",
    {
      schema: {
        tags,
        summary: "Update a group; `roleIds` replaces its roles (groups:update:all)",
        params: ZIdParams,
        body: ZUpdateGroupInput,
        response: { 200: ZGroupDto },
      },
    },
    (request) => groups.update(ctxOf(request), request.params.id, request.body),
  );

  app.delete(
    "/groups/:id",
    {
      schema: {
        tags,
        summary: "Delete a group and its memberships (groups:delete:all)",
        params: ZIdParams,
        response: { 204: z.null().describe("Deleted") },
      },
    },
    async (request, reply) => {
      await groups.delete(ctxOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    "/groups/:id/users",
    {
      schema: {
        tags,
        summary: "Add users to a group; idempotent (groups:update:all)",
        params: ZIdParams,
        body: ZAddGroupUsersInput,
        response: { 200: ZGroupDto },
      },
    },
    (request) => groups.addUsers(ctxOf(request), request.params.id, request.body),
  );

  app.delete(
    "/groups/:id/users/:uid",
    {
      schema: {
        tags,
        summary: "Remove a user from a group (groups:update:all)",
        params: ZIdParams.extend({ uid: z.uuid() }),
        response: { 200: ZGroupDto },
      },
    },
    (request) => groups.removeUser(ctxOf(request), request.params.id, request.params.uid),
  );
};
