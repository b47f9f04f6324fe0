import type { Page } from "playwright-core";
import { expect } from "vitest";

/**
 * Confirms the visible Ant Design confirmation (titled `title`, when given) by clicking its primary
 * button until it closes, which it does once it has fired. On a loaded machine a click can land while
 * the popover still zooms in and do nothing; a second click on a closed popover cannot happen, so the
 * action runs once.
 */
export const confirmPopover = async (page: Page, title?: string | RegExp) => {
  const confirmation =
    title === undefined
      ? page.locator(".ant-popover:visible")
      : page.locator(".ant-popover:visible", { hasText: title });
  await confirmation.first().waitFor();
  await expect
    .poll(
      async () => {
        await confirmation
          .first()
          .locator(".ant-btn-primary")
          .click({ timeout: 5_000 })
          .catch(() => undefined);
        return confirmation.count();
      },
      { timeout: 45_000 },
    )
    .toBe(0);
};
