import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import * as client from "openid-client";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { browserSkipReason, confineToLocal, launchChromium, requireChromium } from "./browser";
import { confirmPopover } from "./popconfirm";
import { freePort, ROOT, serverEnv, startServer } from "./server-process";
import { settledShot } from "./shots";

// The admin screens at /admin in Debian's Chromium against the server started the README's way
// (embedded database): an admin builds a role, a user with it, that user sees only what the role
// allows, an OIDC client registered on screen signs a user in with openid-client, a key rotation
// keeps the old key published, ending a session signs that browser out, and the audit log shows it
// all. Screenshots of every screen in en, ru and uz go to .tmp/screenshots/.

const SCREENSHOTS = path.join(ROOT, ".tmp/screenshots");
const RP_ORIGIN = "https://rp.example";
const REDIRECT = `${RP_ORIGIN}/callback`;
const SCREENS = [
  "users",
  "roles",
  "groups",
  "oidc-clients",
  "signing-keys",
  "audit",
  "tenants",
  "currencies",
] as const;
/** A raw message key (e.g. "nav.users") on screen means a missing translation. */
const RAW_KEY =
  /\b(app|nav|header|common|users|roles|groups|tenants|currencies|sessions|oidc|keys|audit)\.[a-z][A-Za-z]+\b/;

/** A screen's link in the shared app frame's navigation. */
const navLink = (page: Page, name: string) =>
  page.getByRole("navigation").getByRole("link", { name, exact: true });

/** What the shared forms say in each language (the server's wording): missing, malformed email, empty, a domain. */
const FORM_MESSAGES = {
  en: {
    required: "Is required",
    email: "Must be a valid email address",
    empty: "Must not be empty",
    domain: "Must be a domain name like acme.uz",
  },
  ru: {
    required: "Обязательно для заполнения",
    email: "Должно быть действительным адресом электронной почты",
    empty: "Не должно быть пустым",
    domain: "Должно быть доменным именем, например acme.uz",
  },
  uz: {
    required: "Toʻldirilishi shart",
    email: "Toʻgʻri elektron pochta manzili boʻlishi kerak",
    empty: "Boʻsh boʻlmasligi kerak",
    domain: "Domen nomi boʻlishi kerak, masalan acme.uz",
  },
} as const;

const skipReason = browserSkipReason();
if (skipReason) console.warn(`admin.browser.spec.ts skipped: ${skipReason}`);

