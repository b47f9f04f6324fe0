import { createManualClock } from "@hisob/kernel";
import type { Response as InjectResponse } from "light-my-request";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SeededUser, type TestApp } from "../../testing/test-app";

const clock = createManualClock(new Date("2026-03-01T09:00:00Z"));
// The test app's OIDC_ISSUER_URL; inject() addresses requests to http://localhost:80.
const ISSUER = "http://localhost:3000";
const FORM = "application/x-www-form-urlencoded";

let t: TestApp;
let tenantId: string;
let user: SeededUser;

beforeAll(async () => {
  t = await createTestApp({ clock });
  tenantId = (await t.createTenant("Login Co")).id;
  user = await t.createUser(tenantId, []);
});

afterAll(async () => {
  await t?.close();
});

const cookieOf = (res: InjectResponse, name: string) => res.cookies.find((cookie) => cookie.name === name);
const hiddenValue = (body: string, name: string) =>
  new RegExp(`<input type="hidden" name="${name}" value="([^"]*)">`).exec(body)?.[1];
const alertText = (body: string) => /<div class="error" role="alert"[^>]*>([^<]*)<\/div>/.exec(body)?.[1];

/** GET /login: the page, its CSRF cookie and the token in the form. */
const openLogin = async (url = "/login", headers: Record<string, string> = {}) => {
  const res = await t.app.inject({ method: "GET", url, headers });
  const csrf = cookieOf(res, "csrf")?.value ?? "";
  return { res, body: res.body, csrf, token: hiddenValue(res.body, "_csrf") ?? "" };
};

type PostOptions = {
  cookies?: Record<string, string>;
  headers?: Record<string, string>;
  ip?: string;
  url?: string;
};

/** A header value that removes the header (postForm sends Origin unless told not to). */
const NO_HEADER = "<none>";

const postForm = (path: string, form: Record<string, string>, options: PostOptions = {}) =>
  t.app.inject({
    method: "POST",
    url: options.url ?? path,
    headers: Object.fromEntries(
      Object.entries({ "content-type": FORM, origin: ISSUER, ...options.headers }).filter(
        ([, value]) => value !== NO_HEADER,
      ),
    ),
    cookies: options.cookies ?? {},
    payload: new URLSearchParams(form).toString(),
    remoteAddress: options.ip ?? "127.0.0.1",
  });

/** A complete, valid sign-in form post (fresh CSRF pair), with overrides. */
const signIn = async (form: Record<string, string>, options: PostOptions = {}) => {
  const { csrf, token } = await openLogin();
  return postForm("/login", { _csrf: token, ...form }, { ...options, cookies: { csrf, ...options.cookies } });
};

