import PDFDocument from "pdfkit";
import type { DocumentImage, DocumentView } from "../../../domain/exports/report-document";
import { pdfFaces } from "./pdf-fonts";
import { cachedPdfImage } from "./pdf-images";

/** The colours of a boxed notice: amber for an amendment, red for a critical result. */
type NoticeTone = { fill: string; border: string; heading: string };
const AMBER: NoticeTone = { fill: "#fffbeb", border: "#d97706", heading: "#92400e" };
const RED: NoticeTone = { fill: "#fef2f2", border: "#b91c1c", heading: "#991b1b" };

/**
 * The report as a real PDF (pdfkit), drawn from the same view as the print page: a letterhead with the
 * logo on the left and the clinic's details on the right over a rule in the template colour, then the
 * patient block, amendment notice, sections and signature, with footer text, "Page x of y" and the
 * DRAFT mark on every page. Sizes are in points on US Letter.
 */

const PAGE = { width: 612, height: 792 };
const MARGIN = { top: 50, bottom: 64, left: 54, right: 54 };
const CONTENT_WIDTH = PAGE.width - MARGIN.left - MARGIN.right;
const TEXT = "#1f2937";
const MUTED = "#4b5563";
const FAINT = "#6b7280";

type Doc = PDFKit.PDFDocument;

class PdfWriter {
  readonly doc: Doc;
  private readonly size: number;
  private readonly color: string;
  /** The view's images as embedded once per thread (pdf-images.ts), set by `prepareImages` before drawing. */
  private readonly images = new Map<DocumentImage, Awaited<ReturnType<typeof cachedPdfImage>>>();

  constructor(
    private readonly view: DocumentView,
    options: PdfOptions = {},
  ) {
    this.size = view.fontSizePt;
    this.color = view.primaryColor;
    const faces = pdfFaces(view.fontFamily);
    // PDF/A embeds every font: the built-in Helvetica/Times fallback (no Liberation on the machine) cannot be.
    if (options.pdfa && [faces.regular, faces.bold, faces.italic].some((f) => typeof f === "string")) {
      throw new Error("PDF/A needs the Liberation fonts installed (fonts-liberation): they are embedded in the file");
    }
    this.doc = new PDFDocument({
      size: "LETTER",
      margins: MARGIN,
      bufferPages: true,
      info: { Title: view.documentTitle, Subject: view.title, Creator: "Sonoscribe" },
      pdfVersion: "1.7",
      // PDF/A-2b: XMP metadata with pdfaid part 2 / conformance B and an sRGB output intent (pdfkit's own ICC
      // profile, sRGB IEC61966-2.1). Part 2, not 1: the DRAFT mark and the images use transparency.
      ...(options.pdfa ? { subset: "PDF/A-2b" as const, lang: "en" } : {}),
    });
    // pdfkit takes a parsed font as it is (its types name only files and names).
    this.doc.registerFont("body", faces.regular as string);
    this.doc.registerFont("bold", faces.bold as string);
    this.doc.registerFont("italic", faces.italic as string);
  }

  async prepareImages(): Promise<void> {
    for (const image of [this.view.letterhead?.logo, this.view.signature?.image]) {
      if (image?.data && !this.images.has(image)) this.images.set(image, await cachedPdfImage(this.doc, image.data));
    }
  }

  private get bottom() {
    return PAGE.height - MARGIN.bottom;
  }

  /** Starts a new page when fewer than `height` points are left, so a block is not split badly. */
  private ensureSpace(height: number) {
    if (this.doc.y + height > this.bottom) this.doc.addPage();
  }

  private font(name: "body" | "bold" | "italic", size: number, color = TEXT) {
    return this.doc.font(name).fontSize(size).fillColor(color);
  }

  private image(image: DocumentImage, x: number, y: number, maxWidth: number, maxHeight: number, align: string) {
    const embedded = this.images.get(image);
    if (!embedded) return 0;
    const ratio = image.width && image.height ? image.width / image.height : maxWidth / maxHeight;
    let width = Math.min(maxWidth, maxHeight * ratio);
    let height = width / ratio;
    if (height > maxHeight) {
      height = maxHeight;
      width = height * ratio;
    }
    const left = align === "right" ? x + maxWidth - width : align === "center" ? x + (maxWidth - width) / 2 : x;
    // pdfkit's types name only file names and buffers; it takes an image object with a size as it is.
    this.doc.image(embedded as unknown as Buffer, left, y, { width, height });
    return height;
  }

