import { describe, expect, it } from "vitest";
import {
  LEGEND_TITLE_REQUIRED,
  legendEntryForm,
  MEDICAL_MEANING_REQUIRED,
  reportTemplateDefaults,
  reportTemplateForm,
  TEMPLATE_NAME_REQUIRED,
  WORKSHEET_TEMPLATE_REQUIRED,
  worksheetTemplateForm,
} from "./templates";

const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((issue) => issue.message) ?? [];

describe("the template dialogs' form contracts", () => {
  it("report template: the defaults pass once named; a blank name is refused with the service's text", () => {
    expect(reportTemplateForm.safeParse({ ...reportTemplateDefaults, name: "Standard" }).success).toBe(true);
    expect(messages(reportTemplateForm.safeParse({ ...reportTemplateDefaults, name: "   " }))).toEqual([
      TEMPLATE_NAME_REQUIRED,
    ]);
  });

  it("worksheet template: a missing name or file gets the spec's one sentence", () => {
    const base = { name: "Lower Limb Venous", description: "", category: "vascular" };
    expect(worksheetTemplateForm.safeParse({ ...base, worksheetFile: new Blob(["x"]) }).success).toBe(true);
    expect(messages(worksheetTemplateForm.safeParse({ ...base, worksheetFile: undefined }))).toEqual([
      WORKSHEET_TEMPLATE_REQUIRED,
    ]);
    expect(messages(worksheetTemplateForm.safeParse(base))).toEqual([WORKSHEET_TEMPLATE_REQUIRED]);
    expect(messages(worksheetTemplateForm.safeParse({ ...base, name: " ", worksheetFile: new Blob(["x"]) }))).toEqual([
      WORKSHEET_TEMPLATE_REQUIRED,
    ]);
  });

  it("legend entry: title and medical meaning are required with the server's texts", () => {
    const entry = {
      title: " ",
      medicalMeaning: "",
      description: "",
      category: "vascular",
      keywords: "",
      isActive: true,
      imageType: "upload",
    };
    expect(messages(legendEntryForm.safeParse(entry))).toEqual([LEGEND_TITLE_REQUIRED, MEDICAL_MEANING_REQUIRED]);
    expect(legendEntryForm.parse({ ...entry, title: " Cross-hatching ", medicalMeaning: "Thrombus" }).title).toBe(
      "Cross-hatching",
    );
  });
});
