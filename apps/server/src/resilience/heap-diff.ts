import { readFileSync } from "node:fs";

/*
 * What grew between two V8 heap snapshots of one process: objects grouped by constructor (closures by
 * function, strings, arrays, compiled code by kind), their count and self size in each, and for the
 * groups that grew most, where a few of the objects that are new in the second snapshot hang from:
 * the shortest chain of strong references from the roots (object ids stay the same within a process).
 */

type Snapshot = {
  snapshot: {
    meta: {
      node_fields: string[];
      node_types: [string[]];
      edge_fields: string[];
      edge_types: [string[]];
    };
  };
  nodes: number[];
  edges: number[];
  strings: string[];
};

const load = (file: string) => {
  const raw = JSON.parse(readFileSync(file, "utf8")) as Snapshot;
  const { meta } = raw.snapshot;
  const nodeWidth = meta.node_fields.length;
  const edgeWidth = meta.edge_fields.length;
  const field = (name: string) => meta.node_fields.indexOf(name);
  const [TYPE, NAME, ID, SIZE, EDGES] = ["type", "name", "id", "self_size", "edge_count"].map(field) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const [EDGE_TYPE, EDGE_NAME, EDGE_TO] = ["type", "name_or_index", "to_node"].map((name) =>
    meta.edge_fields.indexOf(name),
  ) as [number, number, number];
  const nodeTypes = meta.node_types[0];
  const edgeTypes = meta.edge_types[0];
  const count = raw.nodes.length / nodeWidth;
  const typeOf = (node: number) => nodeTypes[raw.nodes[node * nodeWidth + TYPE] ?? 0] ?? "?";
  const nameOf = (node: number) => raw.strings[raw.nodes[node * nodeWidth + NAME] ?? 0] ?? "";
  const idOf = (node: number) => raw.nodes[node * nodeWidth + ID] ?? 0;
  const sizeOf = (node: number) => raw.nodes[node * nodeWidth + SIZE] ?? 0;
  /** The group an object is counted in. */
  const groupOf = (node: number) => {
    const type = typeOf(node);
    if (type === "object" || type === "closure" || type === "native") return `${type} ${nameOf(node)}`;
    if (type === "code" || type === "hidden" || type === "array")
      return `${type} ${nameOf(node).slice(0, 40)}`;
    return `(${type})`;
  };
  // Where each node's edges start, and the shortest strong path from the root (breadth first).
  const firstEdge = new Uint32Array(count + 1);
  for (let node = 0; node < count; node += 1)
    firstEdge[node + 1] = (firstEdge[node] ?? 0) + (raw.nodes[node * nodeWidth + EDGES] ?? 0) * edgeWidth;
  const parent = new Int32Array(count).fill(-1);
  const parentEdge = new Int32Array(count).fill(-1);
  parent[0] = 0;
  const queue = [0];
  for (let head = 0; head < queue.length; head += 1) {
    const node = queue[head] ?? 0;
    for (let edge = firstEdge[node] ?? 0; edge < (firstEdge[node + 1] ?? 0); edge += edgeWidth) {
      if (edgeTypes[raw.edges[edge + EDGE_TYPE] ?? 0] === "weak") continue;
      const to = (raw.edges[edge + EDGE_TO] ?? 0) / nodeWidth;
      if (parent[to] !== -1) continue;
      parent[to] = node;
      parentEdge[to] = edge;
      queue.push(to);
    }
  }
  const edgeLabel = (edge: number) => {
    const type = edgeTypes[raw.edges[edge + EDGE_TYPE] ?? 0];
    const name = raw.edges[edge + EDGE_NAME] ?? 0;
    return type === "element" || type === "hidden" ? `[${name}]` : (raw.strings[name] ?? "?");
  };
  /** root → … → node, as `Group.edge` steps (the last `depth` of them). */
  const retainers = (node: number, depth = 9) => {
    const steps: string[] = [];
    let at = node;
    while (at !== 0 && parent[at] !== -1 && steps.length < depth) {
      steps.unshift(`${groupOf(parent[at] ?? 0)} .${edgeLabel(parentEdge[at] ?? 0)}`);
      at = parent[at] ?? 0;
    }
    return parent[node] === -1 ? "(unreachable)" : steps.join(" → ");
  };
  return { count, groupOf, idOf, sizeOf, retainers };
};

export const compareHeapSnapshots = (firstFile: string, secondFile: string, top = 12) => {
  const first = load(firstFile);
  const second = load(secondFile);
  type Group = { count: number; size: number };
  const tally = (heap: ReturnType<typeof load>) => {
    const groups = new Map<string, Group>();
    let total = 0;
    for (let node = 0; node < heap.count; node += 1) {
      const group = groups.get(heap.groupOf(node)) ?? { count: 0, size: 0 };
      group.count += 1;
      group.size += heap.sizeOf(node);
      total += heap.sizeOf(node);
      groups.set(heap.groupOf(node), group);
    }
    return { groups, total };
  };
  const before = tally(first);
  const after = tally(second);
  const grown = [...after.groups]
    .map(([name, group]) => {
      const was = before.groups.get(name) ?? { count: 0, size: 0 };
      return { name, count: group.count - was.count, size: group.size - was.size, wasCount: was.count };
    })
    .sort((a, b) => b.size - a.size)
    .slice(0, top);
  const firstIds = new Set<number>();
  for (let node = 0; node < first.count; node += 1) firstIds.add(first.idOf(node));
  const lines = [
    `self size of all objects: ${(before.total / 1048576).toFixed(1)} → ${(after.total / 1048576).toFixed(1)} MiB; objects ${first.count} → ${second.count}`,
  ];
  for (const group of grown) {
    lines.push(
      `${group.size >= 0 ? "+" : ""}${(group.size / 1024).toFixed(0)} KiB, ${group.count >= 0 ? "+" : ""}${group.count} objects (was ${group.wasCount}): ${group.name}`,
    );
    if (group.size < 64 * 1024) continue;
    let shown = 0;
    for (let node = 0; node < second.count && shown < 2; node += 1) {
      if (second.groupOf(node) !== group.name || firstIds.has(second.idOf(node))) continue;
      lines.push(`    new one held by: ${second.retainers(node)}`);
      shown += 1;
    }
  }
  return lines.join("\n");
};

if (process.argv[1]?.endsWith("heap-diff.ts") && process.argv[2] && process.argv[3]) {
  console.info(compareHeapSnapshots(process.argv[2], process.argv[3]));
}