  letterhead() {
    const head = this.view.letterhead;
    const top = MARGIN.top;
    if (!head) {
      this.doc.y = top;
      return;
    }
    const logoWidth = 160;
    const logoHeight = head.logo ? this.image(head.logo, MARGIN.left, top, logoWidth, 62, "left") : 0;
    const textX = MARGIN.left + logoWidth + 16;
    const textWidth = CONTENT_WIDTH - logoWidth - 16;
    this.font("bold", this.size * 1.5, this.color).text(head.clinicName, textX, top, {
      width: textWidth,
      align: "right",
    });
    this.font("body", this.size * 0.82, MUTED);
    for (const line of head.addressLines) this.doc.text(line, textX, this.doc.y, { width: textWidth, align: "right" });
    if (head.phone) this.doc.text(`Phone: ${head.phone}`, textX, this.doc.y, { width: textWidth, align: "right" });
    const ruleY = Math.max(top + logoHeight, this.doc.y) + 8;
    this.doc
      .save()
      .lineWidth(2.5)
      .strokeColor(this.color)
      .moveTo(MARGIN.left, ruleY)
      .lineTo(PAGE.width - MARGIN.right, ruleY)
      .stroke()
      .restore();
    this.doc.y = ruleY + 14;
  }

  titleRow() {
    const y = this.doc.y;
    const title = `${this.view.title}${this.view.isDraft ? " (Draft)" : ""}`.toUpperCase();
    this.font("bold", this.size * 1.35, "#111827").text(title, MARGIN.left, y, {
      width: CONTENT_WIDTH * 0.6,
      characterSpacing: 0.6,
    });
    const afterTitle = this.doc.y;
    if (this.view.metaLine.length) {
      this.font("body", this.size * 0.78, MUTED).text(
        this.view.metaLine.join("  \u00b7  "),
        MARGIN.left + CONTENT_WIDTH * 0.45,
        y + 3,
        {
          width: CONTENT_WIDTH * 0.55,
          align: "right",
        },
      );
    }
    this.doc.y = Math.max(afterTitle, this.doc.y) + 8;
  }

  heading(text: string) {
    this.ensureSpace(this.size * 4);
    this.doc.y += this.size * 0.6;
    this.font("bold", this.size * 0.95, this.color).text(text.toUpperCase(), MARGIN.left, this.doc.y, {
      width: CONTENT_WIDTH,
      characterSpacing: 0.7,
    });
    const ruleY = this.doc.y + 1;
    this.doc
      .save()
      .lineWidth(0.75)
      .strokeColor(this.color)
      .moveTo(MARGIN.left, ruleY)
      .lineTo(PAGE.width - MARGIN.right, ruleY)
      .stroke()
      .restore();
    this.doc.y = ruleY + 5;
  }

