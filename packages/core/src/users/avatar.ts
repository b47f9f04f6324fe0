import type { Tx } from "@hisob/db";
import { AppError } from "@hisob/kernel";
import { avatarUploadId } from "./users.schema";

/**
 * An avatar that points to one of our uploads must be an upload of the user's own organization:
 * the path is published to relying parties as the `picture` claim, and another tenant's upload
 * id is not ours to hand out. External http(s) URLs pass as they are.
 */
export const assertAvatarIsOwnUpload = async (
  tx: Tx,
  tenantId: string,
  avatarUrl: string | null | undefined,
): Promise<void> => {
  const uploadId = avatarUploadId(avatarUrl);
  if (!uploadId) return;
  const upload = await tx.upload.findFirst({ where: { tenantId, id: uploadId }, select: { id: true } });
  if (!upload) {
    throw new AppError("VALIDATION_ERROR", {
      reason: "user.unknown_avatar_upload",
      message: "validation error: avatarUrl is not an upload of this organization",
      params: { issues: [{ path: "avatarUrl", message: "is not an upload of this organization" }] },
    });
  }
};
