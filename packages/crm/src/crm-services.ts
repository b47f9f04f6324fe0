import type { RecordDeps } from "@hisob/crud";
import { createChatsService } from "./chats/chats.service";
import { createClientsService } from "./clients/clients.service";

/** The CRM module's services, shared by every transport. */
export const createCrmServices = (deps: RecordDeps) => ({
  clients: createClientsService(deps),
  chats: createChatsService(deps),
});

export type CrmServices = ReturnType<typeof createCrmServices>;
