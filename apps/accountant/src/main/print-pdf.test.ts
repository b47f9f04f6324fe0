import { mkdtempSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { type PDF_OPTIONS, pdfFileName, saveAsPdf } from "./print-pdf";

describe("the desktop app's print to PDF", () => {
  const pdfBytes = new TextEncoder().encode("%PDF-1.7 report");
  const window = (calls: unknown[]) => ({
    webContents: {
      printToPDF: async (options: typeof PDF_OPTIONS) => {
        calls.push(options);
        return pdfBytes;
      },
    },
  });

  it("offers a safe .pdf name and writes the page printed with the page's own @page layout", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "hisob-pdf-"));
    const calls: unknown[] = [];
    const offered: string[] = [];
    const saved = await saveAsPdf("Cash flow 2026-11-01/2026-11-30", {
      window: window(calls),
      choosePath: async (name) => {
        offered.push(name);
        return path.join(dir, name);
      },
      writeFile,
    });
    expect(saved).toBe(true);
    expect(offered).toEqual(["Cash flow 2026-11-01-2026-11-30.pdf"]);
    expect(calls).toEqual([{ printBackground: true, preferCSSPageSize: true }]);
    expect(readFileSync(path.join(dir, offered[0] ?? "")).toString()).toBe("%PDF-1.7 report");
  });

  it("prints nothing when the dialog is cancelled or no window is focused", async () => {
    const calls: unknown[] = [];
    const never = async () => {
      throw new Error("nothing should be written");
    };
    expect(
      await saveAsPdf("x", { window: window(calls), choosePath: async () => null, writeFile: never }),
    ).toBe(false);
    expect(
      await saveAsPdf("x", { window: null, choosePath: async () => "/tmp/x.pdf", writeFile: never }),
    ).toBe(false);
    expect(calls).toEqual([]);
  });

  it("keeps a name that already ends in .pdf, and names an empty one", () => {
    expect(pdfFileName("Выписка по счёту.PDF")).toBe("Выписка по счёту.PDF");
    expect(pdfFileName("  ")).toBe("report.pdf");
    expect(pdfFileName('a:b*c?"d<e>|f')).toBe("a-b-c--d-e--f.pdf");
  });
});
