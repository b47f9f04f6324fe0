import type { ZodType } from "zod";

/*
 * What a form can learn from the server's schema before anything is typed: the longest text a
 * field takes, for the input's `maxLength` (the browser then stops typing there, and the field never
 * holds what the server would refuse).
 */

type Check = { _zod: { def: { check?: string; maximum?: number } } };
type Node = { _zod: { def: { type: string; innerType?: Node; in?: Node; checks?: Check[] } } };

/** The most characters a string schema (under defaults, optionals, nullables, pipes) takes; undefined when unlimited. */
export const maxLengthOf = (schema: ZodType | undefined): number | undefined => {
  let current = schema as unknown as Node | undefined;
  for (let depth = 0; current && depth < 10; depth++) {
    const { def } = current._zod;
    if (def.type === "string") {
      const limits = (def.checks ?? [])
        .map((check) => check._zod.def)
        .filter((check) => check.check === "max_length" && typeof check.maximum === "number")
        .map((check) => check.maximum as number);
      return limits.length ? Math.min(...limits) : undefined;
    }
    current = def.innerType ?? def.in;
  }
  return undefined;
};
