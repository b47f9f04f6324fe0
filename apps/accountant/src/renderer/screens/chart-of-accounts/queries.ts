/** The chart's queries: its accounts and where money accounts and categories post. */
export const GL_ACCOUNTS_KEY = ["glAccounts"] as const;
export const GL_MAPPINGS_KEY = ["glMappings"] as const;
