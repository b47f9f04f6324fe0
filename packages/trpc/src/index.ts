export { type AppRouter, appRouter } from "./router";
export { type ApiContext, type ApiServices, type DescribedError, MAX_BATCH_CALLS } from "./trpc";