describe("GET /login", () => {
  it("renders an accessible English form with a CSRF token, and safe headers", async () => {
    const { res, body, csrf, token } = await openLogin();
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.headers["x-frame-options"]).toBe("DENY");
    expect(res.headers["content-security-policy"]).toMatch(/default-src 'none'; style-src 'sha256-[^']+'/);
    expect(body).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(body).toContain("<title>Sign in — Hisob</title>");
    expect(body).toContain('<label for="email">Email</label>');
    expect(body).toMatch(/<input id="email" name="email" type="email" value="" autocomplete="username"/);
    expect(body).toContain('<label for="password">Password</label>');
    expect(body).toMatch(
      /<input id="password" name="password" type="password" autocomplete="current-password"/,
    );
    expect(body).toContain('<form method="post" action="/login">');
    expect(body).not.toContain('role="alert"');
    expect(body).not.toMatch(/<script/i);
    expect(hiddenValue(body, "next")).toBe("/account");
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(cookieOf(res, "csrf")).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });
    expect(csrf).not.toBe(token); // the page carries an HMAC of the cookie, not the cookie itself
  });

  it("speaks the language of ui_locales, then Accept-Language, and links to the others", async () => {
    const ru = await openLogin("/login?ui_locales=ru");
    expect(ru.body).toContain('<html lang="ru">');
    expect(ru.body).toContain('<button type="submit">Войти</button>');
    expect(ru.body).toContain('<label for="password">Пароль</label>');
    expect(ru.res.headers["content-language"]).toBe("ru");

    const uz = await openLogin("/login?ui_locales=uz-Latn-UZ");
    expect(uz.body).toContain('<html lang="uz">');
    expect(uz.body).toContain("<title>Kirish — Hisob</title>");
    expect(uz.body).toContain('<label for="email">Elektron pochta</label>');

    const byHeader = await openLogin("/login", { "accept-language": "de-DE,ru-RU;q=0.9,en;q=0.5" });
    expect(byHeader.body).toContain('<html lang="ru">');
    const uzHeader = await openLogin("/login", { "accept-language": "uz-Latn-UZ,uz;q=0.9" });
    expect(uzHeader.body).toContain("Hisob tizimiga kirish");
    const both = await openLogin("/login?ui_locales=en", { "accept-language": "ru" });
    expect(both.body).toContain('<html lang="en">');

    expect(ru.body).toContain('<nav aria-label="Язык">');
    expect(ru.body).toContain('<a href="/login?ui_locales=uz" lang="uz" hreflang="uz">Oʻzbekcha</a>');
    expect(ru.body).toContain(
      '<a href="/login?ui_locales=ru" lang="ru" hreflang="ru" aria-current="true">Русский</a>',
    );
    const withNext = await openLogin("/login?next=%2Fusers%3Fx%3D1&ui_locales=uz");
    expect(withNext.body).toContain('href="/login?ui_locales=en&amp;next=%2Fusers%3Fx%3D1"');
  });

  it("escapes a hostile next", async () => {
    const next = `/x?a=1&b="'><script>alert(1)</script>`;
    const { body } = await openLogin(`/login?next=${encodeURIComponent(next)}`);
    expect(body).not.toMatch(/<script|"'>/);
    expect(hiddenValue(body, "next")).toBe("/x?a=1&amp;b=%22%27%3E%3Cscript%3Ealert(1)%3C/script%3E");
  });

  it.each([
    ["//evil.com", "%2F%2Fevil.com"],
    ["/\\evil.com", "%2F%5Cevil.com"],
    ["https://evil.com", "https%3A%2F%2Fevil.com"],
    ["javascript:alert(1)", "javascript%3Aalert(1)"],
    ["encoded //evil.com", "%252F%252Fevil.com"],
    ["a tab", "%2F%09%2Fevil.com"],
    ["CR LF", "%2F%0D%0A%2Fevil.com"],
    ["a NUL", "%2Fusers%00"],
    ["dot segments", "%2F.%2F%2Fevil.com"],
    ["no leading slash", "evil.com"],
    ["empty", ""],
  ])("ignores next=%s and uses /account", async (_label, encoded) => {
    const { body } = await openLogin(`/login?next=${encoded}`);
    expect(hiddenValue(body, "next")).toBe("/account");
  });

  it("keeps a local next", async () => {
    const { body } = await openLogin("/login?next=%2Fusers%3Fx%3D1");
    expect(hiddenValue(body, "next")).toBe("/users?x=1");
  });

  it("sends a signed-in visitor straight on to next", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/login?next=/users",
      headers: { cookie: user.cookie },
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe("/users");
  });
});

