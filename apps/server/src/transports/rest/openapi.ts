import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import { jsonSchemaTransform, jsonSchemaTransformObject } from "fastify-type-provider-zod";
import rootPackage from "../../../../../package.json" with { type: "json" };
import type { App } from "../../app";
import { routePolicy } from "../shared/auth-context";

export const OPENAPI_PATH = "/openapi.json";
export const DOCS_PREFIX = "/docs";
export const API_TITLE = "Hisob API";
export const API_VERSION: string = rootPackage.version;

/** The header of the operations that post money, as the reference shows it. */
const IDEMPOTENCY_KEY_HEADER = {
  type: "object",
  properties: {
    "idempotency-key": {
      type: "string",
      maxLength: 255,
      description:
        "One key per intent (e.g. a UUID per form submission): the same key and body within 24 hours answers the first result and posts nothing new; the same key with another body is 422 `idempotency.key_reused`.",
    },
  },
};

/** The header a platform administrator names another organization with (decision 0084). */
const TENANT_HEADER_PROPERTY = {
  "x-tenant-id": {
    type: "string",
    format: "uuid",
    description:
      "Platform administrators only: run this call in the organization with this id, as its own administrator would (tenants:read:all to read, tenants:update:all to change). Anyone else naming another organization gets 403.",
  },
};

/**
 * Publishes the OpenAPI 3.1 document built from the routes' zod schemas, and the Swagger UI reference.
 * Must be registered before any route: @fastify/swagger collects routes as they are added.
 */
export const registerOpenApi = async (app: App): Promise<void> => {
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: API_TITLE,
        version: API_VERSION,
        description:
          "REST interface of Hisob. Errors use the envelope `{ error: { code, reason, message, requestId } }`.",
      },
      tags: [{ name: "health", description: "Liveness and readiness probes" }],
      components: {
        securitySchemes: {
          session: {
            type: "apiKey",
            in: "cookie",
            name: "session",
            description: "The session cookie set by POST /auth/login or /login",
          },
          bearer: {
            type: "http",
            scheme: "bearer",
            description: "A session token or a first-party OIDC access token",
          },
        },
      },
      security: [{ session: [] }, { bearer: [] }],
    },
    transform: (route) => {
      const transformed = jsonSchemaTransform(route);
      const config = route.route?.config;
      if (!config?.idempotent && !config?.actsInTenant) return transformed;
      // Documented here, not validated by a headers schema: auth-context.ts reads and checks them.
      const headers = {
        type: "object",
        properties: {
          ...(config.idempotent ? IDEMPOTENCY_KEY_HEADER.properties : {}),
          ...(config.actsInTenant ? TENANT_HEADER_PROPERTY : {}),
        },
      };
      return { ...transformed, schema: { ...transformed.schema, headers } };
    },
    // Schemas registered with .meta({ id }) become components/schemas that the routes reference.
    transformObject: jsonSchemaTransformObject,
  });

  // The reference is public; its routes are the plugin's, so the policy comes by its onRoute hook.
  await app.register(async (docs) => {
    docs.addHook("onRoute", routePolicy({ public: true }));
    await docs.register(swaggerUi, {
      routePrefix: DOCS_PREFIX,
      // validatorUrl stays null (the default): the UI must not call validator.swagger.io.
      uiConfig: { deepLinking: true },
      staticCSP: true,
      // The stock policy adds upgrade-insecure-requests, which breaks the page on plain-http development hosts.
      transformStaticCSP: (header) => header.replace(/\s*upgrade-insecure-requests;?/, ""),
    });
  });

  app.get(OPENAPI_PATH, { config: { public: true }, schema: { hide: true } }, (_request, reply) =>
    reply.send(app.swagger()),
  );
};
