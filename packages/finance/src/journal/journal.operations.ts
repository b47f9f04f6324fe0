import { z } from "zod";
import { op, withId } from "../operations";
import {
  ZCreateJournalInput,
  ZJournalDetailDto,
  ZJournalPage,
  ZListJournalsQuery,
  ZRevaluationInput,
  ZRevaluationPreview,
  ZReverseJournalInput,
  ZUpdateJournalInput,
} from "./journal.schema";

const tag = "finance: journal entries";
const path = "/finance/journal-entries";

/** Manual journal entries and revaluation (docs/decisions/0100-manual-journals-and-revaluation.md). */
export const journalOperations = {
  list: op.query({
    http: { method: "GET", path, status: 200 },
    input: ZListJournalsQuery,
    output: ZJournalPage,
    access: { requires: ["journal:read:all"] },
    summary: "Manual journal entries and revaluations, newest first, by period, state and kind",
    tag,
    call: (services, ctx, input) => services.journal.list(ctx, input),
  }),
  get: op.query({
    http: { method: "GET", path: `${path}/:id`, status: 200 },
    input: z.object({ id: z.uuid() }),
    output: ZJournalDetailDto,
    access: { requires: ["journal:read:all"] },
    summary: "A journal entry with its lines",
    tag,
    call: (services, ctx, input) => services.journal.get(ctx, input.id),
  }),
  create: op.mutation({
    idempotent: true,
    http: { method: "POST", path, status: 201 },
    input: ZCreateJournalInput,
    output: ZJournalDetailDto,
    access: { requires: ["journal:create:all"] },
    summary: "Save a draft journal entry: its lines must balance in the base currency; a draft posts nothing",
    tag,
    call: (services, ctx, input) => services.journal.create(ctx, input),
  }),
  update: op.mutation({
    http: { method: "PUT", path: `${path}/:id`, status: 200, rest: "data" },
    input: withId(ZUpdateJournalInput),
    output: ZJournalDetailDto,
    access: { requires: ["journal:update:all"] },
    summary: "Change a draft's date, memo, lines or attachments (a posted entry is reversed instead)",
    tag,
    call: (services, ctx, input) => services.journal.update(ctx, input.id, input.data),
  }),
  delete: op.mutation({
    http: { method: "DELETE", path: `${path}/:id`, status: 204 },
    input: z.object({ id: z.uuid() }),
    output: z.null(),
    access: { requires: ["journal:delete:all"] },
    summary: "Delete a draft journal entry",
    tag,
    call: async (services, ctx, input) => {
      await services.journal.delete(ctx, input.id);
      return null;
    },
  }),
  post: op.mutation({
    idempotent: true,
    http: { method: "POST", path: `${path}/:id/post`, status: 200 },
    input: z.object({ id: z.uuid() }),
    output: ZJournalDetailDto,
    access: { requires: ["journal:post:all"] },
    summary: "Post a draft: its lines are written to the general ledger in the same transaction",
    tag,
    call: (services, ctx, input) => services.journal.post(ctx, input.id),
  }),
  reverse: op.mutation({
    idempotent: true,
    http: { method: "POST", path: `${path}/:id/reverse`, status: 201, rest: "data" },
    input: withId(ZReverseJournalInput),
    output: ZJournalDetailDto,
    access: { requires: ["journal:post:all"] },
    summary: "Reverse a posted entry: post its exact opposite on the date given",
    tag,
    call: (services, ctx, input) => services.journal.reverse(ctx, input.id, input.data),
  }),
  previewRevaluation: op.query({
    http: { method: "GET", path: "/finance/revaluation/preview", status: 200 },
    input: z
      .object({
        date: ZRevaluationInput.shape.date,
        rates: z
          .string()
          .max(2000)
          .optional()
          .describe("Rates as CUR:rate pairs separated by commas, e.g. USD:12650,EUR:13700.5"),
      })
      .strict(),
    output: ZRevaluationPreview,
    access: { requires: ["journal:read:all"] },
    summary:
      "What a revaluation as of a date would post per foreign-currency money account, at the rates given or the last known",
    tag,
    call: (services, ctx, input) =>
      services.journal.previewRevaluation(ctx, {
        date: input.date,
        rates: (input.rates ?? "")
          .split(",")
          .filter((pair) => pair !== "")
          .map((pair) => {
            const [currency = "", rate = ""] = pair.split(":");
            return { currency, rate };
          }),
      }),
  }),
  revalue: op.mutation({
    idempotent: true,
    http: { method: "POST", path: "/finance/revaluation", status: 201 },
    input: ZRevaluationInput,
    output: ZJournalDetailDto,
    access: { requires: ["journal:post:all"] },
    summary:
      "Revalue the foreign-currency money accounts as of a date: post one entry with the unrealised exchange gain or loss per account",
    tag,
    call: (services, ctx, input) => services.journal.revalue(ctx, input),
  }),
};
