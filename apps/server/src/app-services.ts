import type { ApiServices } from "@hisob/trpc";

/** Every module's services, as the transports see them (the tRPC API names the same set). */
export type AppServices = ApiServices;
