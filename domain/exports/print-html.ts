import type { DocumentImage, DocumentView } from "./report-document";

/**
 * The printable page of a report: one self-contained HTML document (inline <style>, images as data: or
 * same-origin URLs) that passes the app's Content-Security-Policy. The server serves it at
 * GET /api/reports/:id/pdf; the web's print window writes the same markup into a new window.
 */

export type PrintHtmlOptions = {
  /** A same-origin script that wires the Print button; without it the page shows no button (the caller prints). */
  printScriptSrc?: string;
};

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/**
 * A CSS string literal inside a <style> element (the footer text in the page-margin box): everything but
 * letters, digits, space and plain punctuation becomes a hex escape, so neither the string (quotes,
 * backslashes, newlines) nor the element (`</style>`) can be closed from inside.
 */
export function cssString(text: string): string {
  const escaped = Array.from(text.replace(/\r?\n/g, " "), (c) =>
    /[A-Za-z0-9 .,:;!?()#%+\-_/@]/.test(c) || c.codePointAt(0)! > 0x9f ? c : `\\${c.codePointAt(0)!.toString(16)} `,
  ).join("");
  return `"${escaped}"`;
}

/** Values placed in CSS outside strings come from closed lists; these keep it so whatever the caller passes. */
const cssColor = (value: string) => (/^#[0-9a-f]{3}(?:[0-9a-f]{3})?$/i.test(value) ? value : "#0066cc");
const cssFontStack = (value: string) => (/^[A-Za-z0-9 ,'"-]+$/.test(value) ? value : "Arial, sans-serif");
const cssPoints = (value: number) => (Number.isFinite(value) && value >= 6 && value <= 30 ? value : 12);

const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

function base64(bytes: Uint8Array): string {
  let binary = "";
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) {
    binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  }
  return btoa(binary);
}

/** The image's src: its bytes as a data: URL (the CSP allows data: images), else its same-origin URL. */
export function imageSrc(image: DocumentImage | null | undefined): string | null {
  if (!image) return null;
  if (image.data && IMAGE_TYPES.has(image.mimeType)) return `data:${image.mimeType};base64,${base64(image.data)}`;
  if (image.url?.startsWith("/")) return image.url;
  return null;
}

const text = (value: string) => escapeHtml(value);
const multiline = (value: string) => escapeHtml(value).replace(/\n/g, "<br>");

function letterheadHtml(view: DocumentView): string {
  const head = view.letterhead;
  if (!head) return "";
  const logo = imageSrc(head.logo);
  const lines = head.addressLines.map((line) => `<div>${text(line)}</div>`).join("");
  const phone = head.phone ? `<div>Phone: ${text(head.phone)}</div>` : "";
  return `<header class="letterhead">
  <div class="logo">${logo ? `<img src="${escapeHtml(logo)}" alt="${text(head.clinicName)} logo">` : ""}</div>
  <div class="clinic"><div class="clinic-name">${text(head.clinicName)}</div>${lines}${phone}</div>
</header>`;
}

function patientHtml(view: DocumentView): string {
  const { layout, fields, heading } = view.patient;
  if (layout === "compact") {
    const items = fields
      .map((f) => `<span class="field"><span class="label">${text(f.label)}:</span> ${text(f.value)}</span>`)
      .join('<span class="sep" aria-hidden="true">|</span>');
    return `<section class="patient patient-compact" aria-label="${text(heading)}"><p>${items}</p></section>`;
  }
  const rows = fields
    .map((f) => `<div class="field"><dt>${text(f.label)}</dt><dd>${text(f.value)}</dd></div>`)
    .join("");
  return `<section class="patient patient-${escapeHtml(layout)}"><h2>${text(heading)}</h2><dl>${rows}</dl></section>`;
}

function amendmentHtml(view: DocumentView): string {
  if (!view.amendment) return "";
  const lines = view.amendment.lines.map((l) => `<p>${multiline(l)}</p>`).join("");
  return `<aside class="amendment" role="note"><strong>${text(view.amendment.heading)}</strong>${lines}</aside>`;
}

function criticalHtml(view: DocumentView): string {
  if (!view.critical) return "";
  const lines = view.critical.lines.map((l) => `<p>${multiline(l)}</p>`).join("");
  return `<aside class="critical" role="note"><strong>${text(view.critical.heading)}</strong>${lines}</aside>`;
}

function sectionsHtml(view: DocumentView): string {
  return view.sections
    .map((s) => {
      const body = s.paragraphs.length ? s.paragraphs.map((p) => `<p>${multiline(p)}</p>`).join("") : "<p>None.</p>";
      return `<section class="report-section" data-section="${escapeHtml(s.key)}"><h2>${text(s.heading)}</h2>${body}</section>`;
    })
    .join("\n");
}

function signatureHtml(view: DocumentView): string {
  const sig = view.signature;
  if (!sig) return "";
  const image = imageSrc(sig.image);
  const parts = [
    image ? `<img class="signature-image" src="${escapeHtml(image)}" alt="Signature of ${text(sig.name ?? "")}">` : "",
    '<div class="signature-rule"></div>',
    sig.name ? `<div class="signer-name">${text(sig.name)}</div>` : "",
    sig.title ? `<div>${text(sig.title)}</div>` : "",
    sig.specialty ? `<div>${text(sig.specialty)}</div>` : "",
    sig.signedLine ? `<p class="signed-line">${text(sig.signedLine)}</p>` : "",
    sig.pendingLine ? `<p class="pending-line">${text(sig.pendingLine)}</p>` : "",
  ];
  return `<section class="signature signature-${escapeHtml(sig.position)}" aria-label="Signature"><div class="signature-block">${parts.join("")}</div></section>`;
}

function styles(view: DocumentView): string {
  const c = cssColor(view.primaryColor);
  const size = cssPoints(view.fontSizePt);
  const footer = view.footer.text
    ? `@bottom-left { content: ${cssString(view.footer.text)}; font-size: 8pt; color: #555; }`
    : "";
  return `
@page { size: letter; margin: 0.7in 0.75in 0.85in;
  ${footer}
  @bottom-right { content: "Page " counter(page) " of " counter(pages); font-size: 8pt; color: #555; } }
* { box-sizing: border-box; }
html { background: #e5e7eb; }
body { margin: 0; font-family: ${cssFontStack(view.cssFontStack)}; font-size: ${size}pt; line-height: 1.45; color: #1f2937; }
.toolbar { max-width: 8.5in; margin: 16px auto 0; display: flex; gap: 12px; align-items: center; font-family: Arial, sans-serif; font-size: 14px; color: #374151; }
.toolbar button { font: inherit; padding: 6px 16px; border-radius: 6px; border: 1px solid ${c}; background: ${c}; color: #fff; cursor: pointer; }
.sheet { position: relative; max-width: 8.5in; min-height: 11in; margin: 16px auto; padding: 0.7in 0.75in; background: #fff; box-shadow: 0 1px 4px rgba(0,0,0,.15); }
.letterhead { display: flex; justify-content: space-between; align-items: center; gap: 24px; padding-bottom: 10px; border-bottom: 2.5px solid ${c}; }
.letterhead .logo img { max-width: 2in; max-height: 0.85in; display: block; }
.letterhead .clinic { text-align: right; font-size: 0.85em; color: #374151; line-height: 1.35; }
.letterhead .clinic-name { font-size: 1.5em; font-weight: bold; color: ${c}; margin-bottom: 2px; }
.title-row { display: flex; justify-content: space-between; align-items: baseline; gap: 16px; margin: 14px 0 10px; }
h1 { margin: 0; font-size: 1.45em; letter-spacing: .04em; text-transform: uppercase; color: #111827; white-space: nowrap; }
.meta { flex: 1; font-size: .8em; color: #4b5563; text-align: right; }
h2 { font-size: 1em; text-transform: uppercase; letter-spacing: .06em; color: ${c}; margin: 18px 0 6px; padding-bottom: 3px; border-bottom: 1px solid ${c}; }
.patient h2 { margin-top: 6px; }
.patient dl { margin: 0; }
.patient dt { font-weight: bold; color: #4b5563; }
.patient dd { margin: 0; }
.patient-grid dl { display: grid; grid-template-columns: 1fr 1fr; gap: 6px 24px; padding: 8px 12px; background: #f8fafc; border: 1px solid #e5e7eb; }
.patient-grid dt { font-size: .78em; text-transform: uppercase; letter-spacing: .04em; }
.patient-list .field { display: flex; gap: 12px; padding: 2px 0; }
.patient-list dt { width: 1.6in; flex: none; }
.patient-compact p { margin: 8px 0; padding: 6px 0; border-top: 1px solid #e5e7eb; border-bottom: 1px solid #e5e7eb; }
.patient-compact .label { font-weight: bold; color: #4b5563; white-space: nowrap; }
.patient-compact .sep { color: #9ca3af; margin: 0 8px; }
.amendment { margin: 14px 0; padding: 8px 12px; border: 1px solid #d97706; border-left: 5px solid #d97706; background: #fffbeb; }
.amendment p { margin: 2px 0 0; }
.critical { margin: 14px 0; padding: 8px 12px; border: 1px solid #b91c1c; border-left: 5px solid #b91c1c; background: #fef2f2; }
.critical strong { color: #991b1b; }
.critical p { margin: 2px 0 0; }
.report-section p { margin: 0 0 6px; }
.signature { display: flex; margin-top: 28px; page-break-inside: avoid; break-inside: avoid; }
.signature-left { justify-content: flex-start; }
.signature-center { justify-content: center; text-align: center; }
.signature-right { justify-content: flex-end; }
.signature-block { min-width: 2.8in; max-width: 3.4in; }
.signature-image { max-width: 2.2in; max-height: 0.75in; display: block; }
.signature-center .signature-image { margin: 0 auto; }
.signature-rule { border-top: 1px solid #374151; margin: 4px 0 4px; }
.signer-name { font-weight: bold; }
.signed-line { font-style: italic; font-size: .85em; margin: 6px 0 0; color: #374151; }
.pending-line { font-weight: bold; font-size: .85em; margin: 6px 0 0; color: #b91c1c; }
.doc-footer { margin-top: 32px; padding-top: 6px; border-top: 1px solid #d1d5db; font-size: .75em; color: #555; }
.watermark { position: fixed; top: 50%; left: 50%; transform: translate(-50%, -50%) rotate(-35deg); font-size: 130pt; font-weight: bold; letter-spacing: .1em; color: rgba(185, 28, 28, .1); pointer-events: none; z-index: 10; font-family: Arial, sans-serif; }
@media print {
  html { background: #fff; }
  .toolbar, .doc-footer { display: none; }
  .sheet { max-width: none; min-height: 0; margin: 0; padding: 0; box-shadow: none; }
  body { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}`;
}

/** The whole printable page. Every text is escaped; nothing runs inline. */
export function buildPrintHtml(view: DocumentView, options: PrintHtmlOptions = {}): string {
  const toolbar = options.printScriptSrc
    ? `<div class="toolbar"><button type="button" id="print-button">Print</button><span>Use the print button or Ctrl+P to save as PDF</span></div>`
    : "";
  const script = options.printScriptSrc ? `<script src="${escapeHtml(options.printScriptSrc)}" defer></script>` : "";
  const meta = view.metaLine.length ? `<div class="meta">${view.metaLine.map(text).join(" &middot; ")}</div>` : "";
  const watermark = view.watermark ? `<div class="watermark" aria-hidden="true">${text(view.watermark)}</div>` : "";
  const footer = view.footer.text ? `<footer class="doc-footer">${multiline(view.footer.text)}</footer>` : "";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${text(view.documentTitle)}</title>
<style>${styles(view)}</style>
${script}
</head>
<body>
${toolbar}
${watermark}
<main class="sheet">
${letterheadHtml(view)}
<div class="title-row"><h1>${text(view.title)}${view.isDraft ? " (Draft)" : ""}</h1>${meta}</div>
${patientHtml(view)}
${amendmentHtml(view)}
${criticalHtml(view)}
${sectionsHtml(view)}
${signatureHtml(view)}
${footer}
</main>
</body>
</html>`;
}
