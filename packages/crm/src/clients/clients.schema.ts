import { ZLine, ZRequiredLine, ZText } from "@hisob/kernel/schema";
import { z } from "zod";

export const CLIENT_KINDS = ["person", "company"] as const;

const ZPhone = ZLine(32).refine((value) => value === "" || /^\+?[0-9][0-9 ()-]{2,31}$/.test(value), {
  message: "must be a phone number like +998 90 123-45-67",
});
const ZEmail = ZLine(254).refine((value) => value === "" || z.email().safeParse(value).success, {
  message: "must be an email address",
});
/** Uzbek STIR (9 digits) or PINFL (14), or a foreign identifier; empty if unknown. */
const ZTin = ZLine(32).refine((value) => /^[0-9A-Za-z/-]*$/.test(value), {
  message: "must contain only letters, digits, dashes and slashes",
});

const fields = {
  kind: z.enum(CLIENT_KINDS),
  name: ZRequiredLine(200),
  phone: ZPhone,
  email: ZEmail,
  tin: ZTin,
  notes: ZText(4000),
  /** The finance counterparty this client is in the books; null unlinks. */
  counterpartyId: z
    .uuid()
    .transform((id) => id.toLowerCase())
    .nullable(),
};

export const ZCreateClientInput = z
  .object({
    kind: fields.kind.default("person"),
    name: fields.name,
    phone: fields.phone.default(""),
    email: fields.email.default(""),
    tin: fields.tin.default(""),
    notes: fields.notes.default(""),
    counterpartyId: fields.counterpartyId.default(null),
  })
  .strict();
export type TCreateClientInput = z.input<typeof ZCreateClientInput>;

export const ZUpdateClientInput = z
  .object({
    kind: fields.kind.optional(),
    name: fields.name.optional(),
    phone: fields.phone.optional(),
    email: fields.email.optional(),
    tin: fields.tin.optional(),
    notes: fields.notes.optional(),
    counterpartyId: fields.counterpartyId.optional(),
  })
  .strict();
export type TUpdateClientInput = z.input<typeof ZUpdateClientInput>;

export const CLIENT_SORT_FIELDS = ["name", "createdAt", "updatedAt"] as const;

export const ZClientDto = z.object({
  id: z.uuid(),
  kind: fields.kind,
  name: z.string(),
  phone: z.string(),
  email: z.string(),
  tin: z.string(),
  notes: z.string(),
  counterpartyId: z.uuid().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type TClientDto = z.infer<typeof ZClientDto>;
