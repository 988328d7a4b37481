import {
  AlignmentType,
  BorderStyle,
  Document,
  Footer,
  Header,
  HorizontalPositionAlign,
  HorizontalPositionRelativeFrom,
  ImageRun,
  Packer,
  PageNumber,
  Paragraph,
  ShadingType,
  Table,
  TableCell,
  TableLayoutType,
  TableRow,
  TabStopType,
  TextRun,
  TextWrappingType,
  VerticalAlignTable,
  VerticalPositionAlign,
  VerticalPositionRelativeFrom,
  WidthType,
} from "docx";
import type { DocumentImage, DocumentView } from "../../../domain/exports/report-document";
import { draftWatermarkPng } from "./draft-watermark";
import { zipPackage } from "./zip-package";

/**
 * The report as a Word document (docx), from the same view as the print page and the PDF. Word and
 * LibreOffice open it; the DRAFT mark is a picture behind the text anchored in the page header, which
 * is how Word's own watermarks repeat on every page.
 */

const TWIP = 20; // per point
const PAGE = { width: 12240, height: 15840 }; // US Letter in twips
const MARGIN = { top: 1008, bottom: 1152, left: 1080, right: 1080, header: 500, footer: 500 };
const CONTENT = PAGE.width - MARGIN.left - MARGIN.right;
const TEXT = "1F2937";
const MUTED = "4B5563";
const FAINT = "6B7280";
const NONE = { style: BorderStyle.NONE, size: 0, color: "FFFFFF" };
const NO_BORDERS = { top: NONE, bottom: NONE, left: NONE, right: NONE, insideHorizontal: NONE, insideVertical: NONE };

type Ctx = { color: string; half: number; view: DocumentView };

const hex = (color: string) => color.replace("#", "").toUpperCase();
const half = (ctx: Ctx, factor: number) => Math.round(ctx.half * factor);

/** A text with line breaks as runs (Word needs explicit breaks inside a paragraph). */
function runs(text: string, options: Omit<ConstructorParameters<typeof TextRun>[0] & object, "text"> = {}) {
  return text.split("\n").map((line, i) => new TextRun({ ...options, text: line, break: i > 0 ? 1 : undefined }));
}

function picture(image: DocumentImage, maxWidthPt: number, maxHeightPt: number): ImageRun | null {
  if (!image.data) return null;
  const ratio = image.width && image.height ? image.width / image.height : maxWidthPt / maxHeightPt;
  let width = Math.min(maxWidthPt, maxHeightPt * ratio);
  let height = width / ratio;
  if (height > maxHeightPt) {
    height = maxHeightPt;
    width = height * ratio;
  }
  // docx sizes pictures in CSS pixels (96 per inch); the limits above are points (72 per inch).
  const px = (pt: number) => Math.round((pt * 96) / 72);
  return new ImageRun({
    type: image.mimeType === "image/jpeg" ? "jpg" : "png",
    data: image.data,
    transformation: { width: px(width), height: px(height) },
  });
}

function letterhead(ctx: Ctx): (Paragraph | Table)[] {
  const head = ctx.view.letterhead;
  if (!head) return [];
  const logo = head.logo ? picture(head.logo, 160, 62) : null;
  const right = (text: string, size: number, color: string, bold = false) =>
    new Paragraph({ alignment: AlignmentType.RIGHT, children: [new TextRun({ text, size, color, bold })] });
  const details = [
    right(head.clinicName, half(ctx, 1.5), hex(ctx.color), true),
    ...head.addressLines.map((line) => right(line, half(ctx, 0.82), MUTED)),
    ...(head.phone ? [right(`Phone: ${head.phone}`, half(ctx, 0.82), MUTED)] : []),
  ];
  const logoWidth = 3400;
  const table = new Table({
    width: { size: CONTENT, type: WidthType.DXA },
    columnWidths: [logoWidth, CONTENT - logoWidth],
    layout: TableLayoutType.FIXED,
    borders: NO_BORDERS,
    rows: [
      new TableRow({
        children: [
          new TableCell({
            width: { size: logoWidth, type: WidthType.DXA },
            verticalAlign: VerticalAlignTable.CENTER,
            children: [new Paragraph({ children: logo ? [logo] : [] })],
          }),
          new TableCell({
            width: { size: CONTENT - logoWidth, type: WidthType.DXA },
            verticalAlign: VerticalAlignTable.CENTER,
            children: details,
          }),
        ],
      }),
    ],
  });
  const rule = new Paragraph({
    spacing: { before: 60, after: 200 },
    border: { bottom: { style: BorderStyle.SINGLE, size: 20, color: hex(ctx.color), space: 1 } },
    children: [],
  });
  return [table, rule];
}

function titleRow(ctx: Ctx): Paragraph {
  const title = `${ctx.view.title}${ctx.view.isDraft ? " (Draft)" : ""}`;
  const children = [new TextRun({ text: title, bold: true, allCaps: true, size: half(ctx, 1.35), color: "111827" })];
  if (ctx.view.metaLine.length) {
    children.push(
      new TextRun({ text: `\t${ctx.view.metaLine.join("  \u00b7  ")}`, size: half(ctx, 0.78), color: MUTED }),
    );
  }
  return new Paragraph({
    tabStops: [{ type: TabStopType.RIGHT, position: CONTENT }],
    spacing: { after: 120 },
    children,
  });
}

