import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { browserSkipReason, launchChromium, requireChromium } from "./browser";
import { freePort, ROOT, serverEnv, startServer } from "./server-process";
import { settledShot } from "./shots";

// The platform administrator manages another organization from /admin (decision 0084): the picker in
// the header switches the organization (remembered in the address), the screens then list, create and
// audit in it, and only there. The server is started the README's way with an upstream provider
// configured (never contacted: its discovery runs only when someone signs in through it), so the
// new-organization form names it. Screenshots in en, ru and uz go to .tmp/screenshots/.

const SCREENSHOTS = path.join(ROOT, ".tmp/screenshots");
/** A raw message key (e.g. "nav.users") on screen means a missing translation. */
const RAW_KEY =
  /\b(app|nav|header|common|users|roles|groups|tenants|currencies|sessions|oidc|keys|audit)\.[a-z][A-Za-z]+\b/;

const TEXTS = {
  en: {
    organization: "Organization",
    acting: "As platform administrator",
    language: "English",
    newUser: "New user",
    nav: ["Users", "Roles", "Groups", "Audit log"],
  },
  ru: {
    organization: "Организация",
    acting: "Как администратор платформы",
    language: "Русский",
    newUser: "Новый пользователь",
    nav: ["Пользователи", "Роли", "Группы", "Журнал аудита"],
  },
  uz: {
    organization: "Tashkilot",
    acting: "Platforma administratori sifatida",
    language: "Oʻzbekcha",
    newUser: "Yangi foydalanuvchi",
    nav: ["Foydalanuvchilar", "Rollar", "Guruhlar", "Audit jurnali"],
  },
} as const;

const skipReason = browserSkipReason();
if (skipReason) console.warn(`admin-platform.browser.spec.ts skipped: ${skipReason}`);

