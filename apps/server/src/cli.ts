import { parseArgs } from "node:util";
import { insertUser, provisionTenant } from "@hisob/core";
import { AppError, ZId } from "@hisob/kernel";
import { z } from "zod";
import { openAppContext } from "./app-context";
import { loadRuntimeEnv } from "./env";
import { describeStartupError } from "./startup-errors";

// `npm run cli -- <command> [options]`. Each command prints one JSON object (the created record,
// with its id) on stdout; problems go to stderr with a non-zero exit.

const USAGE = `Usage: npm run cli -- <command> [options]

Commands:
  db:migrate                                   apply pending database migrations
  tenant:create --name <name> [--domain <d>]   create a tenant with its admin role
  user:create --tenant <id> --email <e> [--first-name <f>] [--last-name <l>] [--role <name>]...
                                               create a user in a tenant; the password is read from
                                               standard input (printf '%s' "$PW" | npm run cli -- …),
                                               so neither npm nor the shell history echoes it
                                               (--password <p> still works but is echoed)
  oidc:client:create --name <n> --redirect-uri <uri>... [--public] [--require-pkce] [--first-party]
                     [--application-type web|native] [--grant-types <g>...] [--scopes <s>...]
                     [--post-logout-redirect-uri <uri>...]
                                               register an OpenID Connect client; prints client_id
                                               (and client_secret, shown only this once)
  oidc:keys:rotate                             create a signing key: published now, signing after OIDC_KEY_PROPAGATION_SECONDS
  oidc:keys:list                               list signing keys
  oidc:keys:retire --kid <uuid>                unpublish an older key once nothing valid depends on it
  oidc:crypto-key:rotate                       re-encrypt the signing keys under a new OIDC_CRYPTO_KEY, read
                                               from standard input (printf '%s' "$NEW" | npm run cli -- …);
                                               then restart every instance with the new key
  finance:reconcile [--tenant <id>]            recompute every account balance from its transactions (all
                                               tenants, or one); exits 1 when any balance drifted
`;

class UsageError extends Error {}

const MAX_PASSWORD_BYTES = 4096;

/** A secret piped on standard input (one trailing newline dropped); never from a terminal, where it would show. */
const readSecretFromStdin = async (command: string, what: string): Promise<string> => {
  if (process.stdin.isTTY) {
    throw new UsageError(
      `${command} reads the ${what} from standard input: pipe it in (printf '%s' "$SECRET" | npm run cli -- ${command} …)`,
    );
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_PASSWORD_BYTES) throw new UsageError(`the ${what} on standard input is too long`);
    chunks.push(buffer);
  }
  const secret = Buffer.concat(chunks)
    .toString("utf8")
    .replace(/\r?\n$/, "");
  if (secret === "") throw new UsageError(`no ${what} on standard input`);
  return secret;
};

/** A check that ran and found a problem: its report still goes to stdout, the exit code says "failed". */
class CheckFailed extends Error {
  constructor(
    message: string,
    readonly report: unknown,
  ) {
    super(message);
  }
}

const ZTenantCreateArgs = z.object({ name: z.string(), domain: z.string().optional() });
const ZUserCreateArgs = z.object({
  tenant: ZId,
  email: z.string(),
  password: z.string().optional(),
  "first-name": z.string().default("New"),
  "last-name": z.string().default("User"),
  role: z.array(z.string()).default([]),
});

const ZClientCreateArgs = z.object({
  name: z.string(),
  "redirect-uri": z.array(z.string()).min(1, "at least one redirect URI is required"),
  "post-logout-redirect-uri": z.array(z.string()).default([]),
  public: z.boolean().default(false),
  "require-pkce": z.boolean().default(false),
  "first-party": z.boolean().default(false),
  "application-type": z.enum(["web", "native"]).default("web"),
  "grant-types": z.array(z.string()).optional(),
  scopes: z.array(z.string()).optional(),
});

/** List options may be repeated (`--scopes a --scopes b`) or followed by several values (`--scopes a b`). */
const LIST_OPTIONS = new Set([
  "--redirect-uri",
  "--post-logout-redirect-uri",
  "--grant-types",
  "--scopes",
  "--role",
]);
const expandListOptions = (args: string[]): string[] => {
  const out: string[] = [];
  let list: string | undefined;
  for (const arg of args) {
    if (arg.startsWith("--")) {
      list = LIST_OPTIONS.has(arg) ? arg : undefined;
      out.push(arg);
    } else if (list && out[out.length - 1] !== list) {
      out.push(list, arg);
    } else {
      out.push(arg);
    }
  }
  return out;
};

