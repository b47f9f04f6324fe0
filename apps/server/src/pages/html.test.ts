import { describe, expect, it } from "vitest";
import { escapeHtml, html } from "./html";

describe("html", () => {
  it("escapes every interpolated string, in text and attributes", () => {
    const hostile = `"><script>alert('x')</script>&\``;
    const out = html`<input value="${hostile}"><p>${hostile}</p>`.value;
    expect(out).toBe(
      '<input value="&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;&#96;"><p>&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;&#96;</p>',
    );
  });

  it("nests templates without double escaping, renders lists, and skips null, undefined and false", () => {
    const items = ["a<b", "c"].map((item) => html`<li>${item}</li>`);
    expect(html`<ul>${items}</ul>${null}${undefined}${false}${0}`.value).toBe(
      "<ul><li>a&lt;b</li><li>c</li></ul>0",
    );
  });

  it("does not trust look-alike objects", () => {
    const fake = { value: "<b>" } as unknown as string;
    expect(html`${fake}`.value).toBe("[object Object]");
    expect(escapeHtml("plain")).toBe("plain");
  });
});
