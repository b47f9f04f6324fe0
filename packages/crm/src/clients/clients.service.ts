import { createRecordService, crudPermissions, existsIn, type RecordDeps } from "@hisob/crud";
import type { Prisma } from "@hisob/db";
import {
  CLIENT_SORT_FIELDS,
  type TClientDto,
  ZCreateClientInput,
  ZUpdateClientInput,
} from "./clients.schema";

const clientSelect = {
  id: true,
  kind: true,
  name: true,
  phone: true,
  email: true,
  tin: true,
  notes: true,
  counterpartyId: true,
  createdAt: true,
  updatedAt: true,
} satisfies Prisma.CrmClientSelect;

type ClientRow = Prisma.CrmClientGetPayload<{ select: typeof clientSelect }>;

/** People and companies the organization works with; optionally the finance counterparty they are in the books. */
export const createClientsService = (deps: RecordDeps) =>
  createRecordService(
    {
      name: "Client",
      auditEntity: "crm_client",
      missing: { reason: "crm.client_not_found", message: "Client not found" },
      permissions: crudPermissions("clients"),
      model: (tx) => tx.crmClient,
      select: clientSelect,
      toDto: (row: ClientRow): TClientDto => ({
        ...row,
        createdAt: row.createdAt.toISOString(),
        updatedAt: row.updatedAt.toISOString(),
      }),
      createInput: ZCreateClientInput,
      updateInput: ZUpdateClientInput,
      sortFields: CLIENT_SORT_FIELDS,
      filters: {
        name: { kind: "string" },
        kind: { kind: "enum", values: ["person", "company"] },
        phone: { kind: "string" },
        email: { kind: "string" },
        tin: { kind: "string" },
        counterpartyId: { kind: "uuid", operators: ["eq", "in"] },
        createdAt: { kind: "time" },
        updatedAt: { kind: "time" },
      },
      references: {
        counterpartyId: {
          label: "Counterparty",
          reason: "crm.counterparty_not_found",
          exists: existsIn((tx) => tx.counterparty),
        },
      },
      conflicts: {
        inUse: {
          reason: "crm.client_in_use",
          message: "Chats or projects refer to the client; it cannot be deleted",
        },
      },
    },
    deps,
  );

export type ClientsService = ReturnType<typeof createClientsService>;