function heading(ctx: Ctx, text: string): Paragraph {
  return new Paragraph({
    keepNext: true,
    spacing: { before: 240, after: 100 },
    border: { bottom: { style: BorderStyle.SINGLE, size: 6, color: hex(ctx.color), space: 1 } },
    children: [
      new TextRun({
        text,
        bold: true,
        allCaps: true,
        characterSpacing: 14,
        size: half(ctx, 0.95),
        color: hex(ctx.color),
      }),
    ],
  });
}

function patient(ctx: Ctx): (Paragraph | Table)[] {
  const { layout, fields, heading: title } = ctx.view.patient;
  if (layout === "compact") {
    const children: TextRun[] = [];
    fields.forEach((field, i) => {
      if (i > 0) children.push(new TextRun({ text: "   |   ", color: "9CA3AF" }));
      children.push(new TextRun({ text: `${field.label.replace(/ /g, "\u00a0")}:\u00a0`, bold: true, color: MUTED }));
      children.push(new TextRun({ text: field.value }));
    });
    const line = { style: BorderStyle.SINGLE, size: 4, color: "D1D5DB", space: 4 };
    return [new Paragraph({ spacing: { before: 80, after: 120 }, border: { top: line, bottom: line }, children })];
  }
  if (layout === "list") {
    return [
      heading(ctx, title),
      ...fields.map(
        (field) =>
          new Paragraph({
            tabStops: [{ type: TabStopType.LEFT, position: 118 * TWIP }],
            spacing: { after: 40 },
            children: [
              new TextRun({ text: field.label, bold: true, color: MUTED }),
              new TextRun({ text: `\t${field.value}` }),
            ],
          }),
      ),
    ];
  }
  const light = { style: BorderStyle.SINGLE, size: 4, color: "E5E7EB" };
  const column = CONTENT / 2;
  const rows: TableRow[] = [];
  for (let i = 0; i < fields.length; i += 2) {
    const pair = fields.slice(i, i + 2);
    rows.push(
      new TableRow({
        children: [0, 1].map((c) => {
          const field = pair[c];
          return new TableCell({
            width: { size: column, type: WidthType.DXA },
            shading: { type: ShadingType.CLEAR, color: "auto", fill: "F8FAFC" },
            margins: { top: 60, bottom: 60, left: 160, right: 160 },
            children: field
              ? [
                  new Paragraph({
                    children: [
                      new TextRun({
                        text: field.label,
                        bold: true,
                        allCaps: true,
                        size: half(ctx, 0.72),
                        color: FAINT,
                      }),
                    ],
                  }),
                  new Paragraph({ children: [new TextRun({ text: field.value })] }),
                ]
              : [new Paragraph({})],
          });
        }),
      }),
    );
  }
  const table = new Table({
    width: { size: CONTENT, type: WidthType.DXA },
    columnWidths: [column, column],
    layout: TableLayoutType.FIXED,
    borders: { top: light, bottom: light, left: light, right: light, insideHorizontal: NONE, insideVertical: NONE },
    rows,
  });
  return [heading(ctx, title), table];
}

/** A boxed notice: amber for an amendment, red for a critical result. */
const noticeTones = {
  amber: { fill: "FFFBEB", border: "D97706", heading: "92400E" },
  red: { fill: "FEF2F2", border: "B91C1C", heading: "991B1B" },
} as const;

function amendment(ctx: Ctx): Paragraph[] {
  return notice(ctx, ctx.view.amendment, "amber");
}

function critical(ctx: Ctx): Paragraph[] {
  return notice(ctx, ctx.view.critical, "red");
}

function notice(
  ctx: Ctx,
  notice: { heading: string; lines: string[] } | null,
  toneName: keyof typeof noticeTones,
): Paragraph[] {
  if (!notice) return [];
  const tone = noticeTones[toneName];
  const box = {
    shading: { type: ShadingType.CLEAR, color: "auto", fill: tone.fill },
    border: { left: { style: BorderStyle.SINGLE, size: 36, color: tone.border, space: 6 } },
    indent: { left: 120 },
  };
  return [
    new Paragraph({
      ...box,
      spacing: { before: 200 },
      keepNext: true,
      children: [new TextRun({ text: notice.heading, bold: true, allCaps: true, color: tone.heading })],
    }),
    ...notice.lines.map(
      (line, i) =>
        new Paragraph({
          ...box,
          spacing: { after: i === notice.lines.length - 1 ? 120 : 0 },
          children: runs(line, { size: half(ctx, 0.92) }),
        }),
    ),
  ];
}

function sections(ctx: Ctx): Paragraph[] {
  return ctx.view.sections.flatMap((section) => [
    heading(ctx, section.heading),
    ...(section.paragraphs.length ? section.paragraphs : ["None."]).map(
      (p) => new Paragraph({ spacing: { after: 100, line: 276 }, children: runs(p) }),
    ),
  ]);
}

