import type { TGlAccountDto } from "@hisob/finance/schema";
import { describe, expect, it } from "vitest";
import { mappingChoices, moveTargets, nameOf, parentIds, templateOf, toGlTree } from "./tree";

const account = (
  id: string,
  code: string,
  parentId: string | null,
  extra: Partial<TGlAccountDto> = {},
): TGlAccountDto => ({
  id,
  code,
  nameEn: `En ${code}`,
  nameRu: `Ру ${code}`,
  nameUz: `Uz ${code}`,
  type: "asset",
  parentId,
  currency: null,
  role: null,
  isActive: true,
  hasEntries: false,
  ...extra,
});

const chart = [
  account("b", "5200", null),
  account("b1", "5210", "b", { currency: "USD", role: "money_foreign", nameRu: "Валютные счета" }),
  account("a", "5000", null),
  account("a2", "5110", "a", { role: "money" }),
  account("a1", "5010", "a"),
  account("x", "9420", null, { type: "expense", nameUz: "Maʼmuriy xarajatlar" }),
  account("y", "9410", null, { type: "expense", isActive: false }),
];

const codes = (nodes: ReturnType<typeof toGlTree>): unknown[] =>
  nodes.map((node) => (node.children ? [node.code, codes(node.children)] : node.code));

describe("the chart as a tree", () => {
  it("puts each account under its parent, each level by code, named in the user's language", () => {
    const tree = toGlTree(chart, "ru");
    expect(codes(tree)).toEqual([["5000", ["5010", "5110"]], ["5200", ["5210"]], "9410", "9420"]);
    expect(tree[1]?.children?.[0]?.name).toBe("Валютные счета");
    expect(nameOf(chart[5] as TGlAccountDto, "uz")).toBe("Maʼmuriy xarajatlar");
    expect(parentIds(tree)).toEqual(["a", "b"]);
  });

  it("searches by code or by a name in any language, keeping the parents of what matches", () => {
    expect(codes(toGlTree(chart, "en", "5110"))).toEqual([["5000", ["5110"]]]);
    expect(codes(toGlTree(chart, "en", " валютные "))).toEqual([["5200", ["5210"]]]);
    expect(codes(toGlTree(chart, "en", "MAʼMURIY"))).toEqual(["9420"]);
    expect(toGlTree(chart, "en", "nothing like it")).toEqual([]);
  });

  it("tells the template by its money leaf", () => {
    expect(templateOf(chart)).toBe("nas21");
    expect(templateOf([account("m", "1110", null, { role: "money" })])).toBe("ifrs");
    expect(templateOf([])).toBeNull();
  });

  it("offers as mappings only the active leaves of the kind's type and the money account's currency", () => {
    const row = {
      id: "r",
      name: "Cash",
      glAccountId: null,
      defaultGlAccountId: null,
      postsTo: null,
    } as const;
    const uzs = mappingChoices(chart, { ...row, kind: "moneyAccount", currency: "UZS" });
    expect(uzs.map((each) => each.code)).toEqual(["5110", "5010"]);
    const usd = mappingChoices(chart, { ...row, kind: "moneyAccount", currency: "USD" });
    expect(usd.map((each) => each.code)).toEqual(["5210", "5110", "5010"]);
    const expense = mappingChoices(chart, { ...row, kind: "expenseCategory", currency: null });
    expect(expense.map((each) => each.code)).toEqual(["9420"]);
    expect(mappingChoices(chart, { ...row, kind: "paymentCategory", currency: null })).toEqual([]);
  });
});

describe("moveTargets", () => {
  it("offers the accounts of the moved one's type, without it and its sub-accounts; one with lines not selectable", () => {
    const accounts = [
      account("g", "5000", null),
      account("g1", "5010", "g", { hasEntries: true }),
      account("g2", "5020", "g"),
      account("g21", "5021", "g2"),
      account("h", "5100", null),
      account("x", "9400", null, { type: "expense" }),
    ];
    const moving = accounts[2] as TGlAccountDto; // 5020, with 5021 under it
    const targets = moveTargets(accounts, moving, "en");
    expect(targets.map((node) => node.title)).toEqual(["5000 En 5000", "5100 En 5100"]);
    expect(targets[0]?.children?.map((node) => [node.title, node.disabled])).toEqual([
      ["5010 En 5010", true],
    ]);
    expect(moveTargets(accounts, accounts[5] as TGlAccountDto, "ru")).toEqual([]);
  });
});
