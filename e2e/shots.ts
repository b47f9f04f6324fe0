import type { Page } from "playwright-core";
import { expect } from "vitest";
/**
 * A full-page screenshot once no spinner, skeleton or opening motion is left (every request of the
 * screen answered) and loaded tables have faded back in (a CSS opacity transition).
 */
export const settledShot = async (page: Page, file: string) => {
  await expect
    .poll(
      () =>
        page
          .locator(
            '.ant-spin-spinning, .ant-spin-blur, .ant-skeleton-active, [class*=-appear], [class*=-enter], [aria-busy="true"]',
          )
          .count(),
      { timeout: 20_000 },
    )
    .toBe(0);
  await page.waitForFunction(() =>
    [...document.querySelectorAll(".ant-spin-container")].every((el) => getComputedStyle(el).opacity === "1"),
  );
  await page.screenshot({ path: file, fullPage: true });
};

/**
 * A full-page screenshot of a form: past a closing list's or calendar's animation and a dialog's
 * opening one, so the picture shows the dialog; a request the form waits on may still be running.
 */
export const formShot = async (page: Page, file: string) => {
  await expect
    .poll(() => page.locator(".ant-picker-dropdown:visible, .ant-select-dropdown:visible").count())
    .toBe(0);
  if (await page.locator(".ant-modal").count())
    await expect
      .poll(() =>
        page
          .locator(".ant-modal")
          .first()
          .evaluate((el) => getComputedStyle(el).opacity),
      )
      .toBe("1");
  await page.screenshot({ path: file, fullPage: true });
};
