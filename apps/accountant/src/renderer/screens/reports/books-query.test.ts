import { describe, expect, it } from "vitest";
import {
  booksSearch,
  generalLedgerHref,
  ledgerDocumentHref,
  readBooksParams,
  yearToDate,
} from "./books-query";

const ID = "3f1c2a4e-8b7d-4c6a-9e2f-1a2b3c4d5e6f";
const MONEY = "0f1c2a4e-8b7d-4c6a-9e2f-1a2b3c4d5e60";
const params = (text: string) => new URLSearchParams(text);

describe("the books' reports' addresses (docs/decisions/0101-books-reports.md)", () => {
  it("reads the period, day, compared day and account of the chart; drops what it cannot read", () => {
    expect(
      readBooksParams(
        params(
          `start=2026-03-01&end=2026-03-31&date=2026-03-31&compareDate=2026-02-28&gl=${ID}&compare=previousYear`,
        ),
        "2026-11-29",
      ),
    ).toEqual({
      start: "2026-03-01",
      end: "2026-03-31",
      compare: "previousYear",
      date: "2026-03-31",
      compareDate: "2026-02-28",
      glAccountId: ID,
    });
    expect(readBooksParams(params("compareDate=2026-02-30&gl=1&date=x"), "2026-11-29")).toEqual({
      start: "2026-11-01",
      end: "2026-11-30",
      date: "2026-11-29",
      compareDate: null,
      glAccountId: null,
    });
  });

  it("writes a change and keeps the rest of the address", () => {
    const next = booksSearch(params("start=2026-03-01&end=2026-03-31&account=x"), {
      glAccountId: ID,
      compareDate: null,
    });
    expect(next.toString()).toBe(`start=2026-03-01&end=2026-03-31&account=x&gl=${ID}`);
    expect(booksSearch(next, { glAccountId: null, compare: "previousPeriod" }).toString()).toBe(
      "start=2026-03-01&end=2026-03-31&account=x&compare=previousPeriod",
    );
  });

  it("drills to an account's general ledger and from a line to its document", () => {
    expect(generalLedgerHref(ID, { start: "2026-03-01", end: "2026-03-31" })).toBe(
      `/reports/general-ledger?start=2026-03-01&end=2026-03-31&gl=${ID}`,
    );
    expect(yearToDate("2026-03-31")).toEqual({ start: "2026-01-01", end: "2026-03-31" });
    const line = (kind: string, moneyAccountId: string | null = MONEY) => ({
      date: "2026-03-05",
      document: { kind, id: ID },
      moneyAccountId,
    });
    expect(ledgerDocumentHref(line("payment"))).toBe(
      `/payments?from=2026-03-05&to=2026-03-05&accountId=${MONEY}`,
    );
    expect(ledgerDocumentHref(line("expense", null))).toBe("/expenses?from=2026-03-05&to=2026-03-05");
    expect(ledgerDocumentHref(line("settlement"))).toBe(`/debts/${ID}`);
    expect(ledgerDocumentHref(line("exchange"))).toBe(`/accounts/${MONEY}?start=2026-03-05&end=2026-03-05`);
    expect(ledgerDocumentHref(line("transfer", null))).toBe("/transfers");
    expect(ledgerDocumentHref(line("other"))).toBeNull();
  });
});
