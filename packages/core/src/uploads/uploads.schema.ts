import { stripBidiControls, ZPagination, ZRequiredLine } from "@hisob/kernel/schema";
import { z } from "zod";

/** 100 MiB: a file of exactly this size is accepted, one byte more is refused. */
export const MAX_UPLOAD_BYTES = 104_857_600;

export const ZUploadDto = z
  .object({
    id: z.uuid(),
    name: z.string(),
    size: z.number().int(),
    mimeType: z.string(),
    sha256: z.string(),
    createdById: z.uuid().nullable(),
    createdAt: z.iso.datetime(),
    /** Where to download the bytes. */
    contentUrl: z.string(),
  })
  .meta({ id: "Upload" });
export type TUploadDto = z.infer<typeof ZUploadDto>;

export const ZListUploadsQuery = z.object({
  ...ZPagination.shape,
  sortBy: z.enum(["createdAt", "name", "size"]).default("createdAt"),
  order: z.enum(["asc", "desc"]).default("desc"),
  name: ZRequiredLine(255).optional(),
  mimeType: ZRequiredLine(255).optional(),
});

/** A display name from whatever the client sent: no path, no control or bidirectional characters, bounded. */
export const cleanFileName = (raw: string | undefined): string => {
  const base = stripBidiControls((raw ?? "").split(/[/\\]/).pop() ?? "");
  const printable = [...base].filter((ch) => {
    const code = ch.codePointAt(0) ?? 0;
    return code >= 0x20 && code !== 0x7f;
  });
  const cleaned = printable.join("").trim().slice(0, 255);
  return cleaned === "" || cleaned === "." || cleaned === ".." ? "file" : cleaned;
};
