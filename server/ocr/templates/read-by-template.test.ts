import { describe, expect, it } from "vitest";
import type { OcrField } from "../../../domain/contracts/ocr";
import { editedZoneIds } from "../../features/templates/form-zones.service";
import type { FormLayout } from "./propose-zones";
import { mergeField } from "./read-by-template";

const box = { page: 0, x: 1, y: 2, width: 3, height: 4 };
const read = (value: string | null, confidence: number): OcrField => ({ value, confidence, box });

describe("a field read both by its zone and by the general reader", () => {
  it("takes the more confident reading", () => {
    expect(mergeField(read("Ashley Lewis", 0.9), read("Ashly Lewis", 0.6), false).value).toBe("Ashley Lewis");
    expect(mergeField(read("Ashly Lewis", 0.5), read("Ashley Lewis", 0.8), false).value).toBe("Ashley Lewis");
  });

  it("keeps the zone's reading when the admin drew or adjusted that zone", () => {
    expect(mergeField(read("Ashley Lewis", 0.9), read("Ashly Lewis", 0.6), true).value).toBe("Ashly Lewis");
  });

  it("keeps whichever reader read something when the other read nothing", () => {
    expect(mergeField(read("Ashley Lewis", 0.4), read(null, 0), true).value).toBe("Ashley Lewis");
    expect(mergeField(read(null, 0), read("Ashley Lewis", 0.4), false).value).toBe("Ashley Lewis");
    expect(mergeField(read(null, 0), read(null, 0), false).box).toEqual(box);
  });
});

describe("which zones an admin has touched", () => {
  const zone = {
    id: "f-patient-name",
    kind: "field" as const,
    field: "patientName" as const,
    x: 1,
    y: 1,
    width: 9,
    height: 9,
  };
  const layout: FormLayout = { width: 100, height: 100, anchors: [], zones: [zone] };

  it("is none when the proposed zones are saved as they are", () => {
    expect(editedZoneIds(layout, [zone])).toEqual([]);
  });

  it("is a zone moved, reassigned or added, and stays so on later saves", () => {
    const moved = { ...zone, x: 5 };
    const added = { ...zone, id: "f-mrn", field: "mrn" as const };
    expect(editedZoneIds(layout, [moved, added])).toEqual(["f-patient-name", "f-mrn"]);
    const after = { ...layout, zones: [moved], editedZoneIds: ["f-patient-name"] };
    expect(editedZoneIds(after, [moved])).toEqual(["f-patient-name"]);
  });
});
