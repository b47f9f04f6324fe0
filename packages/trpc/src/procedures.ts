import { XLSX_CONTENT_TYPE } from "@hisob/core";
import {
  type AnyOperation,
  type Download,
  isOperation,
  type NoInput,
  type OperationCatalog,
  operationUrl,
  type QueryOrMutation,
  type TenantContext,
  withIdempotencyKey,
  ZIdempotencyKeyField,
} from "@hisob/kernel";
import type { TRPCMutationProcedure, TRPCQueryProcedure } from "@trpc/server";
import { z } from "zod";
import { type ApiServices, authed, type t } from "./trpc";

/** Where the app downloads a file: the REST route and query (fetched with the same credentials). */
export const ZDownload = z.object({ url: z.string(), fileName: z.string(), contentType: z.string() });

type ProcedureDef<I, O> = {
  input: I;
  output: O;
  meta: (typeof t)["_config"]["$types"]["meta"];
  errorShape: (typeof t)["_config"]["$types"]["errorShape"];
};
// tRPC's own input type of a procedure without `.input()`: callers may pass nothing.
// biome-ignore lint/suspicious/noConfusingVoidType: as tRPC declares it
type Nothing = void;
type InputOf<I> = I extends NoInput
  ? Nothing
  : I extends z.ZodType
    ? // An input whose every field is optional may be left out entirely (\`accounts.list()\`).
      // biome-ignore lint/complexity/noBannedTypes: `{} extends X` asks whether every field of X is optional
      {} extends z.input<I>
      ? z.input<I> | Nothing
      : z.input<I>
    : Nothing;

/** An input that accepts `{}` also accepts nothing: the procedure then gets `{}` (every default applied). */
const inputOf = (schema: z.ZodType): z.ZodType =>
  schema.safeParse({}).success ? z.preprocess((value) => value ?? {}, schema) : schema;

/** The procedure tRPC would infer for `authed.input(I).output(O).query|mutation(…)`. */
type ProcedureOf<Op> =
  // biome-ignore lint/suspicious/noExplicitAny: matching any services and permission
  Op extends Download<any, any, infer I, unknown>
    ? TRPCQueryProcedure<ProcedureDef<InputOf<I>, z.output<typeof ZDownload>>>
    : // biome-ignore lint/suspicious/noExplicitAny: as above
      Op extends QueryOrMutation<any, any, infer I, infer O> & { kind: infer K }
      ? K extends "mutation"
        ? TRPCMutationProcedure<
            ProcedureDef<
              Op extends { idempotent: true }
                ? InputOf<I> & z.input<typeof ZIdempotencyKeyField>
                : InputOf<I>,
              z.output<O>
            >
          >
        : TRPCQueryProcedure<ProcedureDef<InputOf<I>, z.output<O>>>
      : { [Key in keyof Op]: ProcedureOf<Op[Key]> };

export type ProceduresOf<C> = { [Key in keyof C]: ProcedureOf<C[Key]> };

/**
 * A posting's input may name its intent in `idempotencyKey` besides the operation's own fields, for a
 * client that cannot set a header per call (docs/decisions/0083-idempotency-key-in-the-input.md).
 * tRPC reads the input with both schemas and merges what they answer; the service gets its own fields.
 */
const takesKeyField = (operation: AnyOperation) =>
  operation.kind === "mutation" && operation.idempotent === true;

/** The operation's own schema reads the input without the key (a strict schema would refuse it). */
const withoutKeyField = (schema: z.ZodType): z.ZodType =>
  z.preprocess((value) => {
    if (typeof value !== "object" || value === null || !("idempotencyKey" in value)) return value;
    const { idempotencyKey: _key, ...own } = value as Record<string, unknown>;
    return own;
  }, schema);

const procedureOf = (operation: AnyOperation, services: (all: ApiServices) => unknown) => {
  // Typed as `authed`: tRPC's merged input type is not needed here, ProcedureOf states what callers send.
  const keyed = takesKeyField(operation)
    ? (authed.input(ZIdempotencyKeyField) as unknown as typeof authed)
    : authed;
  const own =
    operation.input && takesKeyField(operation) ? withoutKeyField(operation.input) : operation.input;
  const base = own ? keyed.input(inputOf(own)) : keyed;
  if (operation.kind === "download") {
    // Preparing the download checks permission, input and ids exactly as the REST route will (so
    // the app hears a 403/400/404 here, typed); the answer is the route's URL, from the catalog.
    return base.output(ZDownload).query(async ({ ctx, input }) => {
      const prepared = (await operation.call(services(ctx.services), ctx.caller, input)) as {
        fileName: string;
      };
      return {
        url: operationUrl(operation.http, input),
        fileName: prepared.fileName,
        contentType: XLSX_CONTENT_TYPE,
      };
    });
  }
  const typed = base.output(operation.output);
  const resolve = ({
    ctx,
    input,
  }: {
    ctx: { caller: TenantContext; services: ApiServices };
    input: unknown;
  }) => {
    if (!takesKeyField(operation)) return operation.call(services(ctx.services), ctx.caller, input);
    const { idempotencyKey, ...own } = input as { idempotencyKey?: string };
    return operation.call(services(ctx.services), withIdempotencyKey(ctx.caller, idempotencyKey), own);
  };
  return operation.kind === "mutation" ? typed.mutation(resolve) : typed.query(resolve);
};

/**
 * The catalog's operations as tRPC procedures, nested as the catalog is (`payments.create`).
 * Operations marked `rpc: false` are REST only. The types are what tRPC infers for a
 * hand-written `authed.input(…).output(…)` procedure, so the app's client stays fully typed.
 */
export const proceduresOf = <C extends OperationCatalog>(
  catalog: C,
  services: (all: ApiServices) => unknown,
): ProceduresOf<C> => {
  const build = (entries: OperationCatalog): Record<string, unknown> =>
    Object.fromEntries(
      Object.entries(entries)
        .filter(([, entry]) => !isOperation(entry) || entry.rpc !== false)
        .map(([name, entry]) => [name, isOperation(entry) ? procedureOf(entry, services) : build(entry)]),
    );
  return build(catalog) as ProceduresOf<C>;
};
