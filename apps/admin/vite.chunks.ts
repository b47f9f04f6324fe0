/*
 * Vendor chunks of the admin (as the accountant app's apps/accountant/vite.chunks.ts): libraries change
 * less often than our screens, so a new release re-downloads only what changed (the server caches
 * everything under assets/ for a year: the names carry a content hash). Each screen is a lazy chunk
 * of its own (App.tsx), fetched when first opened.
 */
const inModules = (names: string) => new RegExp(`node_modules[\\\\/](?:${names})[\\\\/]`);

export const ADMIN_CHUNKS = {
  groups: [
    {
      name: "vendor-react",
      test: inModules("react|react-dom|scheduler"),
      priority: 40,
    },
    {
      name: "vendor-i18n",
      test: inModules("i18next|react-i18next|html-parse-stringify|void-elements"),
      priority: 30,
    },
    {
      name: "vendor-antd",
      test: inModules(
        "antd|@ant-design|@rc-component|rc-[a-z-]+|@babel[\\\\/]runtime|dayjs|classnames|clsx|@emotion",
      ),
      priority: 20,
      // Only what two or more chunks use (the shell and the screens): a component one screen alone
      // uses (the audit log's date picker, the roles' tabs) comes with that screen.
      minShareCount: 2,
    },
  ],
};

/** The sources of our own packages (packages/<name>/src), which have no side effects on import. */
export const WORKSPACE_SOURCES = /[\\/]packages[\\/][a-z-]+[\\/]src[\\/]/;
