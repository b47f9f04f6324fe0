export { type AppRouter, appRouter } from "./router";
export type { ApiContext, ApiServices, DescribedError } from "./trpc";
