import { describe, expect, it } from "vitest";
import { buildPrintHtml } from "./print-html";
import { buildDocumentView, type ReportDocument } from "./report-document";
import { resolveTemplateSettings, type TemplateSettingsInput } from "./template-settings";

/** What ran in Chromium (issue 25 item 5), plus quotes, backslashes and newlines for every other context. */
const EVIL = `</style><meta http-equiv=refresh content=2;url=/api/logout>"'\\\n}<script>alert(1)</script>*/{`;

const textFields = ["name", "clinicName", "clinicAddress", "clinicPhone", "footerText"] as const;
const choiceFields = ["patientInfoLayout", "signaturePosition", "primaryColor", "fontFamily", "fontSize"] as const;

function document(template: TemplateSettingsInput, text: string): ReportDocument {
  return {
    report: {
      id: 12,
      patientName: text,
      patientDob: "1950-10-27",
      examDate: "2026-11-02",
      studyType: text,
      indication: text,
      findings: text,
      impression: text,
      isFinalized: true,
      finalizedAt: "2026-11-03T09:30:00Z",
      isAmended: true,
      amendedAt: "2026-11-04T09:30:00Z",
      amendmentReason: text,
      generatedAt: "2026-11-02T10:00:00Z",
    },
    template: resolveTemplateSettings(template),
    clinic: {
      name: text,
      address: text,
      city: text,
      state: text,
      zipCode: text,
      phone: text,
      logo: { mimeType: "image/png", url: `/api/files/1?x="${text}` },
    },
    physician: {
      name: text,
      title: text,
      specialty: text,
      signature: { mimeType: "image/png", url: `/sig"${text}` },
    },
    signedBy: text,
    amendedBy: text,
    patientId: text,
  };
}

/** The page's markup skeleton: every tag name in order (an injected tag changes it). */
const tags = (html: string) =>
  [...html.matchAll(/<\/?([a-zA-Z][\w-]*)/g)].map((m) => m[0]).filter((tag) => tag !== "<br"); // newlines are <br>
const styleOf = (html: string) => /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;

describe("the print page escapes every template field for its context", () => {
  const shown = { showFooter: true, showPatientId: true, footerText: "Footer" };
  const plain = buildPrintHtml(buildDocumentView(document(shown, "Plain")));

  it.each([...textFields, ...choiceFields])("template field %s cannot add markup or CSS", (field) => {
    const html = buildPrintHtml(buildDocumentView(document({ ...shown, [field]: EVIL }, "Plain")));
    expect(tags(html)).toEqual(tags(plain));
    expect(html).not.toMatch(/<meta http-equiv/i);
    const css = styleOf(html);
    expect(css).not.toContain("<");
    // Outside string literals, the style sheet's structure is the plain page's.
    const shape = (s: string) => s.replace(/"(?:[^"\\\n]|\\[\s\S])*"/g, '""').replace(/[^{};]/g, "");
    expect(shape(css)).toBe(shape(styleOf(plain)));
  });

  it("the footer text is a CSS string that reads back as the footer", () => {
    const html = buildPrintHtml(buildDocumentView(document({ footerText: EVIL }, "Plain")));
    const literal = /@bottom-left \{ content: ("(?:[^"\\\n]|\\[\s\S])*")/.exec(styleOf(html))![1]!;
    const decoded = literal
      .slice(1, -1)
      .replace(/\\(?:([0-9a-f]{1,6}) ?|(.))/gi, (_, hex?: string, char?: string) =>
        hex ? String.fromCodePoint(Number.parseInt(hex, 16)) : char!,
      );
    expect(decoded).toBe(EVIL.replace(/\n/g, " "));
  });

  it("report, clinic, physician and patient text cannot add markup either", () => {
    const html = buildPrintHtml(buildDocumentView(document(shown, EVIL)));
    // The same text without angle brackets gives the same lines and paragraphs, so the same skeleton.
    const harmless = buildPrintHtml(buildDocumentView(document(shown, EVIL.replace(/[<>]/g, ""))));
    expect(tags(html)).toEqual(tags(harmless));
    expect(html).not.toMatch(/<meta http-equiv|<script>alert/i);
    // Attribute values stay closed: every src=" and alt=" ends at its own quote.
    for (const m of html.matchAll(/ (src|alt|aria-label|data-section)="([^"]*)"/g)) expect(m[2]).not.toContain("<");
  });
});
