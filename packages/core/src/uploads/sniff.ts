import { fileTypeFromBuffer } from "file-type";

/**
 * The MIME type from the bytes themselves (magic numbers), never from the client. Content with no
 * known signature is text/plain when it is valid UTF-8 without NUL bytes, else application/octet-stream.
 */
export const sniffMimeType = async (head: Buffer): Promise<string> => {
  if (head.length === 0) return "application/octet-stream";
  const detected = await fileTypeFromBuffer(head);
  if (detected) return detected.mime;
  if (head.includes(0)) return "application/octet-stream";
  try {
    // fatal: invalid UTF-8 throws; the last few bytes may be a character cut by the sniff window.
    new TextDecoder("utf-8", { fatal: true }).decode(head.subarray(0, Math.max(0, head.length - 4)));
    return "text/plain";
  } catch {
    return "application/octet-stream";
  }
};