describe("POST /login", () => {
  it("signs in: session cookie, 303 to next, and the cookie authenticates", async () => {
    const res = await signIn({ email: user.email, password: user.password, next: "/users?x=1" });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe("/users?x=1");
    const session = cookieOf(res, "session");
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });
    expect(session?.expires?.toISOString()).toBe("2026-03-01T21:00:00.000Z");
    const account = await t.app.inject({
      method: "GET",
      url: "/account",
      cookies: { session: session?.value ?? "" },
    });
    expect(account.statusCode).toBe(200);
    expect(account.json()).toMatchObject({ id: user.id });
  });

  it.each([
    "//evil.com",
    "/\\evil.com",
    "https://evil.com",
    "javascript:alert(1)",
    "/\t/evil.com",
    "/.//evil.com",
  ])("redirects to /account, never to next=%j", async (next) => {
    const res = await signIn({ email: user.email, password: user.password, next });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe("/account");
  });

  it("answers a wrong password and an unknown email with the same status and text, keeping the email only", async () => {
    const { csrf, token } = await openLogin();
    const attempt = (email: string) =>
      postForm(
        "/login",
        { _csrf: token, email, password: "Wrong-Passw0rd!" },
        { cookies: { csrf }, ip: "10.1.1.1" },
      );
    const wrong = await attempt(user.email);
    const unknown = await attempt("nobody@example.com");
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(alertText(wrong.body)).toBe("Invalid email or password");
    expect(wrong.body.replace(user.email, "EMAIL")).toBe(unknown.body.replace("nobody@example.com", "EMAIL"));
    expect(wrong.body).toContain(`value="${user.email}"`);
    expect(wrong.body).not.toContain("Wrong-Passw0rd!");
    expect(wrong.body).toMatch(
      /<input id="password" name="password" type="password" autocomplete="current-password"[^>]*autofocus/,
    );
    expect(cookieOf(wrong, "session")).toBeUndefined();
  });

  it("localizes the failure in the form's language", async () => {
    const { csrf, token } = await openLogin("/login?ui_locales=uz");
    const res = await postForm(
      "/login",
      { _csrf: token, ui_locales: "uz", email: user.email, password: "nope-nope-nope" },
      { cookies: { csrf }, ip: "10.1.1.2" },
    );
    expect(res.statusCode).toBe(401);
    expect(res.body).toContain('<html lang="uz">');
    expect(alertText(res.body)).toBe("Elektron pochta yoki parol notoʻgʻri");
  });

  it("escapes a hostile email when it shows the form again", async () => {
    const email = `"><script>alert(1)</script>@example.com`;
    const res = await signIn({ email, password: "whatever-1234" }, { ip: "10.1.1.3" });
    expect(res.statusCode).toBe(401);
    expect(res.body).not.toContain("<script>");
    expect(res.body).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;@example.com"');
  });

  it("asks for both fields when one is empty", async () => {
    const res = await signIn({ email: user.email, password: "" }, { ip: "10.1.1.4" });
    expect(res.statusCode).toBe(400);
    expect(alertText(res.body)).toBe("Enter your email and password.");
  });

  it("blocks the 6th failure for one email and IP for 15 minutes, then lets the user in", async () => {
    const victim = await t.createUser(tenantId, []);
    const { csrf, token } = await openLogin("/login?ui_locales=ru");
    const attempt = (password: string, ip = "10.2.2.2") =>
      postForm(
        "/login",
        { _csrf: token, ui_locales: "ru", email: victim.email, password },
        { cookies: { csrf }, ip },
      );
    for (let i = 1; i <= 5; i++) {
      clock.advance(60_000);
      expect((await attempt(`wrong-${i}-password`)).statusCode).toBe(401);
    }
    const blocked = await attempt("wrong-6-password");
    expect(blocked.statusCode).toBe(429);
    // The first failure leaves the 15-minute window 11 minutes from now.
    expect(blocked.headers["retry-after"]).toBe("660");
    expect(alertText(blocked.body)).toBe("Слишком много неудачных попыток. Повторите через 11 мин.");
    expect((await attempt(victim.password)).statusCode).toBe(429); // even the right password waits
    expect((await attempt(victim.password, "10.2.2.3")).statusCode).toBe(303); // another IP is another key

    clock.advance(11 * 60_000);
    const after = await attempt(victim.password);
    expect(after.statusCode).toBe(303);
    expect(cookieOf(after, "session")).toBeDefined();
  });

  describe("refuses posts that may come from another site (403, form shown again)", () => {
    it("without a CSRF token", async () => {
      const { csrf } = await openLogin();
      const res = await postForm(
        "/login",
        { email: user.email, password: user.password },
        { cookies: { csrf } },
      );
      expect(res.statusCode).toBe(403);
      expect(alertText(res.body)).toBe(
        "The form has expired or was sent from another site. Please try again.",
      );
      expect(res.body).toContain(`value="${user.email}"`);
      expect(hiddenValue(res.body, "_csrf")).toMatch(/^[A-Za-z0-9_-]{43}$/); // a token to retry with
      expect(cookieOf(res, "session")).toBeUndefined();
    });

    it("with a wrong token, a token for another cookie, or no cookie", async () => {
      const a = await openLogin();
      const b = await openLogin();
      const form = { email: user.email, password: user.password };
      const cases = [
        postForm("/login", { ...form, _csrf: "x".repeat(43) }, { cookies: { csrf: a.csrf } }),
        postForm("/login", { ...form, _csrf: b.token }, { cookies: { csrf: a.csrf } }),
        postForm("/login", { ...form, _csrf: a.token }),
        postForm("/login", { ...form, _csrf: a.csrf }, { cookies: { csrf: a.csrf } }),
      ];
      for (const res of await Promise.all(cases)) expect(res.statusCode).toBe(403);
    });

    it("from a foreign or opaque Origin, or with neither Origin nor a same-origin Referer", async () => {
      const form = { email: user.email, password: user.password };
      const cases: Record<string, string>[] = [
        { origin: "https://evil.example" },
        { origin: "http://localhost:3000.evil.example" },
        { origin: "null" },
        { origin: "" }, // present but empty
        { origin: NO_HEADER, referer: "https://evil.example/login" },
        { origin: NO_HEADER },
      ];
      for (const headers of cases) {
        const res = await signIn(form, { headers });
        expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      }
    });

    it("but accepts the request's own origin, and a same-origin Referer when Origin is missing", async () => {
      const form = { email: user.email, password: user.password };
      expect((await signIn(form, { headers: { origin: "http://localhost" } })).statusCode).toBe(303);
      const res = await signIn(form, {
        headers: { origin: NO_HEADER, referer: `${ISSUER}/login?ui_locales=ru` },
      });
      expect(res.statusCode).toBe(303);
    });
  });
});

