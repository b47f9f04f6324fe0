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
  user:create --tenant <id> --email <e> --password <p> [--first-name <f>] [--last-name <l>] [--role <name>]...
                                               create a user in a tenant
`;

class UsageError extends Error {}

const ZTenantCreateArgs = z.object({ name: z.string(), domain: z.string().optional() });
const ZUserCreateArgs = z.object({
  tenant: ZId,
  email: z.string(),
  password: z.string(),
  "first-name": z.string().default("New"),
  "last-name": z.string().default("User"),
  role: z.array(z.string()).default([]),
});

type OptionSpec = NonNullable<NonNullable<Parameters<typeof parseArgs>[0]>["options"]>;

const parse = <S extends z.ZodType>(schema: S, args: string[], options: OptionSpec) => {
  let values: unknown;
  try {
    ({ values } = parseArgs({ args, options, strict: true, allowPositionals: false }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const result = schema.safeParse(values);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `--${issue.path.join(".")}: ${issue.message}`);
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
  if (!["db:migrate", "tenant:create", "user:create"].includes(command)) {
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
  if (command === "db:migrate" && rest.length > 0) throw new UsageError("db:migrate takes no options");

  const env = loadRuntimeEnv();
  const context = await openAppContext(env, { purpose: `the Hisob CLI (${command})`, bootstrap: false });
  try {
    if (command === "db:migrate") {
      // openAppContext has migrated; report the state.
      return { migrated: true, database: context.db.kind };
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
          password: userArgs.password,
          firstName: userArgs["first-name"],
          lastName: userArgs["last-name"],
          roleNames: userArgs.role,
        });
      });
    }
    return undefined;
  } finally {
    await context.db.close();
  }
};

run(process.argv.slice(2)).then(
  (result) => {
    if (result !== undefined) process.stdout.write(`${JSON.stringify(result)}\n`);
    process.exit(0);
  },
  (error: unknown) => {
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
