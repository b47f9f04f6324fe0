import { financeOperations } from "@hisob/finance";
import { elementOf, fieldOf, idempotencyArgSdl, pageArgsSdl, permissionsOf, routeOf } from "../catalog-sdl";
import { callerOf, type GraphqlContext } from "../context";
import { runOperation } from "../operations";
import type { GraphqlModule } from "../registry";
import { argumentsSdl, enumTypeSdl, inputTypeSdl, objectTypeSdl } from "../zod-sdl";

/*
 * Manual journal entries and revaluation (docs/decisions/0100-manual-journals-and-revaluation.md): the
 * catalog's types, inputs and permissions (`financeOperations.journal`), each resolver running its
 * catalog operation, as REST and tRPC do.
 */

const { journal } = financeOperations;
const MINOR = "Int64";

const typeDefs = /* GraphQL */ `
${enumTypeSdl("JournalState", fieldOf(journal.get.output, "state"), {
  values: {
    draft: "Editable and deletable; posts nothing.",
    posted: "Its lines are in the general ledger; no longer editable.",
    reversed: "Posted, then cancelled by a posted entry with the exact opposite lines.",
  },
})}
${enumTypeSdl("JournalKind", fieldOf(journal.get.output, "kind"))}
${objectTypeSdl("JournalEntryLine", elementOf(fieldOf(journal.get.output, "lines"), "JournalEntry.lines"), {
  fields: {
    debit: { type: MINOR, description: "Minor units of the line's currency." },
    credit: { type: MINOR, description: "Minor units of the line's currency." },
    baseAmount: { type: MINOR, description: "Base-currency minor units, debit positive." },
    rate: { description: "Decimal string: base minor units per minor unit of the line's currency." },
  },
})}
${objectTypeSdl(
  "JournalAttachment",
  elementOf(fieldOf(journal.get.output, "attachments"), "JournalEntry.attachments"),
  {
    description: "An attached upload; name and url are null once the upload was deleted.",
  },
)}
${objectTypeSdl("JournalEntry", journal.get.output, {
  description: "A manual journal entry or a revaluation, with its lines.",
  fields: {
    kind: "JournalKind",
    state: "JournalState",
    date: { description: "YYYY-MM-DD" },
    total: { type: MINOR, description: "Sum of the debits in the base currency (minor units)." },
    lines: "JournalEntryLine",
    attachments: "JournalAttachment",
  },
})}
  type PaginatedJournalEntries {
    data: [JournalEntryHeader!]!
    total: Int!
  }
${objectTypeSdl(
  "JournalEntryHeader",
  elementOf(fieldOf(journal.list.output, "items"), "JournalEntries.items"),
  {
    description: "A journal entry in a list (its lines: journalEntry).",
    fields: { kind: "JournalKind", state: "JournalState", total: MINOR },
  },
)}
${inputTypeSdl(
  "JournalEntryLineInput",
  elementOf(fieldOf(journal.create.input, "lines"), "JournalEntryInput.lines"),
  {
    fields: { debit: MINOR, credit: MINOR },
  },
)}
${inputTypeSdl("JournalEntryInput", journal.create.input, { fields: { lines: "JournalEntryLineInput" } })}
${inputTypeSdl("JournalEntryPatch", fieldOf(journal.update.input, "data"), {
  description: "Only a draft changes; lines replaces them all.",
  fields: { lines: "JournalEntryLineInput" },
})}
${inputTypeSdl("RevaluationRateInput", elementOf(fieldOf(journal.revalue.input, "rates"), "RevaluationInput.rates"))}
${inputTypeSdl("RevaluationInput", journal.revalue.input, { fields: { rates: "RevaluationRateInput" } })}
${objectTypeSdl(
  "RevaluationRow",
  elementOf(fieldOf(journal.previewRevaluation.output, "rows"), "RevaluationPreview.rows"),
  {
    fields: { balance: MINOR, bookedBase: MINOR, revaluedBase: MINOR, difference: MINOR },
  },
)}
${objectTypeSdl(
  "RevaluationCounterpartyRow",
  elementOf(
    fieldOf(journal.previewRevaluation.output, "counterparties"),
    "RevaluationPreview.counterparties",
  ),
  {
    description:
      "An open foreign-currency receivable or payable of one counterparty on one account of the chart.",
    fields: { balance: MINOR, bookedBase: MINOR, revaluedBase: MINOR, difference: MINOR },
  },
)}
${objectTypeSdl("RevaluationPreview", journal.previewRevaluation.output, {
  fields: { rows: "RevaluationRow", counterparties: "RevaluationCounterpartyRow", gain: MINOR, loss: MINOR },
})}
  type Query {
    "Manual journal entries and revaluations, newest first (${permissionsOf(journal.list)}), as ${routeOf(journal.list)}."
    journalEntries(${pageArgsSdl(journal.list.input)}, ${argumentsSdl(journal.list.input, "journalEntries", { omit: ["offset", "limit"], fields: { state: "JournalState", kind: "JournalKind" } })}): PaginatedJournalEntries!
    "A journal entry with its lines (${permissionsOf(journal.get)})."
    journalEntry(id: ID!): JournalEntry!
    "What a revaluation as of a date would post (${permissionsOf(journal.previewRevaluation)}); rates left out: the last known; memo ignored."
    revaluationPreview(input: RevaluationInput!): RevaluationPreview!
  }

  type Mutation {
    "Saves a draft (${permissionsOf(journal.create)}); its lines must balance in the base currency."
    createJournalEntry(input: JournalEntryInput!${idempotencyArgSdl(journal.create)}): JournalEntry!
    "Changes a draft (${permissionsOf(journal.update)})."
    updateJournalEntry(id: ID!, input: JournalEntryPatch!): JournalEntry!
    "Deletes a draft (${permissionsOf(journal.delete)})."
    deleteJournalEntry(id: ID!): Boolean!
    "Posts a draft: its lines go into the general ledger in the same transaction (${permissionsOf(journal.post)})."
    postJournalEntry(id: ID!${idempotencyArgSdl(journal.post)}): JournalEntry!
    "Posts the exact opposite of a posted entry on the date given (${permissionsOf(journal.reverse)}); answers the reversal."
    reverseJournalEntry(id: ID!, date: String!${idempotencyArgSdl(journal.reverse)}): JournalEntry!
    "Posts one entry with the unrealised exchange gain or loss per foreign-currency money account and open foreign-currency receivable or payable (${permissionsOf(journal.revalue)})."
    revalue(input: RevaluationInput!${idempotencyArgSdl(journal.revalue)}): JournalEntry!
  }
`;