describe("POST /logout", () => {
  const session = async () => {
    const res = await signIn({ email: user.email, password: user.password });
    return cookieOf(res, "session")?.value ?? "";
  };
  const accountWith = (cookies: Record<string, string>) =>
    t.app.inject({ method: "GET", url: "/account", cookies });

  it("form post: ends the session, clears the cookie, 303 → /login", async () => {
    const token = await session();
    const { csrf, token: csrfToken } = await openLogin();
    const res = await postForm(
      "/logout",
      { _csrf: csrfToken, ui_locales: "ru" },
      { cookies: { session: token, csrf } },
    );
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe("/login?ui_locales=ru");
    expect(cookieOf(res, "session")).toMatchObject({ value: "", path: "/" });
    expect((await accountWith({ session: token })).statusCode).toBe(401);
  });

  it("form post without a valid CSRF token or from another origin: 403 and the session survives", async () => {
    const token = await session();
    const { csrf, token: csrfToken } = await openLogin();
    const noToken = await postForm("/logout", {}, { cookies: { session: token, csrf } });
    expect(noToken.statusCode).toBe(403);
    expect(noToken.body).toContain('role="alert"');
    expect(noToken.body).toContain('<form method="post" action="/logout">');
    const foreign = await postForm(
      "/logout",
      { _csrf: csrfToken },
      { cookies: { session: token, csrf }, headers: { origin: "https://evil.example" } },
    );
    expect(foreign.statusCode).toBe(403);
    expect((await accountWith({ session: token })).statusCode).toBe(200);
  });

  it("JSON with the cookie: 204, the cookie is cleared and the token is dead", async () => {
    const token = await session();
    const res = await t.app.inject({
      method: "POST",
      url: "/logout",
      cookies: { session: token },
      payload: {},
    });
    expect(res.statusCode).toBe(204);
    expect(cookieOf(res, "session")?.value).toBe("");
    expect((await accountWith({ session: token })).statusCode).toBe(401);
  });

  it("the cookie with the CSRF header and no body: 204", async () => {
    const token = await session();
    const res = await t.app.inject({
      method: "POST",
      url: "/logout",
      cookies: { session: token },
      headers: { "x-csrf-token": "1" },
    });
    expect(res.statusCode).toBe(204);
    expect((await accountWith({ session: token })).statusCode).toBe(401);
  });

  it("refuses a simple cookie request (no JSON, no CSRF header): 403 and the session survives", async () => {
    const token = await session();
    const res = await t.app.inject({ method: "POST", url: "/logout", cookies: { session: token } });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatchObject({ code: "FORBIDDEN", reason: "auth.csrf_required" });
    expect(cookieOf(res, "session")).toBeUndefined();
    expect((await accountWith({ session: token })).statusCode).toBe(200);
  });

  it("bearer: 204 with nothing else, and the token is dead", async () => {
    const other = await t.createUser(tenantId, []);
    const res = await t.app.inject({ method: "POST", url: "/logout", headers: other.headers });
    expect(res.statusCode).toBe(204);
    const account = await t.app.inject({ method: "GET", url: "/account", headers: other.headers });
    expect(account.statusCode).toBe(401);
  });

  it("is idempotent: no session still signs out", async () => {
    expect((await t.app.inject({ method: "POST", url: "/logout" })).statusCode).toBe(204);
    expect(
      (await t.app.inject({ method: "POST", url: "/logout", headers: { authorization: "Bearer gone" } }))
        .statusCode,
    ).toBe(204);
    const { csrf, token } = await openLogin();
    const form = await postForm("/logout", { _csrf: token }, { cookies: { csrf } });
    expect(form.statusCode).toBe(303);
    expect(form.headers.location).toBe("/login");
    const dead = await t.app.inject({
      method: "POST",
      url: "/logout",
      cookies: { session: "not-a-session" },
      payload: {},
    });
    expect(dead.statusCode).toBe(204);
  });
});