  patient() {
    const { layout, fields, heading } = this.view.patient;
    const small = this.size * 0.72;
    if (layout === "compact") {
      this.ensureSpace(this.size * 3);
      const top = this.doc.y + 2;
      this.doc
        .save()
        .lineWidth(0.5)
        .strokeColor("#d1d5db")
        .moveTo(MARGIN.left, top)
        .lineTo(PAGE.width - MARGIN.right, top)
        .stroke()
        .restore();
      this.doc.x = MARGIN.left;
      this.doc.y = top + 5;
      fields.forEach((field, i) => {
        const last = i === fields.length - 1;
        // Non-breaking spaces keep a label on one line ("Study Type:" never splits).
        const label = `${field.label.replace(/ /g, "\u00a0")}:\u00a0`;
        this.font("bold", this.size, MUTED).text(label, { continued: true, width: CONTENT_WIDTH });
        this.font("body", this.size, TEXT).text(field.value, { continued: !last });
        if (!last) this.font("body", this.size, "#9ca3af").text("   |   ", { continued: true });
      });
      const end = this.doc.y + 4;
      this.doc
        .save()
        .lineWidth(0.5)
        .strokeColor("#d1d5db")
        .moveTo(MARGIN.left, end)
        .lineTo(PAGE.width - MARGIN.right, end)
        .stroke()
        .restore();
      this.doc.y = end + 4;
      return;
    }
    this.heading(heading);
    if (layout === "list") {
      const labelWidth = 118;
      for (const field of fields) {
        const y = this.doc.y;
        this.font("bold", this.size, MUTED).text(field.label, MARGIN.left, y, { width: labelWidth });
        this.font("body", this.size, TEXT).text(field.value, MARGIN.left + labelWidth, y, {
          width: CONTENT_WIDTH - labelWidth,
        });
        this.doc.y = Math.max(this.doc.y, y + this.size * 1.2) + 2;
      }
      return;
    }
    // Grid: two columns of label-over-value cells on a light panel.
    const pad = 9;
    const colWidth = (CONTENT_WIDTH - pad * 2 - 20) / 2;
    const rows: (typeof fields)[] = [];
    for (let i = 0; i < fields.length; i += 2) rows.push(fields.slice(i, i + 2));
    this.font("body", this.size, TEXT);
    const heights = rows.map(
      (row) => Math.max(...row.map((f) => this.doc.heightOfString(f.value, { width: colWidth }))) + small * 1.3 + 5,
    );
    const total = heights.reduce((a, b) => a + b, 0) + pad * 2 - 5;
    this.ensureSpace(total);
    const top = this.doc.y + 2;
    this.doc.save().rect(MARGIN.left, top, CONTENT_WIDTH, total).fillAndStroke("#f8fafc", "#e5e7eb").restore();
    let y = top + pad;
    rows.forEach((row, r) => {
      row.forEach((field, c) => {
        const x = MARGIN.left + pad + c * (colWidth + 20);
        this.font("bold", small, FAINT).text(field.label.toUpperCase(), x, y, {
          width: colWidth,
          characterSpacing: 0.4,
        });
        this.font("body", this.size, TEXT).text(field.value, x, this.doc.y + 1, { width: colWidth });
      });
      y += heights[r]!;
    });
    this.doc.x = MARGIN.left;
    this.doc.y = top + total + 4;
  }

  amendment() {
    this.notice(this.view.amendment, AMBER);
  }

  critical() {
    this.notice(this.view.critical, RED);
  }

  notice(notice: { heading: string; lines: string[] } | null, tone: NoticeTone) {
    if (!notice) return;
    const pad = 8;
    const width = CONTENT_WIDTH - pad * 2 - 5;
    this.font("body", this.size * 0.92);
    const bodyHeight = notice.lines.reduce((h, line) => h + this.doc.heightOfString(line, { width }), 0);
    const height = bodyHeight + this.size * 1.3 + pad * 2;
    this.doc.y += 8;
    this.ensureSpace(height);
    const top = this.doc.y;
    this.doc.save().rect(MARGIN.left, top, CONTENT_WIDTH, height).fillAndStroke(tone.fill, tone.border).restore();
    this.doc.save().rect(MARGIN.left, top, 5, height).fill(tone.border).restore();
    this.font("bold", this.size, tone.heading).text(notice.heading.toUpperCase(), MARGIN.left + pad + 5, top + pad, {
      width,
    });
    this.font("body", this.size * 0.92, TEXT);
    for (const line of notice.lines) this.doc.text(line, MARGIN.left + pad + 5, this.doc.y, { width });
    this.doc.y = top + height + 4;
  }

  sections() {
    for (const section of this.view.sections) {
      this.heading(section.heading);
      this.font("body", this.size, TEXT);
      const paragraphs = section.paragraphs.length ? section.paragraphs : ["None."];
      for (const paragraph of paragraphs) {
        this.doc.text(paragraph, MARGIN.left, this.doc.y, { width: CONTENT_WIDTH, lineGap: this.size * 0.25 });
        this.doc.y += this.size * 0.45;
      }
    }
  }