describe.skipIf(skipReason !== undefined)("the admin screens, in a real browser", () => {
  let dataDir = "";
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  let browser: Browser | undefined;
  let admin: Page;
  let cashierContext: BrowserContext;
  let cashier: Page;
  const adminEmail = "owner@firm.uz";
  const adminPassword = "Owner-Passw0rd-2026";
  const cashierEmail = "cashier@firm.uz";
  const cashierPassword = "Cashier-Passw0rd-2026";

  const pageErrors: string[] = [];
  const base = () => server?.base ?? "";

  const signIn = async (page: Page, email: string, password: string) => {
    await page.goto(`${base()}/admin/`);
    await page.waitForURL(/\/login\?/);
    await page.fill("#email", email);
    await page.fill("#password", password);
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/admin\//);
    await page.getByRole("navigation").waitFor();
  };

  /** Waits until no spinner is left (every request of the screen answered), then saves a full-page shot. */
  const shoot = (page: Page, name: string) => settledShot(page, path.join(SCREENSHOTS, `admin-${name}.png`));

  beforeAll(async () => {
    requireChromium();
    mkdirSync(SCREENSHOTS, { recursive: true });
    if (!existsSync(path.join(ROOT, "apps/admin/dist/web/index.html"))) {
      // `npm install` builds it; a tree that skipped install scripts builds it here.
      const built = spawnSync("npm", ["run", "build:web", "-w", "@hisob/admin"], {
        cwd: ROOT,
        encoding: "utf8",
      });
      expect(built.status, built.stderr).toBe(0);
    }
    dataDir = mkdtempSync(path.join(tmpdir(), "hisob-e2e-admin-"));
    const env = serverEnv(dataDir, await freePort());
    env.ADMIN_EMAIL = adminEmail;
    env.ADMIN_PASSWORD = adminPassword;
    const launching = launchChromium();
    launching.catch(() => undefined);
    server = await startServer(env);
    browser = await launching;
    admin = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    cashierContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    cashier = await cashierContext.newPage();
    // A script error on a screen fails the run, even when the screen still looks right.
    admin.on("pageerror", (error) => pageErrors.push(error.message));
  }, 180_000);

  // Each test after the sign-in starts on a freshly loaded /admin: a modal, drawer or popover that an
  // earlier test left open (say it failed halfway) cannot take the next test's clicks. What the tests
  // share on purpose is the data they made (the role, the cashier, the client), not the screen's state.
  beforeEach(async () => {
    if (!admin || !admin.url().includes("/admin/")) return;
    await admin.goto(`${base()}/admin/`);
    await admin.getByRole("navigation").waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    const stopped = await server?.stop();
    expect(stopped?.code).toBe(0);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("signs the printed administrator in through the login page and back to /admin", async () => {
    await signIn(admin, adminEmail, adminPassword);
    await navLink(admin, "Audit log").waitFor();
    await admin.getByRole("cell", { name: adminEmail }).waitFor();
  });

  it("creates a role with chosen permissions in the matrix", async () => {
    await navLink(admin, "Roles").click();
    await admin.getByRole("button", { name: "New role" }).click();
    await admin.getByLabel("Name").fill("Cashier");
    await admin.getByRole("button", { name: "Create" }).click();
    await admin.getByRole("button", { name: "Cashier" }).waitFor();
    await admin.getByRole("button", { name: "Cashier" }).click();
    for (const permission of ["users:read:all", "roles:read:all"]) {
      await admin.getByRole("checkbox", { name: permission }).check();
    }
    await admin.getByRole("button", { name: "Save permissions" }).click();
    await admin.getByText("2 permissions").waitFor();
  });

  it("creates a user holding that role", async () => {
    await navLink(admin, "Users").click();
    await admin.getByRole("button", { name: "New user" }).click();
    const drawer = admin.locator(".ant-drawer");
    await drawer.getByLabel("Email").fill(cashierEmail);
    await drawer.getByLabel("First name").fill("Dilnoza");
    await drawer.getByLabel("Last name").fill("Karimova");
    await drawer.getByLabel("Password").fill(cashierPassword);
    await drawer.getByLabel("Roles").click();
    await admin.locator(".ant-select-item-option", { hasText: "Cashier" }).click();
    await admin.keyboard.press("Escape");
    await drawer.getByRole("button", { name: "Create" }).click();
    await admin.getByRole("cell", { name: cashierEmail }).waitFor();
    // Search as you type narrows the server-side list.
    await admin.getByLabel("Search by email").fill("cashier@");
    await expect.poll(async () => admin.locator(".ant-table-row").count(), { timeout: 20_000 }).toBe(1);
    await admin.getByLabel("Search by email").fill("");
  });

  it("the new user sees only what the role allows, and the API refuses the rest", async () => {
    await signIn(cashier, cashierEmail, cashierPassword);
    // The users screen has drawn its list: its buttons are there (or not) by now.
    await cashier.locator(".ant-table-row").first().waitFor();
    await expect
      .poll(() => cashier.getByRole("navigation").getByRole("link").allTextContents())
      .toEqual(["Users", "Roles"]);
    await expect(cashier.getByRole("button", { name: "New user" }).count()).resolves.toBe(0);
    await expect(cashier.getByRole("button", { name: "Delete" }).count()).resolves.toBe(0);
    await shoot(cashier, "cashier-users-en");
    for (const [method, url] of [
      ["GET", "/audit"],
      ["GET", "/oidc-clients"],
      ["POST", "/roles"],
      ["POST", "/users"],
    ] as const) {
      const res = await cashier.request.fetch(`${base()}${url}`, {
        method,
        ...(method === "POST" ? { data: { name: "x" } } : {}),
      });
      expect([403, 400], `${method} ${url}`).toContain(res.status());
      if (method === "GET") expect(res.status()).toBe(403);
    }
    const created = await cashier.request.post(`${base()}/roles`, { data: { name: "Sneaky" } });
    expect(created.status()).toBe(403);
  });

  it("registers an OIDC client, shows its secret once, and a strict RP signs in with it", async () => {
    await navLink(admin, "OIDC clients").click();
    await admin.getByRole("button", { name: "Register a client" }).click();
    const drawer = admin.locator(".ant-drawer");
    await drawer.getByLabel("Name").fill("Partner portal");
    await drawer.getByLabel("Redirect URIs (one per line)", { exact: true }).fill(REDIRECT);
    await drawer.getByRole("button", { name: "Create" }).click();
    const secretBox = admin.getByTestId("client-secret");
    await secretBox.waitFor();
    const clientSecret = (await secretBox.textContent())?.trim() ?? "";
    const clientId = (await admin.getByTestId("client-id").textContent())?.trim() ?? "";
    expect(clientSecret.length).toBeGreaterThan(30);
    await shoot(admin, "oidc-secret-en");
    await admin.getByRole("button", { name: "OK" }).click();
    await expect.poll(async () => admin.getByText(clientSecret).isVisible(), { timeout: 20_000 }).toBe(false);

    const config = await client.discovery(new URL(base()), clientId, clientSecret, undefined, {
      execute: [client.allowInsecureRequests],
    });
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: "openid email",
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
    });
    // The cashier's browser (signed in) goes through /oidc/authorize to the RP's callback.
    const rpPage = await cashierContext.newPage();
    const confinement = await confineToLocal(rpPage, { allowed: [base()], stubbed: [RP_ORIGIN] });
    await rpPage.goto(url.href);
    // A client registered here is a third-party app: the cashier is asked once (decision 0036).
    await rpPage.getByRole("heading", { name: "Partner portal wants to use your Hisob account" }).waitFor();
    await rpPage.getByRole("button", { name: "Allow", exact: true }).click();
    await rpPage.waitForURL(/^https:\/\/rp\.example\/callback/);
    expect(confinement.blocked).toEqual([]);
    const tokens = await client.authorizationCodeGrant(config, new URL(rpPage.url()), {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    const subject = tokens.claims()?.sub ?? "";
    const info = await client.fetchUserInfo(config, tokens.access_token, subject);
    expect(info.email).toBe(cashierEmail);
    await rpPage.close();
  });

  it("rotates the signing key: published at once, signing after the propagation delay; the old one stays published", async () => {
    const before = (await (await fetch(`${base()}/oidc/keys`)).json()) as { keys: Array<{ kid: string }> };
    await navLink(admin, "Signing keys").click();
    await admin.getByRole("button", { name: "Rotate key" }).click();
    await confirmPopover(admin);
    await expect.poll(async () => admin.locator(".ant-table-row").count(), { timeout: 20_000 }).toBe(2);
    // The new key says when it starts to sign; the old one still signs until then.
    await admin.locator(".ant-tag", { hasText: "Signs from" }).waitFor();
    await admin.locator(".ant-tag", { hasText: /^Signing$/ }).waitFor();
    await shoot(admin, "signing-keys-en");
    const after = (await (await fetch(`${base()}/oidc/keys`)).json()) as { keys: Array<{ kid: string }> };
    expect(after.keys.length).toBe(2);
    expect(after.keys.map((key) => key.kid)).toEqual(
      expect.arrayContaining(before.keys.map((key) => key.kid)),
    );
  });

  it("ends the cashier's sessions: that browser is signed out", async () => {
    await navLink(admin, "Users").click();
    const row = admin.locator(".ant-table-row", { hasText: cashierEmail });
    await row.getByRole("button", { name: "Sessions" }).click();
    const modal = admin.locator(".ant-modal");
    await modal.locator(".ant-table-row").first().waitFor();
    await shoot(admin, "sessions-en");
    await modal.getByRole("button", { name: "End all sessions" }).click();
    // This confirmation's own popover (an earlier step's may still be fading out on a loaded machine),
    // and the DELETE's answer awaited, not guessed.
    const ended = admin.waitForResponse(
      (response) =>
        response.request().method() === "DELETE" && /\/users\/[^/]+\/sessions$/.test(response.url()),
      { timeout: 60_000 },
    );
    // On a loaded machine a click can land while the confirmation is still zooming in and do nothing
    // (seen with a CPU hog: no DELETE was sent). Click OK until the confirmation closes, which it does
    // once it has fired; ending the sessions a second time would end nothing more.
    const confirmation = admin.locator(".ant-popover:visible", { hasText: "End all sessions" });
    await expect
      .poll(
        async () => {
          await confirmation
            .getByRole("button", { name: "OK" })
            .click({ timeout: 5_000 })
            .catch(() => undefined);
          return confirmation.count();
        },
        { timeout: 45_000 },
      )
      .toBe(0);
    expect((await ended).status()).toBe(200);
    await expect.poll(async () => modal.locator(".ant-table-row").count(), { timeout: 20_000 }).toBe(0);
    await modal.getByRole("button", { name: "Cancel" }).click();
    await cashier.goto(`${base()}/admin/users`);
    await cashier.waitForURL(/\/login\?next=%2Fadmin%2Fusers/);
  });

  it("creates a group carrying the role", async () => {
    await navLink(admin, "Groups").click();
    await admin.getByRole("button", { name: "New group" }).click();
    const drawer = admin.locator(".ant-drawer");
    await drawer.getByLabel("Name").fill("Front desk");
    await drawer.getByLabel("Roles").click();
    await admin.locator(".ant-select-item-option", { hasText: "Cashier" }).click();
    await admin.keyboard.press("Escape");
    await drawer.getByRole("button", { name: "Create" }).click();
    await admin.getByRole("cell", { name: "Front desk" }).waitFor();
  });

  it("reads the audit entries those steps wrote", async () => {
    await navLink(admin, "Audit log").click();
    const table = admin.locator(".ant-table-tbody");
    await table.locator(".ant-table-row").first().waitFor();
    const text = await table.innerText();
    // Entities and actions in words (the identifiers stay in each cell's title).
    for (const expected of [
      "Role",
      "User",
      "Group",
      "OIDC client",
      "Signing key",
      "all ended",
      "signed in",
      "created",
    ]) {
      expect(text, expected).toContain(expected);
    }
    expect(text).not.toMatch(/Cashier-Passw0rd|argon2/);
    // A recorded true or false reads as a word.
    expect(text).toContain("Active: Yes");
    expect(text).not.toMatch(/: (true|false)\b|→ (true|false)\b/);
  });

  it("every screen in en, ru and uz, with no untranslated key; the choice is saved", async () => {
    const languages = [
      {
        code: "en",
        label: "English",
        users: "Users",
        newUser: "New user",
        newTenant: "New organization",
        create: "Create",
        cancel: "Cancel",
      },
      {
        code: "ru",
        label: "Русский",
        users: "Пользователи",
        newUser: "Новый пользователь",
        newTenant: "Новая организация",
        create: "Создать",
        cancel: "Отмена",
      },
      {
        code: "uz",
        label: "Oʻzbekcha",
        users: "Foydalanuvchilar",
        newUser: "Yangi foydalanuvchi",
        newTenant: "Yangi tashkilot",
        create: "Yaratish",
        cancel: "Bekor qilish",
      },
    ];
    for (const language of languages) {
      await admin.getByLabel(/Language|Язык|Til/).click();
      await admin.locator(".ant-select-item-option", { hasText: language.label }).click();
      await navLink(admin, language.users).waitFor();
      for (const screen of SCREENS) {
        await admin.goto(`${base()}/admin/${screen}`);
        await admin.getByRole("navigation").waitFor();
        // Every screen has rows by now (users, roles, clients, keys, entries): wait for the data.
        await admin.locator(".ant-table-row, .ant-list-item").first().waitFor();
        await expect
          .poll(async () => admin.locator(".ant-spin-spinning").count(), { timeout: 20_000 })
          .toBe(0);
        const body = await admin.locator("body").innerText();
        expect(body, `${screen} ${language.code}`).not.toMatch(RAW_KEY);
        expect(body).not.toMatch(/undefined|NaN|\[object Object\]/);
        await shoot(admin, `${screen}-${language.code}`);
      }
      // Forms check with the server's schemas and speak the user's language beside the field: never
      // the browser's own (English) bubbles. An empty name and a malformed email, then Create.
      await admin.goto(`${base()}/admin/users`);
      await admin.locator(".ant-table-row").first().waitFor();
      await admin.getByRole("button", { name: language.newUser }).click();
      const drawer = admin.locator(".ant-drawer");
      await expect(drawer.locator("form").getAttribute("novalidate")).resolves.not.toBeNull();
      await drawer.locator("#email").fill("not-an-email");
      await drawer.getByRole("button", { name: language.create }).click();
      const messages = FORM_MESSAGES[language.code as keyof typeof FORM_MESSAGES];
      await drawer.getByText(messages.email, { exact: true }).waitFor();
      await expect(drawer.getByText(messages.required, { exact: true }).count()).resolves.toBe(2);
      await shoot(admin, `users-form-errors-${language.code}`);
      await drawer.getByRole("button", { name: language.cancel }).click();
      await drawer.waitFor({ state: "hidden" });
      // A schema's own message (the domain's) is translated the server's way too.
      await admin.goto(`${base()}/admin/tenants`);
      await admin.locator(".ant-table-row").first().waitFor();
      await admin.getByRole("button", { name: language.newTenant }).click();
      const dialog = admin.locator(".ant-modal");
      await dialog.locator("#name").fill("");
      await dialog.locator("#domain").fill("not a domain");
      await dialog.getByRole("button", { name: language.create }).click();
      await dialog.getByText(messages.domain, { exact: true }).waitFor();
      await dialog.getByText(messages.empty, { exact: true }).waitFor();
      await shoot(admin, `tenants-form-errors-${language.code}`);
      await dialog.getByRole("button", { name: language.cancel }).click();
      await dialog.waitFor({ state: "hidden" });
      // Saved as the user's uiLanguage: the server answers in it too.
      const account = await admin.request.get(`${base()}/account`);
      expect((await account.json()).uiLanguage).toBe(language.code);
    }
    expect(pageErrors).toEqual([]);
  });

  it("each screen is its own chunk: the users screen loads none of the others; another one comes when opened, the frame stays put and an outline shows meanwhile", async () => {
    const page = await admin.context().newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    const scripts: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "script") scripts.push(path.basename(new URL(request.url()).pathname));
    });
    for (const language of ["en", "ru", "uz"] as const) {
      // The roles screen's code is held back until the outline has been seen.
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route(/\/admin\/assets\/RolesPage-[\w-]+\.js$/, async (route) => {
        await held;
        await route.continue();
      });
      scripts.length = 0;
      const saved = await page.request.put(`${base()}/account`, { data: { uiLanguage: language } });
      expect(saved.status()).toBe(200);
      await page.goto(`${base()}/admin/users`);
      await page.locator(".ant-table-row").first().waitFor();
      expect(scripts.filter((name) => /Page-/.test(name))).toEqual([expect.stringMatching(/^UsersPage-/)]);
      expect(scripts).toContainEqual(expect.stringMatching(/^vendor-antd-/));
      const nav = page.getByRole("navigation");
      const navBox = await nav.boundingBox();
      const heading = page.getByRole("heading", { level: 1 }).first();
      const headingBox = await heading.boundingBox();

      await nav.getByRole("link").nth(1).click();
      const outline = page.locator("output[aria-busy=true]");
      await outline.waitFor();
      expect(await nav.boundingBox()).toEqual(navBox);
      // The outline starts where the screen's title does: nothing jumps when the screen replaces it.
      const outlineBox = await outline.boundingBox();
      expect(Math.abs((outlineBox?.x ?? -99) - (headingBox?.x ?? 99))).toBeLessThanOrEqual(1);
      expect(Math.abs((outlineBox?.y ?? -99) - (headingBox?.y ?? 99))).toBeLessThanOrEqual(4);
      await page.screenshot({ path: path.join(SCREENSHOTS, `admin-loading-${language}.png`) });

      release();
      await page.locator(".ant-checkbox").first().waitFor();
      await expect(outline.count()).resolves.toBe(0);
      expect(scripts).toContainEqual(expect.stringMatching(/^RolesPage-/));
      const after = await heading.boundingBox();
      expect(Math.abs((after?.x ?? -99) - (headingBox?.x ?? 99))).toBeLessThanOrEqual(1);
      expect(Math.abs((after?.y ?? -99) - (headingBox?.y ?? 99))).toBeLessThanOrEqual(4);
      await page.unrouteAll();
    }
    await page.close();
    expect(errors).toEqual([]);
  });

  it("asks before rotating a client secret and before deactivating an organization, and a new user starts in the screen's language", async () => {
    const made = await admin.request.post(`${base()}/tenants`, { data: { name: "Bozor savdo" } });
    expect(made.status()).toBe(201);
    const tenantId = ((await made.json()) as { id: string }).id;
    const texts = {
      en: {
        rotate: "Rotate secret",
        deactivate: "Deactivate",
        newUser: "New user",
        language: "English",
        sessions: "Sessions",
      },
      ru: {
        rotate: "Сменить секрет",
        deactivate: "Отключить",
        newUser: "Новый пользователь",
        language: "Русский",
        sessions: "Сеансы",
      },
      uz: {
        rotate: "Sirni almashtirish",
        deactivate: "Oʻchirib qoʻyish",
        newUser: "Yangi foydalanuvchi",
        language: "Oʻzbekcha",
        sessions: "Seanslar",
      },
    } as const;
    // The popover that the click opened (an earlier one may still be fading out).
    const popover = (title: string) => admin.locator(".ant-popover:visible", { hasText: title });
    const confirm = (title: string) => confirmPopover(admin, title);
    for (const code of ["uz", "ru", "en"] as const) {
      const text = texts[code];
      expect((await admin.request.put(`${base()}/account`, { data: { uiLanguage: code } })).status()).toBe(
        200,
      );

      // Rotate secret: asks, saying the old secret stops at once; Cancel rotates nothing.
      await admin.goto(`${base()}/admin/oidc-clients`);
      const client = admin.locator(".ant-table-row", { hasText: "Partner portal" });
      await client.getByRole("button", { name: text.rotate }).click();
      const rotate = popover(text.rotate);
      await rotate.locator(".ant-popconfirm-description").waitFor();
      expect(await rotate.innerText()).toContain("Partner portal");
      expect(await rotate.innerText()).not.toMatch(RAW_KEY);
      await shoot(admin, `oidc-rotate-confirm-${code}`);
      await rotate.locator(".ant-btn:not(.ant-btn-primary)").click();
      await rotate.waitFor({ state: "hidden" });
      expect(await admin.getByTestId("client-secret").count()).toBe(0);

      // Deactivate an organization: asks, saying its users are signed out; Cancel keeps it active.
      await admin.goto(`${base()}/admin/tenants`);
      const tenant = admin.locator(".ant-table-row", { hasText: "Bozor savdo" });
      await tenant.getByRole("button", { name: text.deactivate }).click();
      const deactivate = popover(text.deactivate);
      await deactivate.locator(".ant-popconfirm-description").waitFor();
      expect(await deactivate.innerText()).toContain("Bozor savdo");
      expect(await deactivate.innerText()).not.toMatch(RAW_KEY);
      await shoot(admin, `tenant-deactivate-confirm-${code}`);
      await deactivate.locator(".ant-btn:not(.ant-btn-primary)").click();
      await deactivate.waitFor({ state: "hidden" });
      const kept = (await (await admin.request.get(`${base()}/tenants/${tenantId}`)).json()) as {
        active: boolean;
      };
      expect(kept.active).toBe(true);

      // The new-user drawer's language starts as the admin's own.
      await admin.goto(`${base()}/admin/users`);
      await admin.locator(".ant-table-row").first().waitFor();
      await admin.getByRole("button", { name: text.newUser }).click();
      const drawer = admin.locator(".ant-drawer");
      // The drawer opens after the click returns: wait for its language field, not a single read.
      await expect
        .poll(() => drawer.locator(".ant-select-content", { hasText: text.language }).count())
        .toBe(1);
      await shoot(admin, `users-new-${code}`);
      await drawer.locator(".ant-drawer-close").click();
      await drawer.waitFor({ state: "hidden" });

      // Session rows tell themselves apart: short id, device from the user agent, the IP's network.
      await admin
        .locator(".ant-table-row", { hasText: adminEmail })
        .getByRole("button", { name: text.sessions })
        .click();
      const modal = admin.locator(".ant-modal");
      const first = modal.locator(".ant-table-row").first();
      await first.waitFor();
      expect(await first.innerText()).toMatch(/[0-9a-f]{8}/);
      expect(await first.innerText()).toMatch(/Chrom(e|ium) \d+ · Linux/);
      expect(await first.innerText()).toMatch(/127\.0\.0\.0\/24|::\/48/);
      expect(await modal.innerText()).not.toMatch(RAW_KEY);
      await shoot(admin, `sessions-rows-${code}`);
      await modal.locator(".ant-modal-close").click();
      await modal.waitFor({ state: "hidden" });
    }

    // Confirmed, the rotation shows the new secret once, and the deactivation goes through.
    await admin.goto(`${base()}/admin/oidc-clients`);
    await admin
      .locator(".ant-table-row", { hasText: "Partner portal" })
      .getByRole("button", { name: "Rotate secret" })
      .click();
    await confirm("Rotate secret");
    await admin.getByTestId("client-secret").waitFor();
    await admin.locator(".ant-modal").getByRole("button", { name: "OK", exact: true }).click();
    await admin.goto(`${base()}/admin/tenants`);
    await admin
      .locator(".ant-table-row", { hasText: "Bozor savdo" })
      .getByRole("button", { name: "Deactivate" })
      .click();
    const saved = admin.waitForResponse(
      (response) => response.request().method() === "PUT" && response.url().endsWith(`/tenants/${tenantId}`),
    );
    await confirm("Deactivate");
    expect((await saved).status()).toBe(200);
    const after = (await (await admin.request.get(`${base()}/tenants/${tenantId}`)).json()) as {
      active: boolean;
    };
    expect(after.active).toBe(false);
    expect(pageErrors).toEqual([]);
  });
});
