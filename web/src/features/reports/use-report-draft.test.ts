import { describe, expect, it } from "vitest";
import type { Report } from "../../../../domain/contracts/reports";
import type { ReportTemplate } from "../../../../domain/contracts/templates";
import { formOf } from "./report-api";
import { isDraftDirty } from "./use-report-draft";

const report = {
  id: 7,
  patientName: "Ada Byron",
  patientDob: "1950-01-02",
  examDate: null,
  studyType: "Carotid Duplex",
  indication: "Bruit",
  findings: "Normal",
  impression: "No stenosis",
  templateId: null,
} as Report;
const templates = [{ id: 3, name: "Clinic default", isDefault: true }] as ReportTemplate[];
const untouched = { form: formOf(report), templateId: undefined, finalize: false };

describe("unsaved edits of the editor", () => {
  it("is clean as loaded, even when the template list arrives later", () => {
    expect(isDraftDirty(untouched, report, undefined)).toBe(false);
    expect(isDraftDirty(untouched, report, templates)).toBe(false);
  });

  it("counts a changed field, a different template and a ticked finalize box", () => {
    expect(isDraftDirty({ ...untouched, form: { ...untouched.form, findings: "Normal." } }, report, templates)).toBe(
      true,
    );
    expect(isDraftDirty({ ...untouched, templateId: "" }, report, templates)).toBe(true);
    expect(isDraftDirty({ ...untouched, templateId: "3" }, report, templates)).toBe(false);
    expect(isDraftDirty({ ...untouched, finalize: true }, report, templates)).toBe(true);
  });

  it("is clean again when a field is typed back to its saved text", () => {
    expect(isDraftDirty({ ...untouched, form: { ...untouched.form, findings: "Normal" } }, report, templates)).toBe(
      false,
    );
  });
});
