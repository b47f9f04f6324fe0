/*
 * Vendor chunks of the renderer (web and desktop builds): libraries change less often than our code,
 * so a new release re-downloads only what changed, and each library loads with the first screen that
 * needs it (screens are lazy routes; Recharts comes with the dashboard's chart only).
 */
const inModules = (names: string) => new RegExp(`node_modules[\\\\/](?:${names})[\\\\/]`);

export const RENDERER_CHUNKS = {
  groups: [
    {
      name: "vendor-react",
      test: inModules("react|react-dom|scheduler|react-router|react-router-dom|cookie|set-cookie-parser"),
      priority: 40,
    },
  ],
};