describe("OpenAPI", () => {
  it("documents POST /logout and leaves the HTML pages out", async () => {
    const spec = (await t.app.inject({ method: "GET", url: "/openapi.json" })).json();
    expect(Object.keys(spec.paths["/logout"].post.responses)).toContain("204");
    expect(spec.paths["/login"]).toBeUndefined();
  });
});

describe("localized REST errors", () => {
  it("translates the message by reason; code and reason stay", async () => {
    const ru = await t.app.inject({
      method: "GET",
      url: "/users",
      headers: { "accept-language": "ru-RU,ru;q=0.9" },
    });
    expect(ru.statusCode).toBe(401);
    expect(ru.headers["content-language"]).toBe("ru");
    expect(ru.json().error).toMatchObject({
      code: "UNAUTHENTICATED",
      reason: "auth.unauthenticated",
      message: "Необходимо войти в систему.",
    });
    const uz = await t.app.inject({ method: "GET", url: "/users?ui_locales=uz" });
    expect(uz.json().error.message).toBe("Tizimga kirishingiz kerak.");
    const en = await t.app.inject({ method: "GET", url: "/users" });
    expect(en.json().error).toMatchObject({ code: "UNAUTHENTICATED", message: "Unauthorized" });
  });

  it("keeps the field-naming form for validation errors", async () => {
    const send = (headers: Record<string, string>) =>
      t.app.inject({ method: "POST", url: "/auth/login", headers, payload: { password: "x" } });
    const en = await send({});
    expect(en.json().error.message).toBe("validation error: email is required");
    const ru = await send({ "accept-language": "ru" });
    expect(ru.statusCode).toBe(400);
    expect(ru.json().error).toMatchObject({
      code: "VALIDATION_ERROR",
      reason: "validation.invalid",
      message: "Ошибка проверки данных: поле email обязательно для заполнения",
      // The same paths; each detail in Russian too.
      issues: [{ path: "email", message: "обязательно для заполнения" }],
    });
    const uz = await send({ "accept-language": "uz" });
    expect(uz.json().error.message).toBe("Kiritilgan maʼlumotlarda xato: email maydoni toʻldirilishi shart");
  });

  it("prefers the signed-in user's own language", async () => {
    const reader = await t.createUser(tenantId, []);
    const put = await t.app.inject({
      method: "PUT",
      url: "/account",
      headers: reader.headers,
      payload: { uiLanguage: "uz" },
    });
    expect(put.statusCode).toBe(200);
    const res = await t.app.inject({
      method: "GET",
      url: "/users",
      headers: { ...reader.headers, "accept-language": "ru" },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatchObject({
      code: "FORBIDDEN",
      reason: "auth.forbidden",
      message: "Bu amalni bajarish uchun huquqingiz yoʻq.",
    });
  });
});
