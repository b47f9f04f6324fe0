import type { PreparedExport } from "@hisob/core";
import {
  type AnyOperation,
  accessWording,
  inputKeyOf,
  listOperations,
  type OperationCatalog,
  pathParams,
} from "@hisob/kernel";
import type { FastifySchema } from "fastify";
import { z } from "zod";
import type { App } from "../../app";
import { ctxOf } from "../shared/auth-context";
import { takeDownloadLang } from "./download-locale";
import { sendXlsx, XLSX_CONTENT_TYPE } from "./xlsx-reply";

/** A 204's body in the OpenAPI document. */
const ZDeleted = z.null().describe("Deleted");

/** An optional part (`query: Q.optional()`) is always present over HTTP: the schema of its value. */
const unwrapOptional = (schema: z.ZodType): z.ZodType =>
  schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema;

const shapeOf = (operation: AnyOperation): Record<string, z.ZodType> => {
  const input = operation.input;
  if (input instanceof z.ZodObject) return input.shape as Record<string, z.ZodType>;
  throw new Error(`${operation.http.method} ${operation.http.path}: path parameters need an object input`);
};

/**
 * How an operation travels over HTTP: its path parameters' schema, its query string or body, and
 * how the parts make the operation's input again.
 */
export const httpPartsOf = (operation: AnyOperation) => {
  const { http } = operation;
  const names = pathParams(http.path);
  const shape = names.length > 0 ? shapeOf(operation) : {};
  const params =
    names.length > 0
      ? z.object(
          Object.fromEntries(
            names.map((name) => {
              const schema = shape[inputKeyOf(http, name)];
              if (!schema) throw new Error(`${http.path}: no input key for :${name}`);
              return [name, schema];
            }),
          ),
        )
      : undefined;
  // The query or body: one key of the input beside the parameters, or the whole input without them.
  const restSchema = http.rest ? shape[http.rest] : names.length > 0 ? undefined : operation.input;
  const rest = restSchema ? unwrapOptional(restSchema) : undefined;
  const inBody = http.method === "POST" || http.method === "PUT";

  const toInput = (parts: { params?: unknown; query?: unknown; body?: unknown }): unknown => {
    const restValue = inBody ? parts.body : parts.query;
    if (names.length === 0) return operation.input ? restValue : undefined;
    const fromParams = Object.fromEntries(
      names.map((name) => [inputKeyOf(http, name), (parts.params as Record<string, unknown>)[name]]),
    );
    return http.rest ? { ...fromParams, [http.rest]: restValue } : fromParams;
  };
  return { params, rest, inBody, toInput };
};

/** The operation's OpenAPI summary: its line and who may call it. */
export const summaryOf = (operation: AnyOperation): string =>
  `${operation.summary} (${accessWording(operation.access)})`;

/**
 * One REST route per operation of the catalog: zod validates the parts (400 in our envelope), the
 * service is called with the caller's context, errors go through the one error handler.
 * `actsInTenant`: the operations (all, or those it picks) in which a platform administrator may name
 * the organization to act in (decision 0084).
 */
export const registerOperationRoutes = <S>(
  app: App,
  catalog: OperationCatalog,
  services: S,
  options: { actsInTenant?: boolean | ((operation: AnyOperation) => boolean) } = {},
): void => {
  for (const { operation } of listOperations(catalog)) {
    const { http } = operation;
    const actsInTenant =
      typeof options.actsInTenant === "function"
        ? options.actsInTenant(operation)
        : options.actsInTenant === true;
    const { params, rest, inBody, toInput } = httpPartsOf(operation);
    const schema: FastifySchema & { tags: string[]; summary: string; produces?: string[] } = {
      tags: [operation.tag],
      summary: summaryOf(operation),
      ...(params ? { params } : {}),
      ...(rest ? (inBody ? { body: rest } : { querystring: rest }) : {}),
    };
    if (operation.kind === "download") schema.produces = [XLSX_CONTENT_TYPE];
    else if (http.empty) {
      // 200 with the record, or the empty status when the call answers null (the output is nullable).
      const output = operation.output;
      const record = output instanceof z.ZodNullable ? (output.unwrap() as z.ZodType) : output;
      schema.response = {
        [http.status]: record,
        [http.empty.status]: z.null().describe(http.empty.description),
      };
    } else schema.response = { [http.status]: http.status === 204 ? ZDeleted : operation.output };

    app.route({
      method: http.method,
      url: http.path,
      schema,
      // Downloads take `?lang=` (the reader's language) before the query meets its schema; they
      // stream, so their handler runs once, with a caller resolved afresh.
      ...(operation.kind === "download"
        ? { preValidation: takeDownloadLang, config: { freshCaller: true, actsInTenant } }
        : // Read by the API reference, which documents the Idempotency-Key header (openapi.ts).
          { config: { idempotent: operation.idempotent === true, actsInTenant } }),
      handler: async (request, reply) => {
        const input = toInput({ params: request.params, query: request.query, body: request.body });
        const result = await operation.call(services, ctxOf(request), input as never);
        if (operation.kind === "download") return sendXlsx(request, reply, result as PreparedExport);
        if (http.empty && result === null) return reply.code(http.empty.status).send(null);
        return reply.code(http.status).send(http.status === 204 ? null : result);
      },
    });
  }
};
