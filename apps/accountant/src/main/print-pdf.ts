/*
 * The desktop app's "Print": the page as laid out for paper (the renderer's print stylesheet: no
 * navigation, page numbers "1 / 3" in the margin, table headers repeated on each page), saved as PDF
 * where the user chooses. Kept apart from index.ts so it is tested without Electron.
 */

/** The page's own @page rules (size, margins, the page-number margin box) win over Electron's defaults. */
export const PDF_OPTIONS = { printBackground: true, preferCSSPageSize: true } as const;

export type PdfSource = { webContents: { printToPDF(options: typeof PDF_OPTIONS): Promise<Uint8Array> } };

/** A file name the save dialog can offer on every platform, ending in .pdf. */
export const pdfFileName = (name: string): string => {
  // Path separators, characters Windows refuses in names, and control characters become "-".
  const safe =
    [...name]
      .map((char) => (char < " " || '\\/:*?"<>|'.includes(char) ? "-" : char))
      .join("")
      .trim() || "report";
  return /\.pdf$/i.test(safe) ? safe : `${safe}.pdf`;
};

export const saveAsPdf = async (
  name: string,
  deps: {
    window: PdfSource | null;
    /** The save dialog: the chosen path, or null when cancelled. */
    choosePath(defaultPath: string): Promise<string | null>;
    writeFile(path: string, bytes: Uint8Array): Promise<void>;
  },
): Promise<boolean> => {
  if (!deps.window) return false;
  const target = await deps.choosePath(pdfFileName(name));
  if (!target) return false;
  await deps.writeFile(target, await deps.window.webContents.printToPDF(PDF_OPTIONS));
  return true;
};
