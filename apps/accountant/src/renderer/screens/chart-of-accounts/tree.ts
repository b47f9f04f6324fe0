import type { TGlAccountDto, TGlMappingDto } from "@hisob/finance/schema";
import type { Locale } from "@hisob/ui";

/*
 * The chart of accounts as a tree (docs/decisions/0102-chart-of-accounts-screen.md): the server's flat
 * list, by code, under each parent; a search keeps the accounts whose code or name (in any of the
 * three languages) matches, and the parents that lead to them.
 */

export type GlNode = TGlAccountDto & { name: string; children?: GlNode[] };

/** The account's name in the user's language. */
export const nameOf = (
  account: Pick<TGlAccountDto, "nameEn" | "nameRu" | "nameUz">,
  locale: Locale,
): string => (locale === "ru" ? account.nameRu : locale === "uz" ? account.nameUz : account.nameEn);

const matches = (account: TGlAccountDto, needle: string) =>
  [account.code, account.nameEn, account.nameRu, account.nameUz].some((text) =>
    text.toLocaleLowerCase().includes(needle),
  );

/** The tree, each level by code; with a search, only matches and their ancestors. */
export const toGlTree = (accounts: readonly TGlAccountDto[], locale: Locale, search = ""): GlNode[] => {
  const byId = new Map(accounts.map((account) => [account.id, account]));
  const needle = search.trim().toLocaleLowerCase();
  let kept: Set<string> | null = null;
  if (needle) {
    kept = new Set();
    for (const account of accounts) {
      if (!matches(account, needle)) continue;
      for (let at: TGlAccountDto | undefined = account; at && !kept.has(at.id); ) {
        kept.add(at.id);
        at = at.parentId ? byId.get(at.parentId) : undefined;
      }
    }
  }
  const nodes = new Map<string, GlNode>();
  for (const account of accounts) {
    if (!kept || kept.has(account.id)) nodes.set(account.id, { ...account, name: nameOf(account, locale) });
  }
  const roots: GlNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentId ? nodes.get(node.parentId) : undefined;
    if (!parent) roots.push(node);
    else if (parent.children) parent.children.push(node);
    else parent.children = [node];
  }
  const sort = (level: GlNode[]) => {
    level.sort((a, b) => a.code.localeCompare(b.code, "en", { numeric: true }));
    for (const node of level) if (node.children) sort(node.children);
  };
  sort(roots);
  return roots;
};

/** The ids of every account that has sub-accounts (in the tree given), to expand them all. */
export const parentIds = (tree: readonly GlNode[]): string[] =>
  tree.flatMap((node) => (node.children ? [node.id, ...parentIds(node.children)] : []));

/** The template a chart came from, told by the code of its money leaf (null: none installed, or edited past telling). */
export const templateOf = (accounts: readonly TGlAccountDto[]): "nas21" | "ifrs" | null => {
  const money = accounts.find((account) => account.role === "money")?.code;
  return money === "5110" ? "nas21" : money === "1110" ? "ifrs" : null;
};

/** The type of leaf each mapping may post to (the server's rule: setMapping). */
export const MAPPED_TYPE: Record<TGlMappingDto["kind"], TGlAccountDto["type"]> = {
  moneyAccount: "asset",
  paymentCategory: "income",
  expenseCategory: "expense",
};

/**
 * The leaves a row may be mapped to, as the server allows them: active, without sub-accounts, of the
 * kind's type and, for a money account, of its currency when the leaf names one.
 */
export const mappingChoices = (accounts: readonly TGlAccountDto[], row: TGlMappingDto): TGlAccountDto[] => {
  const parents = new Set(accounts.map((account) => account.parentId).filter(Boolean));
  return accounts.filter(
    (account) =>
      account.isActive &&
      !parents.has(account.id) &&
      account.type === MAPPED_TYPE[row.kind] &&
      (row.currency === null || account.currency === null || account.currency === row.currency),
  );
};

/** A parent an account may be moved under, as a tree select shows it. */
export type MoveTarget = { value: string; title: string; disabled: boolean; children?: MoveTarget[] };

/**
 * Where an account may be moved (the server's rule: moveAccount; it still decides): the accounts of
 * its type, in the chart's tree, without the account and its sub-accounts (a cycle); an account with
 * lines is shown but not selectable (only leaves take lines, and it would no longer be one).
 */
export const moveTargets = (
  accounts: readonly TGlAccountDto[],
  moving: TGlAccountDto,
  locale: Locale,
): MoveTarget[] => {
  const convert = (nodes: readonly GlNode[]): MoveTarget[] =>
    nodes
      .filter((node) => node.id !== moving.id)
      .map((node) => ({
        value: node.id,
        title: `${node.code} ${node.name}`,
        disabled: node.hasEntries,
        ...(node.children ? { children: convert(node.children) } : {}),
      }));
  return convert(
    toGlTree(
      accounts.filter((account) => account.type === moving.type),
      locale,
    ),
  );
};
