import { type ThemeConfig, theme } from "antd";

/*
 * The one Ant Design theme of both apps. Ant Design's default greys are translucent black whose
 * contrast on white is below WCAG 2.1 AA's 4.5:1 for small text: statistic titles and descriptions
 * (tertiary, 45% ≈ 3.4:1), select and input placeholders (quaternary, 25% ≈ 2:1). The greys below are
 * opaque and pass AA on white and on the light greys our tables and cards use (#fafafa, #f5f5f5);
 * disabled text keeps a lighter grey (WCAG exempts it) but no longer reads as a placeholder.
 * The e2e suites run axe-core on every screen of both apps against this theme.
 */

/** Our green: 5.9:1 on white, 5.4:1 on #f0f5f4 (the navigation's hover). */
export const BRAND = "#0f6e5c";

type PresetColor = "green" | "gold" | "orange" | "volcano" | "cyan" | "lime" | "magenta";

/** `{ green7, "green-7" }` for each colour: the palette's shade 7 under its two token names. */
const shade7 = (colors: Record<PresetColor, string>) =>
  Object.fromEntries(
    Object.entries(colors).flatMap(([name, color]) => [
      [`${name}7`, color],
      [`${name}-7`, color],
    ]),
  ) as Partial<NonNullable<ThemeConfig["token"]>>;

export const HISOB_THEME: ThemeConfig = {
  algorithm: theme.defaultAlgorithm,
  token: {
    colorPrimary: BRAND,
    colorLink: BRAND,
    borderRadius: 6,
    // Secondary text (65% black) already passes; tertiary (descriptions, statistic titles, icons)
    // and placeholders get opaque greys that do: #595959 is 7:1 on white, #666 5.7:1, both ≥ 5:1 on #f5f5f5.
    colorTextSecondary: "#595959",
    colorTextTertiary: "#666666",
    colorTextDescription: "#666666",
    colorTextPlaceholder: "#666666",
    colorTextQuaternary: "#8c8c8c",
    // Danger buttons and error text: Ant Design's #ff4d4f is 3.3:1 on white; this red is 5.6:1.
    colorError: "#cf1322",
    // Tags' text is shade 7 of their colour on shade 1: the light ones fail (green 3.4:1, gold
    // 2.8:1, orange 3:1). Darker shades 7 pass on their own shade 1 (≥ 5:1); blue and purple do already.
    // Each is set under both of Ant Design's names for it (they become one CSS variable).
    ...shade7({
      green: "#237804",
      gold: "#874d00",
      orange: "#ad4e00",
      volcano: "#ad2102",
      cyan: "#006d75",
      lime: "#3f6600",
      magenta: "#9e1068",
    }),
    // One size for every screen's title (an h1 each: the page's own heading).
    fontSizeHeading1: 28,
  },
};
