import { z } from "zod";

export const ZLoginInput = z.object({
  email: z.string().trim().min(1).max(254),
  password: z.string().min(1).max(1024),
});
export type TLoginInput = z.infer<typeof ZLoginInput>;
