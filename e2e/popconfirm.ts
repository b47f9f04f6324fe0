import type { Page } from "playwright-core";
import { expect } from "vitest";

/**
 * Confirms the visible Ant Design confirmation (titled `title`, when given) by clicking its primary
 * button until it starts to close, which it does once it has fired. On a loaded machine a click can
 * land while the popover still zooms in and do nothing; one that is closing is never clicked again,
 * so the action runs once, and what it shows next (a message lasts 3 s) is not missed meanwhile.
 */
export const confirmPopover = async (page: Page, title?: string | RegExp) => {
  const selector = ".ant-popover:visible:not([class*='-leave'])";
  const open = title === undefined ? page.locator(selector) : page.locator(selector, { hasText: title });
  await open.first().waitFor();
  await expect
    .poll(
      async () => {
        if ((await open.count()) === 0) return 0;
        await open
          .first()
          .locator(".ant-btn-primary")
          .click({ timeout: 2_000 })
          .catch(() => undefined);
        return open.count();
      },
      { timeout: 45_000, interval: 100 },
    )
    .toBe(0);
};