type OptionSpec = NonNullable<NonNullable<Parameters<typeof parseArgs>[0]>["options"]>;

const parse = <S extends z.ZodType>(schema: S, args: string[], options: OptionSpec) => {
  let values: unknown;
  try {
    ({ values } = parseArgs({
      args: expandListOptions(args),
      options,
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const result = schema.safeParse(values);
  if (!result.success) {
    const problems = result.error.issues.map(
      (issue) =>
        `--${issue.path.join(".")}: ${/received undefined/.test(issue.message) ? "is required" : issue.message}`,
    );
    throw new UsageError(problems.join("\n"));
  }
  return result.data as z.output<S>;
};

const run = async (argv: string[]): Promise<unknown> => {
  const [command, ...rest] = argv;
  if (!command || command === "help" || command === "--help") {
    process.stdout.write(USAGE);
    return undefined;
  }
  const COMMANDS = [
    "db:migrate",
    "tenant:create",
    "user:create",
    "oidc:client:create",
    "oidc:keys:rotate",
    "oidc:keys:list",
    "oidc:keys:retire",
    "oidc:crypto-key:rotate",
    "finance:reconcile",
  ];
  if (!COMMANDS.includes(command)) {
    throw new UsageError(`Unknown command "${command}"`);
  }
  // Validate arguments before touching the database.
  const tenantArgs =
    command === "tenant:create"
      ? parse(ZTenantCreateArgs, rest, { name: { type: "string" }, domain: { type: "string" } })
      : undefined;
  const userArgs =
    command === "user:create"
      ? parse(ZUserCreateArgs, rest, {
          tenant: { type: "string" },
          email: { type: "string" },
          password: { type: "string" },
          "first-name": { type: "string" },
          "last-name": { type: "string" },
          role: { type: "string", multiple: true },
        })
      : undefined;
  const password = userArgs
    ? (userArgs.password ?? (await readSecretFromStdin("user:create", "password")))
    : undefined;
  const newCryptoKey =
    command === "oidc:crypto-key:rotate" ? await readSecretFromStdin(command, "new crypto key") : undefined;
  if (newCryptoKey !== undefined && newCryptoKey.length < 32) {
    throw new UsageError("the new crypto key must be at least 32 characters");
  }
  const clientArgs =
    command === "oidc:client:create"
      ? parse(ZClientCreateArgs, rest, {
          name: { type: "string" },
          "redirect-uri": { type: "string", multiple: true },
          "post-logout-redirect-uri": { type: "string", multiple: true },
          public: { type: "boolean" },
          "require-pkce": { type: "boolean" },
          "first-party": { type: "boolean" },
          "application-type": { type: "string" },
          "grant-types": { type: "string", multiple: true },
          scopes: { type: "string", multiple: true },
        })
      : undefined;
  const retireArgs =
    command === "oidc:keys:retire"
      ? parse(z.object({ kid: ZId }), rest, { kid: { type: "string" } })
      : undefined;
  const reconcileArgs =
    command === "finance:reconcile"
      ? parse(z.object({ tenant: ZId.optional() }), rest, { tenant: { type: "string" } })
      : undefined;
  if (
    (command === "oidc:keys:rotate" ||
      command === "oidc:keys:list" ||
      command === "oidc:crypto-key:rotate") &&
    rest.length > 0
  ) {
    throw new UsageError(`${command} takes no options`);
  }
  if (command === "db:migrate" && rest.length > 0) throw new UsageError("db:migrate takes no options");

  const env = loadRuntimeEnv();
  const context = await openAppContext(env, { purpose: `the Hisob CLI (${command})`, bootstrap: false });
  try {
    if (command === "db:migrate") {
      // openAppContext has migrated; report the state.
      return { migrated: true, database: context.db.kind };
    }
    // The same operations as the REST routes (/signing-keys, /oidc-clients), audited as the CLI.
    if (command === "oidc:keys:rotate") return await context.oidc.admin.rotateKey("cli");
    if (command === "oidc:keys:list") return { keys: await context.oidc.admin.listKeys("cli") };
    if (retireArgs) return await context.oidc.admin.retireKey("cli", retireArgs.kid);
    if (newCryptoKey !== undefined) return { reencrypted: await context.oidc.keys.reencrypt(newCryptoKey) };
    if (reconcileArgs) {
      const all = await context.services.finance.reconcile.reconcileAll();
      const tenants = all
        .filter((entry) => !reconcileArgs.tenant || entry.tenantId === reconcileArgs.tenant)
        .map(({ tenantId, tenantName, report }) => ({ tenantId, tenantName, ...report }));
      if (reconcileArgs.tenant && tenants.length === 0) {
        throw new AppError("NOT_FOUND", {
          reason: "tenant.not_found",
          message: `Tenant ${reconcileArgs.tenant} not found`,
        });
      }
      const report = {
        ok: tenants.every((tenant) => tenant.ok),
        tenantsChecked: tenants.length,
        accountsChecked: tenants.reduce((sum, tenant) => sum + tenant.accountsChecked, 0),
        // Only tenants with something to report; a clean run lists none.
        problems: tenants.filter((tenant) => !tenant.ok),
      };
      if (!report.ok) throw new CheckFailed(`balance drift in ${report.problems.length} tenant(s)`, report);
      return report;
    }
    if (clientArgs) {
      const { client, clientSecret } = await context.oidc.admin.createClient("cli", {
        name: clientArgs.name,
        redirectUris: clientArgs["redirect-uri"],
        postLogoutRedirectUris: clientArgs["post-logout-redirect-uri"],
        isPublic: clientArgs.public,
        requirePkce: clientArgs["require-pkce"],
        isFirstParty: clientArgs["first-party"],
        applicationType: clientArgs["application-type"],
        ...(clientArgs["grant-types"] ? { grantTypes: clientArgs["grant-types"] } : {}),
        ...(clientArgs.scopes ? { scopes: clientArgs.scopes } : {}),
      });
      return {
        client_id: client.clientId,
        ...(clientSecret ? { client_secret: clientSecret } : {}),
        name: client.name,
        application_type: client.applicationType,
        redirect_uris: client.redirectUris,
        post_logout_redirect_uris: client.postLogoutRedirectUris,
        grant_types: client.grantTypes,
        response_types: client.responseTypes,
        scopes: client.scopes,
        require_pkce: client.requirePkce,
        is_first_party: client.isFirstParty,
        is_active: client.isActive,
      };
    }
    if (tenantArgs) {
      const tenant = await provisionTenant(context, tenantArgs);
      return { id: tenant.id, name: tenant.name, domain: tenant.domain, adminRoleId: tenant.adminRoleId };
    }
    if (userArgs) {
      const tenantId = userArgs.tenant;
      return await context.db.withTenant(tenantId, async (tx) => {
        const tenant = await tx.tenant.findUnique({ where: { id: tenantId }, select: { id: true } });
        if (!tenant)
          throw new AppError("NOT_FOUND", {
            reason: "tenant.not_found",
            message: `Tenant ${tenantId} not found`,
          });
        return insertUser(tx, context.outbox, tenantId, {
          email: userArgs.email,
          password: password ?? "",
          firstName: userArgs["first-name"],
          lastName: userArgs["last-name"],
          roleNames: userArgs.role,
        });
      });
    }
    return undefined;
  } finally {
    await context.closeExtras();
    await context.db.close();
  }
};

run(process.argv.slice(2)).then(
  (result) => {
    if (result !== undefined) process.stdout.write(`${JSON.stringify(result)}\n`);
    process.exit(0);
  },
  (error: unknown) => {
    if (error instanceof CheckFailed) {
      process.stdout.write(`${JSON.stringify(error.report)}\n`);
      process.stderr.write(`hisob cli: ${error.message}\n`);
      process.exit(1);
    }
    if (error instanceof UsageError) {
      process.stderr.write(`hisob cli: ${error.message}\n\n${USAGE}`);
      process.exit(2);
    }
    const { message, expected } = describeStartupError(error);
    process.stderr.write(`hisob cli: ${message}\n`);
    if (!expected) process.stderr.write("(unexpected error: please report it)\n");
    process.exit(1);
  },
);
