import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { PAGE_CSP } from "./layout";
import { renderLoginPage, renderLogoutPage } from "./login.page";

const base = { locale: "en" as const, next: "/account", csrfToken: "tok" };

describe("renderLoginPage", () => {
  it("carries extra hidden fields for the OIDC flow, escaped, without shadowing its own", () => {
    const page = renderLoginPage({
      ...base,
      action: "/oidc/interaction/abc",
      hiddenFields: { interaction: `a"><b>`, next: "//evil.com", _csrf: "forged" },
    }).value;
    expect(page).toContain('<form method="post" action="/oidc/interaction/abc">');
    expect(page).toContain('<input type="hidden" name="interaction" value="a&quot;&gt;&lt;b&gt;">');
    expect(page.match(/name="next"/g)).toHaveLength(1);
    expect(page.match(/name="_csrf"/g)).toHaveLength(1);
    expect(page).not.toContain("//evil.com");
  });

  it("uses the given language links", () => {
    const page = renderLoginPage({
      ...base,
      localeHref: (locale) => `/oidc/interaction/abc?ui_locales=${locale}`,
    }).value;
    expect(page).toContain(
      '<a href="/oidc/interaction/abc?ui_locales=ru" lang="ru" hreflang="ru">Русский</a>',
    );
  });

  it("ties the error to the fields and announces it", () => {
    const page = renderLoginPage({ ...base, error: "Invalid email or password", email: "a@b.c" }).value;
    expect(page).toContain('<div class="error" role="alert" id="form-error">Invalid email or password</div>');
    expect(page.match(/aria-describedby="form-error"/g)).toHaveLength(2);
    expect(page.indexOf('role="alert"')).toBeLessThan(page.indexOf("<form"));
  });

  it("allows its inline style by hash in the CSP, and nothing else", () => {
    const page = renderLoginPage(base).value;
    const css = /<style>([\s\S]*)<\/style>/.exec(page)?.[1] ?? "";
    const hash = createHash("sha256").update(css).digest("base64");
    expect(PAGE_CSP).toContain(`style-src 'sha256-${hash}'`);
    expect(css).toContain(":focus-visible");
  });
});

describe("renderLogoutPage", () => {
  it("renders a sign-out form in the given language", () => {
    const page = renderLogoutPage({ locale: "uz", csrfToken: "tok", error: "x" }).value;
    expect(page).toContain('<html lang="uz">');
    expect(page).toContain('<button type="submit">Chiqish</button>');
    expect(page).toContain('<input type="hidden" name="_csrf" value="tok">');
  });
});