function signature(ctx: Ctx): (Paragraph | Table)[] {
  const sig = ctx.view.signature;
  if (!sig) return [];
  const align = sig.position === "center" ? AlignmentType.CENTER : AlignmentType.LEFT;
  const image = sig.image ? picture(sig.image, 170, 56) : null;
  const line = (text: string, options: { bold?: boolean; italics?: boolean; size?: number; color?: string }) =>
    new Paragraph({ alignment: align, keepNext: true, children: [new TextRun({ text, ...options })] });
  const rule = { style: BorderStyle.SINGLE, size: 6, color: "374151", space: 2 };
  const children: Paragraph[] = [
    new Paragraph({
      alignment: align,
      keepNext: true,
      spacing: { before: image ? 0 : 480 },
      children: image ? [image] : [],
    }),
    new Paragraph({
      alignment: align,
      keepNext: true,
      border: { top: rule },
      children: sig.name ? [new TextRun({ text: sig.name, bold: true })] : [],
    }),
  ];
  if (sig.title) children.push(line(sig.title, { color: MUTED, size: half(ctx, 0.92) }));
  if (sig.specialty) children.push(line(sig.specialty, { color: MUTED, size: half(ctx, 0.92) }));
  if (sig.signedLine) children.push(line(sig.signedLine, { italics: true, size: half(ctx, 0.8), color: "374151" }));
  if (sig.pendingLine) children.push(line(sig.pendingLine, { bold: true, size: half(ctx, 0.8), color: "B91C1C" }));
  const width = 236 * TWIP;
  const position =
    sig.position === "left"
      ? AlignmentType.LEFT
      : sig.position === "center"
        ? AlignmentType.CENTER
        : AlignmentType.RIGHT;
  return [
    new Paragraph({ spacing: { before: 360 }, keepNext: true, children: [] }),
    new Table({
      width: { size: width, type: WidthType.DXA },
      columnWidths: [width],
      layout: TableLayoutType.FIXED,
      alignment: position,
      borders: NO_BORDERS,
      rows: [
        new TableRow({
          cantSplit: true,
          children: [new TableCell({ width: { size: width, type: WidthType.DXA }, children })],
        }),
      ],
    }),
  ];
}

async function pageHeader(ctx: Ctx): Promise<Header> {
  if (!ctx.view.watermark) return new Header({ children: [new Paragraph({})] });
  const png = await draftWatermarkPng(ctx.view.watermark);
  const mark = new ImageRun({
    type: "png",
    data: png.data,
    transformation: { width: png.width, height: png.height },
    floating: {
      horizontalPosition: { relative: HorizontalPositionRelativeFrom.PAGE, align: HorizontalPositionAlign.CENTER },
      verticalPosition: { relative: VerticalPositionRelativeFrom.PAGE, align: VerticalPositionAlign.CENTER },
      behindDocument: true,
      allowOverlap: true,
      wrap: { type: TextWrappingType.NONE },
    },
  });
  return new Header({ children: [new Paragraph({ children: [mark] })] });
}

function pageFooter(ctx: Ctx): Footer {
  const text = ctx.view.footer.text?.replace(/\s*\n\s*/g, "  ") ?? "";
  return new Footer({
    children: [
      new Paragraph({
        tabStops: [{ type: TabStopType.RIGHT, position: CONTENT }],
        border: { top: { style: BorderStyle.SINGLE, size: 4, color: "D1D5DB", space: 4 } },
        children: [
          new TextRun({ text, size: 16, color: FAINT }),
          new TextRun({
            children: ["\tPage ", PageNumber.CURRENT, " of ", PageNumber.TOTAL_PAGES],
            size: 16,
            color: FAINT,
          }),
        ],
      }),
    ],
  });
}

/** docx's compiler, which Packer keeps as a static (its types do not name it): the package's parts by path. */
const packageCompiler = (
  Packer as unknown as {
    compiler: { compile(file: Document, prettify: undefined, overrides: []): Map<string, string | Uint8Array> };
  }
).compiler;

/** Renders the DOCX and resolves with its bytes. */
export async function renderDocx(view: DocumentView): Promise<Buffer> {
  const ctx: Ctx = { view, color: view.primaryColor, half: Math.round(view.fontSizePt * 2) };
  const document = new Document({
    creator: "Sonoscribe",
    title: view.documentTitle,
    styles: { default: { document: { run: { font: view.fontFamily, size: ctx.half, color: TEXT } } } },
    sections: [
      {
        properties: { page: { size: PAGE, margin: MARGIN } },
        headers: { default: await pageHeader(ctx) },
        footers: { default: pageFooter(ctx) },
        children: [
          ...letterhead(ctx),
          titleRow(ctx),
          ...patient(ctx),
          ...amendment(ctx),
          ...critical(ctx),
          ...sections(ctx),
          ...signature(ctx),
        ],
      },
    ],
  });
  // docx's own compiler writes the parts; Node's zlib zips them (zip-package.ts: fflate's JavaScript DEFLATE cost more).
  return zipPackage(packageCompiler.compile(document, undefined, []));
}
