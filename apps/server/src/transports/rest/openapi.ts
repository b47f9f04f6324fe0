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
    transform: jsonSchemaTransform,
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