  signature() {
    const sig = this.view.signature;
    if (!sig) return;
    const blockWidth = 236;
    const x =
      sig.position === "left"
        ? MARGIN.left
        : sig.position === "center"
          ? MARGIN.left + (CONTENT_WIDTH - blockWidth) / 2
          : PAGE.width - MARGIN.right - blockWidth;
    // The block sits left, centred or right; inside it, text reads from the left except when centred.
    const align = sig.position === "center" ? "center" : "left";
    type Line = { text: string; font: "body" | "bold" | "italic"; size: number; color: string; gap?: number };
    const lines: Line[] = [];
    if (sig.name) lines.push({ text: sig.name, font: "bold", size: this.size, color: TEXT });
    if (sig.title) lines.push({ text: sig.title, font: "body", size: this.size * 0.92, color: MUTED });
    if (sig.specialty) lines.push({ text: sig.specialty, font: "body", size: this.size * 0.92, color: MUTED });
    if (sig.signedLine)
      lines.push({ text: sig.signedLine, font: "italic", size: this.size * 0.8, color: "#374151", gap: 4 });
    if (sig.pendingLine)
      lines.push({ text: sig.pendingLine, font: "bold", size: this.size * 0.8, color: "#b91c1c", gap: 4 });
    // Measured, not guessed: the whole block moves to the next page rather than splitting.
    const textHeight = lines.reduce(
      (h, l) => h + (l.gap ?? 0) + this.font(l.font, l.size).heightOfString(l.text, { width: blockWidth, align }),
      0,
    );
    this.doc.y += 22;
    this.ensureSpace((sig.image ? 60 : 30) + 4 + textHeight + 6);
    let y = this.doc.y;
    if (sig.image) {
      const imageX = align === "center" ? x + (blockWidth - 170) / 2 : x;
      y += this.image(sig.image, imageX, y, 170, 56, align) + 4;
    } else y += 30;
    this.doc
      .save()
      .lineWidth(0.75)
      .strokeColor("#374151")
      .moveTo(x, y)
      .lineTo(x + blockWidth, y)
      .stroke()
      .restore();
    this.doc.y = y + 4;
    for (const l of lines) {
      this.doc.y += l.gap ?? 0;
      this.font(l.font, l.size, l.color).text(l.text, x, this.doc.y, { width: blockWidth, align });
    }
  }

  /** Page furniture drawn once the page count is known. */
  pageFurniture() {
    const range = this.doc.bufferedPageRange();
    for (let i = range.start; i < range.start + range.count; i++) {
      this.doc.switchToPage(i);
      // Writing into the bottom margin must not trigger pdfkit's automatic page break.
      const savedBottom = this.doc.page.margins.bottom;
      this.doc.page.margins.bottom = 0;
      if (this.view.watermark) this.watermark(this.view.watermark);
      const ruleY = PAGE.height - 46;
      this.doc
        .save()
        .lineWidth(0.5)
        .strokeColor("#d1d5db")
        .moveTo(MARGIN.left, ruleY)
        .lineTo(PAGE.width - MARGIN.right, ruleY)
        .stroke()
        .restore();
      const pageText = `Page ${i - range.start + 1} of ${range.count}`;
      this.font("body", 8, FAINT).text(pageText, PAGE.width - MARGIN.right - 100, ruleY + 6, {
        width: 100,
        align: "right",
        lineBreak: false,
      });
      if (this.view.footer.text) {
        this.font("body", 8, FAINT).text(this.view.footer.text.replace(/\s*\n\s*/g, "  "), MARGIN.left, ruleY + 6, {
          width: CONTENT_WIDTH - 110,
          height: 20,
          ellipsis: true,
        });
      }
      this.doc.page.margins.bottom = savedBottom;
    }
  }

  private watermark(mark: string) {
    const size = 140;
    this.doc.save();
    this.doc.font("bold").fontSize(size).fillColor("#b91c1c").fillOpacity(0.09);
    const spacing = 8;
    const width = this.doc.widthOfString(mark, { characterSpacing: spacing });
    const cx = PAGE.width / 2;
    const cy = PAGE.height / 2;
    this.doc.rotate(-35, { origin: [cx, cy] });
    this.doc.text(mark, cx - width / 2, cy - size * 0.4, { lineBreak: false, characterSpacing: spacing });
    this.doc.restore();
  }
}

export type PdfOptions = { pdfa?: boolean };

/** Renders the PDF (PDF/A-2b with `pdfa`) and resolves with its bytes. */
export async function renderPdf(view: DocumentView, options: PdfOptions = {}): Promise<Buffer> {
  const writer = new PdfWriter(view, options);
  await writer.prepareImages();
  const { doc } = writer;
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  writer.letterhead();
  writer.titleRow();
  writer.patient();
  writer.amendment();
  writer.critical();
  writer.sections();
  writer.signature();
  writer.pageFurniture();
  doc.end();
  return done;
}
