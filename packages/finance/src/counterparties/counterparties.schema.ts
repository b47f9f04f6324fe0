import { ZLine, ZPagination, ZRequiredLine, ZText } from "@hisob/kernel/schema";
import { z } from "zod";

export const COUNTERPARTY_TYPES = ["customer", "supplier", "both", "other"] as const;

/** Uzbek STIR (9 digits) or PINFL (14), or a foreign identifier: letters, digits, dashes, slashes; empty if unknown. */
const ZTin = ZLine(32).refine((value) => /^[0-9A-Za-z/-]*$/.test(value), {
  message: "must contain only letters, digits, dashes and slashes",
});
const ZPhone = ZLine(32).refine((value) => value === "" || /^\+?[0-9][0-9 ()-]{2,31}$/.test(value), {
  message: "must be a phone number like +998 90 123-45-67",
});
const ZEmail = ZLine(254).refine((value) => value === "" || z.email().safeParse(value).success, {
  message: "must be an email address",
});

const fields = {
  name: ZRequiredLine(200),
  tin: ZTin,
  type: z.enum(COUNTERPARTY_TYPES),
  phone: ZPhone,
  email: ZEmail,
  address: ZText(500),
  notes: ZText(2000),
};

export const ZCreateCounterpartyInput = z
  .object({
    name: fields.name,
    tin: fields.tin.default(""),
    type: fields.type.default("customer"),
    phone: fields.phone.default(""),
    email: fields.email.default(""),
    address: fields.address.default(""),
    notes: fields.notes.default(""),
  })
  .strict();
export type TCreateCounterpartyInput = z.input<typeof ZCreateCounterpartyInput>;

export const ZUpdateCounterpartyInput = z
  .object({
    name: fields.name.optional(),
    tin: fields.tin.optional(),
    type: fields.type.optional(),
    phone: fields.phone.optional(),
    email: fields.email.optional(),
    address: fields.address.optional(),
    notes: fields.notes.optional(),
  })
  .strict();
export type TUpdateCounterpartyInput = z.input<typeof ZUpdateCounterpartyInput>;

export const COUNTERPARTY_SORT_FIELDS = ["name", "createdAt", "updatedAt"] as const;

export const ZListCounterpartiesQuery = ZPagination.extend({
  sortBy: z.enum(COUNTERPARTY_SORT_FIELDS).default("name"),
  order: z.enum(["asc", "desc"]).default("asc"),
  type: z.enum(COUNTERPARTY_TYPES).optional(),
  /** Exact TIN. */
  tin: ZRequiredLine(32).optional(),
  /** Substring of the name, TIN, phone or email, case-insensitive. */
  search: ZRequiredLine(100).optional(),
});
export type TListCounterpartiesQuery = z.input<typeof ZListCounterpartiesQuery>;

export const ZCounterpartyDto = z
  .object({
    id: z.uuid(),
    name: z.string(),
    tin: z.string(),
    type: z.enum(COUNTERPARTY_TYPES),
    phone: z.string(),
    email: z.string(),
    address: z.string(),
    notes: z.string(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: "Counterparty" });
export type TCounterpartyDto = z.infer<typeof ZCounterpartyDto>;
