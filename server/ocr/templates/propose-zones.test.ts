import { describe, expect, it } from "vitest";
import type { FormRules } from "./form-rules";
import { type FormText, fieldZoneId, proposeZones } from "./propose-zones";

const text = (t: string, x: number, y: number, width = 12 * t.length, height = 36): FormText => ({
  text: t,
  box: { page: 0, x, y, width, height },
});

/** A small form: a header of labels with underlines (one without), a comments box, and a 2 x 2 table grid. */
function form(): { texts: FormText[]; rules: FormRules } {
  const texts = [
    text("RIVERSIDE VASCULAR LAB", 400, 100, 600, 44),
    text("Pt Name:", 120, 300, 110),
    text("Birth Date:", 120, 400, 150),
    text("Gender:", 700, 400, 100),
    text("UR No.", 1000, 400, 90), // no underline: the space after it up to the box's edge
    text("Vessel", 120, 620, 90),
    text("Rt PSV cm/s", 500, 620, 160),
    text("Lt reflux s", 900, 620, 150),
    text("ICA Prox", 120, 690, 120),
    text("GSV Knee", 120, 750, 120),
    text("Notes:", 120, 900, 90),
  ];
  const rules: FormRules = {
    horizontal: [
      { at: 334, from: 240, to: 1400 }, // name's underline
      { at: 434, from: 280, to: 650 }, // birth date's
      { at: 434, from: 810, to: 950 }, // gender's
      // table grid: header top, header bottom, two rows
      { at: 600, from: 100, to: 1300 },
      { at: 670, from: 100, to: 1300 },
      { at: 730, from: 100, to: 1300 },
      { at: 790, from: 100, to: 1300 },
      // comments lines
      { at: 990, from: 100, to: 1500 },
      { at: 1050, from: 100, to: 1500 },
    ],
    vertical: [
      { at: 100, from: 600, to: 790 },
      { at: 460, from: 600, to: 790 },
      { at: 860, from: 600, to: 790 },
      { at: 1300, from: 600, to: 790 },
      { at: 1350, from: 250, to: 480 }, // the header box's right edge
    ],
  };
  return { texts, rules };
}

describe("proposing reading zones on a blank form", () => {
  const layout = proposeZones(form().texts, form().rules, { width: 1600, height: 2000 });
  const field = (name: string) => layout.zones.find((z) => z.kind === "field" && z.field === name);

  it("puts a header field's zone on the underline after its label, reaching above it for handwriting", () => {
    const name = field("patientName")!;
    expect(name).toMatchObject({ id: fieldZoneId("patientName"), x: 240 });
    expect(name.x + name.width).toBe(1400);
    expect(name.y).toBeLessThan(300);
    expect(name.y + name.height).toBeGreaterThan(334);
    expect(field("patientDob")).toMatchObject({ x: 280, width: 370 });
    expect(field("sex")).toMatchObject({ x: 810, width: 140 });
  });

  it("without an underline, takes the space after the label up to the next ruled line", () => {
    const mrn = field("mrn")!;
    expect(mrn.x).toBeGreaterThan(1090);
    expect(mrn.x + mrn.width).toBeLessThanOrEqual(1350);
  });

  it("gives a label with ruled lines below it (comments) the lines", () => {
    const notes = field("comments")!;
    expect(notes).toMatchObject({ x: 100, y: 936 });
    expect(notes.x + notes.width).toBe(1500);
    expect(notes.y + notes.height).toBeGreaterThan(1050);
  });

  it("names each table cell by its row's vessel and its column's side and parameter, within the grid", () => {
    const cells = layout.zones.filter((z) => z.kind === "cell");
    expect(cells).toHaveLength(4);
    expect(cells).toContainEqual(
      expect.objectContaining({
        site: "ICA_PROX",
        side: "right",
        parameter: "PSV",
        sheetUnit: "cm/s",
        x: 460,
        y: 670,
        width: 400,
        height: 60,
      }),
    );
    expect(cells).toContainEqual(
      expect.objectContaining({
        site: "GSV_KNEE",
        side: "left",
        parameter: "REFLUX_MS",
        sheetUnit: "s",
        x: 860,
        y: 730,
        width: 440,
        height: 60,
      }),
    );
  });

  it("proposes nothing for texts that are not labels, and keeps only unique texts as anchors", () => {
    expect(layout.zones.filter((z) => z.kind === "field")).toHaveLength(5);
    const texts = [...form().texts, text("Vessel", 120, 1500, 90)];
    const anchors = proposeZones(texts, form().rules, { width: 1600, height: 2000 }).anchors.map((a) => a.text);
    expect(anchors).toContain("riversidevascularlab");
    expect(anchors).not.toContain("vessel");
  });
});

describe("a filled worksheet uploaded as the blank form", () => {
  it("gets no zones, so it is never used for reading", () => {
    const { texts, rules } = form();
    const filled = [...texts, text("Lisa Whitfield", 300, 296), text("02/03/1961", 300, 396)];
    expect(proposeZones(filled, rules, { width: 1600, height: 2000 }).zones).toEqual([]);
  });

  it("keeps its zones when only one slot holds text (a clinic's pre-printed value)", () => {
    const { texts, rules } = form();
    const layout = proposeZones([...texts, text("Lisa Whitfield", 300, 296)], rules, { width: 1600, height: 2000 });
    expect(layout.zones.length).toBeGreaterThan(0);
  });
});
