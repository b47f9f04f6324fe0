import { describe, expect, it } from "vitest";
import { screenOf } from "./screen-chunks";

describe("screenOf: the screen whose chunk the entry starts with", () => {
  it("follows the shell's routes", () => {
    expect(screenOf("/app/")).toBe("dashboard");
    expect(screenOf("/app")).toBe("dashboard");
    expect(screenOf("/app/accounts")).toBe("accounts");
    expect(screenOf("/app/accounts/0190a3b4-0000-7000-8000-000000000001")).toBe("accountDetail");
    expect(screenOf("/app/accounts/0190a3b4-0000-7000-8000-000000000001/print")).toBe("statementPrint");
    expect(screenOf("/app/payments")).toBe("documents");
    expect(screenOf("/app/expenses")).toBe("documents");
    expect(screenOf("/app/debts")).toBe("debts");
    expect(screenOf("/app/debts/abc")).toBe("debtDetail");
    expect(screenOf("/app/counterparties/abc")).toBe("counterpartyDetail");
    expect(screenOf("/app/reports/cashflow")).toBe("reports");
    expect(screenOf("/app/setup")).toBe("setup");
    expect(screenOf("/app/connected-apps")).toBe("connectedApps");
    expect(screenOf("/app/closed-period")).toBe("closedPeriod");
    expect(screenOf("/app/chart-of-accounts")).toBe("chartOfAccounts");
  });

  it("knows no screen for an unknown address (the shell sends it to the dashboard)", () => {
    expect(screenOf("/app/nowhere")).toBeNull();
  });
});