type Keyed = { idempotencyKey?: string | null };

/** GraphQL sends unset optional fields as null; the catalog's schemas take absent as their default. */
const withoutNulls = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, each]) => each !== null && each !== undefined)
        .map(([key, each]) => [key, withoutNulls(each)]),
    );
  }
  return value;
};

export const journalModule: GraphqlModule = {
  name: "journal",
  typeDefs,
  resolvers: {
    Query: {
      journalEntries: async (_: unknown, args: Record<string, unknown>, context: GraphqlContext) => {
        const page = await runOperation(journal.list, context.services.finance, context, withoutNulls(args));
        return { data: page.items, total: page.total };
      },
      journalEntry: (_: unknown, args: { id: string }, context: GraphqlContext) =>
        runOperation(journal.get, context.services.finance, context, { id: args.id }),
      revaluationPreview: (_: unknown, args: { input: Record<string, unknown> }, context: GraphqlContext) =>
        context.services.finance.journal.previewRevaluation(
          callerOf(context),
          withoutNulls(args.input) as never,
        ),
    },
    Mutation: {
      createJournalEntry: (_: unknown, args: { input: unknown } & Keyed, context: GraphqlContext) =>
        runOperation(
          journal.create,
          context.services.finance,
          context,
          withoutNulls(args.input),
          args.idempotencyKey,
        ),
      updateJournalEntry: (_: unknown, args: { id: string; input: unknown }, context: GraphqlContext) =>
        runOperation(journal.update, context.services.finance, context, {
          id: args.id,
          data: withoutNulls(args.input),
        }),
      deleteJournalEntry: async (_: unknown, args: { id: string }, context: GraphqlContext) => {
        await runOperation(journal.delete, context.services.finance, context, { id: args.id });
        return true;
      },
      postJournalEntry: (_: unknown, args: { id: string } & Keyed, context: GraphqlContext) =>
        runOperation(journal.post, context.services.finance, context, { id: args.id }, args.idempotencyKey),
      reverseJournalEntry: (
        _: unknown,
        args: { id: string; date: string } & Keyed,
        context: GraphqlContext,
      ) =>
        runOperation(
          journal.reverse,
          context.services.finance,
          context,
          { id: args.id, data: { date: args.date } },
          args.idempotencyKey,
        ),
      revalue: (_: unknown, args: { input: unknown } & Keyed, context: GraphqlContext) =>
        runOperation(
          journal.revalue,
          context.services.finance,
          context,
          withoutNulls(args.input),
          args.idempotencyKey,
        ),
    },
  },
};
