import type { ApiServices } from "@hisob/api";

/** Every module's services, as the transports see them (the tRPC API names the same set). */
export type AppServices = ApiServices;
