import type { TCategoryDto } from "@hisob/finance/schema";

export type CategoryKind = "payments" | "expenses";
export type CategoryNode = TCategoryDto & { children?: CategoryNode[] };

/** The flat list as a tree, each level by name; a parent missing from the list makes its child a root. */
export const toTree = (categories: readonly TCategoryDto[]): CategoryNode[] => {
  const nodes = new Map<string, CategoryNode>(categories.map((category) => [category.id, { ...category }]));
  const roots: CategoryNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentId ? nodes.get(node.parentId) : undefined;
    if (!parent) roots.push(node);
    else if (parent.children) parent.children.push(node);
    else parent.children = [node];
  }
  const sort = (level: CategoryNode[]) => {
    level.sort((a, b) => a.name.localeCompare(b.name));
    for (const node of level) if (node.children) sort(node.children);
  };
  sort(roots);
  return roots;
};

/** For a parent picker: every category, indented under its parent. */
export type ParentOption = { value: string; title: string; children?: ParentOption[] };
export const toParentOptions = (tree: readonly CategoryNode[]): ParentOption[] =>
  tree.map((node) => ({
    value: node.id,
    title: node.name,
    ...(node.children ? { children: toParentOptions(node.children) } : {}),
  }));
