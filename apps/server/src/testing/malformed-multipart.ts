/*
 * Broken multipart/form-data bodies (the corpus of the first adversarial probe, kept as a fixture):
 * each must be refused as the client's error (400, or 413 for the parser's limits), never a 500,
 * and must leave no upload behind. Every file part is named "probe.bin".
 */

export type MalformedMultipart = { name: string; contentType: string; body: Buffer };

const B = "----hisobprobe";
const CT = `multipart/form-data; boundary=${B}`;
const head = (extra = "") =>
  `--${B}\r\nContent-Disposition: form-data; name="file"; filename="probe.bin"\r\nContent-Type: application/octet-stream${extra}\r\n\r\n`;
const whole = (content: string) => `${head()}${content}\r\n--${B}--\r\n`;

export const MALFORMED_MULTIPART: MalformedMultipart[] = [
  { name: "no closing boundary", contentType: CT, body: Buffer.from(`${head()}hello world`) },
  {
    name: "cut in the middle of the part headers",
    contentType: CT,
    body: Buffer.from(`--${B}\r\nContent-Disposition: form-da`),
  },
  {
    name: "headers never end",
    contentType: CT,
    body: Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="file"; filename="probe.bin"\r\n`),
  },
  { name: "no boundary parameter", contentType: "multipart/form-data", body: Buffer.from(whole("x")) },
  {
    name: "an empty boundary parameter",
    contentType: "multipart/form-data; boundary=",
    body: Buffer.from(whole("x")),
  },
  {
    name: "a boundary that never appears",
    contentType: "multipart/form-data; boundary=other",
    body: Buffer.from(whole("x")),
  },
  { name: "garbage", contentType: CT, body: Buffer.from("this is not multipart at all") },
  {
    name: "binary junk",
    contentType: CT,
    body: Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 37) % 256)),
  },
  { name: "an empty body", contentType: CT, body: Buffer.alloc(0) },
  {
    name: "only a preamble and the opening boundary",
    contentType: CT,
    body: Buffer.from(`preamble\r\n--${B}\r\n`),
  },
  {
    name: "the file cut short after a megabyte",
    contentType: CT,
    body: Buffer.concat([Buffer.from(head()), Buffer.alloc(1024 * 1024, 7)]),
  },
  {
    name: "a header line far over the parser's limit",
    contentType: CT,
    body: Buffer.from(
      `--${B}\r\nX-Padding: ${"a".repeat(100_000)}\r\n${head().slice(`--${B}\r\n`.length)}x\r\n--${B}--\r\n`,
    ),
  },
  {
    name: "more parts than allowed",
    contentType: CT,
    body: Buffer.from(
      `${Array.from({ length: 60 }, () => `--${B}\r\nContent-Disposition: form-data; name="f"\r\n\r\nv\r\n`).join("")}--${B}--\r\n`,
    ),
  },
  {
    name: "more files than allowed",
    contentType: CT,
    body: Buffer.from(`${Array.from({ length: 25 }, () => `${head()}x\r\n`).join("")}--${B}--\r\n`),
  },
];
