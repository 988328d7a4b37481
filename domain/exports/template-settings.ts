/**
 * How a report template shapes an exported document, with the spec's fallbacks (part 1, section 9:
 * Arial, 12px, #0066cc, signature on the right; every flag shown unless it is false).
 * Pure: the server's renderers and the web's print window resolve templates the same way.
 */

export const exportLayouts = ["grid", "list", "compact"] as const;
export const exportSignaturePositions = ["left", "center", "right"] as const;
export const exportFontFamilies = ["Arial", "Times New Roman", "Helvetica", "Calibri"] as const;

export type ExportLayout = (typeof exportLayouts)[number];
export type ExportSignaturePosition = (typeof exportSignaturePositions)[number];
export type ExportFontFamily = (typeof exportFontFamilies)[number];

/** A template as stored or as the API returns it; anything missing or unknown takes the fallback. */
export type TemplateSettingsInput = {
  name?: string | null;
  showHeader?: boolean | null;
  clinicName?: string | null;
  clinicAddress?: string | null;
  clinicPhone?: string | null;
  showLogo?: boolean | null;
  patientInfoLayout?: string | null;
  showPatientId?: boolean | null;
  showStudyType?: boolean | null;
  showIndication?: boolean | null;
  showFindings?: boolean | null;
  showImpression?: boolean | null;
  showFooter?: boolean | null;
  footerText?: string | null;
  showReportId?: boolean | null;
  showGenerationDate?: boolean | null;
  showSignature?: boolean | null;
  signaturePosition?: string | null;
  primaryColor?: string | null;
  fontFamily?: string | null;
  fontSize?: string | null;
};

export type TemplateSettings = {
  name: string;
  showHeader: boolean;
  /** Overrides of the clinic's own details; null means "use the clinic's". */
  clinicName: string | null;
  clinicAddress: string | null;
  clinicPhone: string | null;
  showLogo: boolean;
  patientInfoLayout: ExportLayout;
  showPatientId: boolean;
  showStudyType: boolean;
  showIndication: boolean;
  showFindings: boolean;
  showImpression: boolean;
  showFooter: boolean;
  footerText: string | null;
  showReportId: boolean;
  showGenerationDate: boolean;
  showSignature: boolean;
  signaturePosition: ExportSignaturePosition;
  /** #rrggbb, lower case. */
  primaryColor: string;
  fontFamily: ExportFontFamily;
  /** The template's size token as chosen ("12px"). */
  fontSizeToken: string;
  /** Body text size in points on paper (see docs/decisions/003-export-read-model.md). */
  fontSizePt: number;
};

export const DEFAULT_TEMPLATE_NAME = "Standard Report";

/** The spec's fallbacks when a report has no template and the clinic has no default one. */
export const templateFallback: TemplateSettings = {
  name: DEFAULT_TEMPLATE_NAME,
  showHeader: true,
  clinicName: null,
  clinicAddress: null,
  clinicPhone: null,
  showLogo: true,
  patientInfoLayout: "grid",
  showPatientId: false,
  showStudyType: true,
  showIndication: true,
  showFindings: true,
  showImpression: true,
  showFooter: true,
  footerText: null,
  showReportId: true,
  showGenerationDate: true,
  showSignature: true,
  signaturePosition: "right",
  primaryColor: "#0066cc",
  fontFamily: "Arial",
  fontSizeToken: "12px",
  fontSizePt: 12,
};

const oneOf = <T extends string>(list: readonly T[], value: string | null | undefined, fallback: T): T =>
  list.includes(value as T) ? (value as T) : fallback;

/** "#0066CC" and "#06c" become "#0066cc"; anything else is not a colour we can print. */
export function normalizeColor(value: string | null | undefined): string | null {
  const text = value?.trim().toLowerCase() ?? "";
  if (/^#[0-9a-f]{6}$/.test(text)) return text;
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/.exec(text);
  return short ? `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}` : null;
}

/**
 * The template's size token read as points on paper, kept within what stays legible and fits a page:
 * the template offers 10 to 16; anything outside 8 to 20 or unreadable falls back to 12.
 */
export function fontSizePoints(token: string | null | undefined): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(px|pt)?\s*$/.exec(token ?? "");
  const size = match ? Number(match[1]) : Number.NaN;
  return size >= 8 && size <= 20 ? size : templateFallback.fontSizePt;
}

const text = (value: string | null | undefined): string | null => value?.trim() || null;

/** A template (or none) resolved to complete settings: show flags are on unless false, choices fall back. */
export function resolveTemplateSettings(input: TemplateSettingsInput | null | undefined): TemplateSettings {
  if (!input) return { ...templateFallback };
  const shown = (flag: boolean | null | undefined) => flag !== false;
  const fontSizePt = fontSizePoints(input.fontSize);
  return {
    name: text(input.name) ?? DEFAULT_TEMPLATE_NAME,
    showHeader: shown(input.showHeader),
    clinicName: text(input.clinicName),
    clinicAddress: text(input.clinicAddress),
    clinicPhone: text(input.clinicPhone),
    showLogo: shown(input.showLogo),
    patientInfoLayout: oneOf(exportLayouts, input.patientInfoLayout, templateFallback.patientInfoLayout),
    // The one flag that is off unless asked for (spec part 2: showPatientId defaults to false).
    showPatientId: input.showPatientId === true,
    showStudyType: shown(input.showStudyType),
    showIndication: shown(input.showIndication),
    showFindings: shown(input.showFindings),
    showImpression: shown(input.showImpression),
    showFooter: shown(input.showFooter),
    footerText: text(input.footerText),
    showReportId: shown(input.showReportId),
    showGenerationDate: shown(input.showGenerationDate),
    showSignature: shown(input.showSignature),
    signaturePosition: oneOf(exportSignaturePositions, input.signaturePosition, templateFallback.signaturePosition),
    primaryColor: normalizeColor(input.primaryColor) ?? templateFallback.primaryColor,
    fontFamily: oneOf(exportFontFamilies, input.fontFamily, templateFallback.fontFamily),
    fontSizeToken: input.fontSize?.trim() || templateFallback.fontSizeToken,
    fontSizePt,
  };
}

/** CSS font stacks: the template's face first, then the metric-compatible faces Linux and macOS have. */
export const cssFontStacks: Record<ExportFontFamily, string> = {
  Arial: 'Arial, "Liberation Sans", Helvetica, sans-serif',
  Helvetica: 'Helvetica, "Liberation Sans", Arial, sans-serif',
  "Times New Roman": '"Times New Roman", "Liberation Serif", Times, serif',
  Calibri: 'Calibri, Carlito, "Liberation Sans", Arial, sans-serif',
};