describe.skipIf(skipReason !== undefined)("the platform administrator in another organization", () => {
  let dataDir = "";
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  let browser: Browser | undefined;
  let admin: Page;
  const adminEmail = "owner@platform.uz";
  const adminPassword = "Owner-Passw0rd-2026";
  const bossEmail = "boss@bravo.uz";
  const bossPassword = "Boss-Passw0rd-2026!";
  const createdEmail = "kassir@bravo.uz";
  let bravoId = "";
  let ownName = "";
  const pageErrors: string[] = [];
  const base = () => server?.base ?? "";

  const nav = (page: Page) => page.getByRole("navigation").getByRole("link");
  const picker = (page: Page, code: keyof typeof TEXTS = "en") =>
    page.getByRole("combobox", { name: TEXTS[code].organization });

  /** Waits until no spinner is left (every request of the screen answered), then saves a full-page shot. */
  const shoot = (page: Page, name: string) =>
    settledShot(page, path.join(SCREENSHOTS, `admin-platform-${name}.png`));

  /** Picks an organization in the header's picker by (part of) its name. */
  const pick = async (page: Page, search: string, name: string, code: keyof typeof TEXTS = "en") => {
    await picker(page, code).click();
    await picker(page, code).fill(search);
    const option = page.locator(".ant-select-item-option", { hasText: name });
    await option.waitFor();
    await option.click();
  };

  beforeAll(async () => {
    requireChromium();
    mkdirSync(SCREENSHOTS, { recursive: true });
    if (!existsSync(path.join(ROOT, "apps/admin/dist/web/index.html"))) {
      const built = spawnSync("npm", ["run", "build:web", "-w", "@hisob/admin"], {
        cwd: ROOT,
        encoding: "utf8",
      });
      expect(built.status, built.stderr).toBe(0);
    }
    dataDir = mkdtempSync(path.join(tmpdir(), "hisob-e2e-admin-platform-"));
    const env = serverEnv(dataDir, await freePort());
    env.ADMIN_EMAIL = adminEmail;
    env.ADMIN_PASSWORD = adminPassword;
    // Configured, never contacted in this file (discovery happens only when someone signs in through it).
    env.EXTERNAL_OIDC_ISSUER_URL = "http://127.0.0.1:9/upstream";
    env.EXTERNAL_OIDC_CLIENT_ID = "hisob";
    env.EXTERNAL_OIDC_CLIENT_SECRET = "upstream-client-secret-0123456789";
    env.EXTERNAL_OIDC_NAME = "Firm SSO";
    const launching = launchChromium();
    launching.catch(() => undefined);
    server = await startServer(env);
    browser = await launching;
    admin = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    admin.on("pageerror", (error) => pageErrors.push(error.message));

    await admin.goto(`${base()}/admin/`);
    await admin.waitForURL(/\/login\?/);
    await admin.fill("#email", adminEmail);
    await admin.fill("#password", adminPassword);
    await admin.keyboard.press("Enter");
    await admin.waitForURL(/\/admin\//);
    await admin.getByRole("navigation").waitFor();
    const account = await admin.request.get(`${base()}/account`);
    ownName = ((await account.json()) as { tenant: { name: string } }).tenant.name;
    const made = await admin.request.post(`${base()}/tenants`, {
      data: {
        name: "Bravo savdo",
        admin: {
          email: bossEmail,
          firstName: "Bobur",
          lastName: "Toshev",
          password: bossPassword,
          uiLanguage: "uz",
        },
      },
    });
    expect(made.status()).toBe(201);
    bravoId = ((await made.json()) as { id: string }).id;
  }, 180_000);

  // Each test starts on a freshly loaded screen in English: nothing an earlier test left open carries over.
  beforeEach(async () => {
    if (!admin) return;
    expect((await admin.request.put(`${base()}/account`, { data: { uiLanguage: "en" } })).status()).toBe(200);
    await admin.goto(`${base()}/admin/users`);
    await admin.locator(".ant-table-row").first().waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    const stopped = await server?.stop();
    expect(stopped?.code).toBe(0);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("switches to another organization in the header: its users, its screens, kept in the address", async () => {
    await admin.getByRole("cell", { name: adminEmail }).waitFor();
    await expect.poll(() => nav(admin).allTextContents()).toContain("Organizations");
    await pick(admin, "Bravo", "Bravo savdo");
    await admin.waitForURL(new RegExp(`/admin/users\\?org=${bravoId}$`));
    await admin.getByRole("cell", { name: bossEmail }).waitFor();
    expect(await admin.getByRole("cell", { name: adminEmail }).count()).toBe(0);
    // The platform's own screens are not offered inside another organization.
    await admin.getByText(TEXTS.en.acting).waitFor();
    await expect.poll(() => nav(admin).allTextContents()).toEqual(TEXTS.en.nav);

    // A reload (or a shared link) opens the same organization.
    await admin.reload();
    await admin.getByRole("cell", { name: bossEmail }).waitFor();
    // The picker names the organization once the organizations have arrived, maybe after the users.
    await expect.poll(() => admin.locator(".ant-select-content", { hasText: "Bravo savdo" }).count()).toBe(1);
    // Its roles screen lists its own roles (the admin role a new organization gets).
    await nav(admin).filter({ hasText: "Roles" }).click();
    await admin.waitForURL(new RegExp(`/admin/roles\\?org=${bravoId}$`));
    await admin.getByRole("button", { name: "admin" }).waitFor();

    // Back to one's own organization: every screen again, and its own users.
    await pick(admin, ownName.slice(0, 3), ownName);
    await admin.waitForURL(/\/admin\/roles$/);
    await nav(admin).filter({ hasText: "Users" }).click();
    await admin.getByRole("cell", { name: adminEmail }).waitFor();
    expect(await nav(admin).allTextContents()).toContain("Organizations");
    expect(pageErrors).toEqual([]);
  });

  it("creates a user there: sent with x-tenant-id, in that organization only, audited as the platform administrator", async () => {
    await admin.goto(`${base()}/admin/users?org=${bravoId}`);
    await admin.getByRole("cell", { name: bossEmail }).waitFor();
    await admin.getByRole("button", { name: "New user" }).click();
    const drawer = admin.locator(".ant-drawer");
    await drawer.getByLabel("Email").fill(createdEmail);
    await drawer.getByLabel("First name").fill("Dilnoza");
    await drawer.getByLabel("Last name").fill("Karimova");
    await drawer.getByLabel("Roles").click();
    await admin.locator(".ant-select-item-option", { hasText: "admin" }).click();
    await admin.keyboard.press("Escape");
    const created = admin.waitForResponse(
      (response) => response.request().method() === "POST" && new URL(response.url()).pathname === "/users",
    );
    await drawer.getByRole("button", { name: "Create" }).click();
    const response = await created;
    expect(response.status()).toBe(201);
    expect(response.request().headers()["x-tenant-id"]).toBe(bravoId);
    await admin.getByRole("cell", { name: createdEmail }).waitFor();

    const inBravo = await admin.request.get(`${base()}/users?email=${createdEmail}`, {
      headers: { "x-tenant-id": bravoId },
    });
    expect(((await inBravo.json()) as { total: number }).total).toBe(1);
    const own = await admin.request.get(`${base()}/users?email=${createdEmail}`);
    expect(((await own.json()) as { total: number }).total).toBe(0);

    // Bravo's audit log, on screen: the creation, by the platform administrator.
    await nav(admin).filter({ hasText: "Audit log" }).click();
    await admin.waitForURL(new RegExp(`/admin/audit\\?org=${bravoId}$`));
    const row = admin.locator(".ant-table-row", { hasText: createdEmail }).first();
    await row.waitFor();
    expect(await row.innerText()).toContain(adminEmail);
    await shoot(admin, "audit-other-org-en");

    // Bravo's own administrator reads the same entry, its actor the platform administrator.
    const bossContext = await (browser as Browser).newContext();
    const login = await bossContext.request.post(`${base()}/auth/login`, {
      data: { email: bossEmail, password: bossPassword },
    });
    expect(login.status()).toBe(200);
    const log = await bossContext.request.get(`${base()}/audit?entity=user&action=create`);
    const entries = ((await log.json()) as { items: Array<{ userEmail: string | null; after: unknown }> })
      .items;
    expect(entries.filter((entry) => JSON.stringify(entry.after).includes(createdEmail))).toEqual([
      expect.objectContaining({ userEmail: adminEmail }),
    ]);
    // And cannot name another organization themselves.
    const refused = await bossContext.request.get(`${base()}/users`, {
      headers: { "x-tenant-id": (await (await admin.request.get(`${base()}/account`)).json()).tenant.id },
    });
    expect(refused.status()).toBe(403);
    await bossContext.close();
    expect(pageErrors).toEqual([]);
  });

  it("in en, ru and uz: the picker, the other organization's users, and a new user starting in the screen's language", async () => {
    for (const code of ["en", "ru", "uz"] as const) {
      const text = TEXTS[code];
      expect((await admin.request.put(`${base()}/account`, { data: { uiLanguage: code } })).status()).toBe(
        200,
      );
      await admin.goto(`${base()}/admin/users?org=${bravoId}`);
      await admin.getByRole("cell", { name: bossEmail }).waitFor();
      expect(await nav(admin).allTextContents()).toEqual(text.nav);
      await admin.getByText(text.acting).waitFor();
      const body = await admin.locator("body").innerText();
      expect(body, code).not.toMatch(RAW_KEY);
      expect(body).not.toMatch(/undefined|NaN|\[object Object\]/);
      await shoot(admin, `users-other-org-${code}`);

      await picker(admin, code).click();
      await admin.locator(".ant-select-item-option", { hasText: ownName }).waitFor();
      await admin.locator(".ant-select-item-option", { hasText: "Bravo savdo" }).waitFor();
      await shoot(admin, `picker-${code}`);
      await admin.keyboard.press("Escape");

      await admin.getByRole("button", { name: text.newUser }).click();
      const drawer = admin.locator(".ant-drawer");
      // The drawer opens after the click returns: wait for its language field, not a single read.
      await expect
        .poll(() => drawer.locator(".ant-select-content", { hasText: text.language }).count())
        .toBe(1);
      expect(await drawer.innerText()).not.toMatch(RAW_KEY);
      await shoot(admin, `users-new-other-org-${code}`);
      await drawer.locator(".ant-drawer-close").click();
      await drawer.waitFor({ state: "hidden" });
    }
    expect(pageErrors).toEqual([]);
  });

  it("the new-organization form speaks of the upstream provider, since one is configured", async () => {
    const methods = await admin.request.get(`${base()}/auth/methods`);
    expect(await methods.json()).toEqual({ password: true, external: { name: "Firm SSO" } });
    for (const code of ["en", "ru", "uz"] as const) {
      expect((await admin.request.put(`${base()}/account`, { data: { uiLanguage: code } })).status()).toBe(
        200,
      );
      await admin.goto(`${base()}/admin/tenants`);
      await admin.locator(".ant-table-row").first().waitFor();
      await admin
        .getByRole("button", {
          name: { en: "New organization", ru: "Новая организация", uz: "Yangi tashkilot" }[code],
        })
        .click();
      const help = admin.locator(".ant-modal").getByTestId("first-admin-help");
      await expect.poll(() => help.innerText(), { timeout: 20_000 }).toContain("Firm SSO");
      expect(await admin.locator(".ant-modal").innerText()).not.toMatch(RAW_KEY);
      await shoot(admin, `tenant-new-upstream-${code}`);
      await admin.locator(".ant-modal .ant-modal-close").click();
      await admin.locator(".ant-modal").waitFor({ state: "hidden" });
    }
    expect(pageErrors).toEqual([]);
  });
});
