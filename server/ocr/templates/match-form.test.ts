import { describe, expect, it } from "vitest";
import { applyHomography } from "./homography-fit";
import { matchForm, type ReadingTemplate } from "./match-form";

const box = (x: number, y: number, width = 160, height = 36) => ({
  page: 0,
  x: x - width / 2,
  y: y - height / 2,
  width,
  height,
});

/** A form's printed texts at their places on the blank. */
const printed: [string, number, number][] = [
  ["Riverside Vascular Laboratory", 530, 127],
  ["CAROTID DUPLEX ULTRASOUND WORKSHEET", 826, 273],
  ["Patient Name:", 223, 383],
  ["D.O.B.:", 179, 470],
  ["Sex:", 662, 472],
  ["Exam Date:", 1043, 471],
  ["Referring Dr:", 216, 560],
  ["MRN:", 1005, 560],
  ["Vessel", 163, 804],
  ["Rt PSV cm/s", 577, 804],
  ["Lt EDV cm/s", 1418, 804],
  ["CCA Prox", 182, 869],
  ["ICA Prox", 175, 1116],
  ["Impression / Comments:", 286, 1533],
  ["Form VL-102 rev 6 Page 1 of 1", 271, 2227],
];
const template = (id: number, texts: [string, number, number][]): ReadingTemplate => ({
  id,
  width: 1654,
  height: 2339,
  zones: [{ id: "f-sex", kind: "field", field: "sex", x: 700, y: 440, width: 200, height: 60 }],
  anchors: texts.map(([t, x, y]) => ({ text: t.toLowerCase().replace(/[^a-z0-9]/g, ""), x, y })),
});

/** A phone photo: rotated 2.5 degrees, smaller, shifted, in slight perspective. */
const a = (2.5 * Math.PI) / 180;
const photo = [0.9 * Math.cos(a), -0.9 * Math.sin(a), 80, 0.9 * Math.sin(a), 0.9 * Math.cos(a), 40, 1e-5, 2e-5, 1];
const onPhoto = (texts: [string, number, number][]) =>
  texts.map(([text, x, y]) => {
    const p = applyHomography(photo, { x, y });
    return { text, box: box(p.x, p.y) };
  });

describe("matching a filled page to the clinic's forms", () => {
  it("finds the form on a photo taken at an angle, with handwriting and misreads around", () => {
    const texts = [
      ...onPhoto(printed.slice(0, 12)),
      { text: "Riverside Vascu1ar Laboratory", box: box(100, 100) }, // a misread elsewhere: an outlier
      { text: "THOMPSON, Daniel", box: box(600, 380) },
      { text: "12/03/1950", box: box(300, 470) },
    ];
    const match = matchForm(texts, { width: 1500, height: 2150 }, [template(7, printed)])!;
    expect(match.template.id).toBe(7);
    expect(match.coverage).toBeGreaterThanOrEqual(11 / printed.length);
    const p = applyHomography(match.h, { x: 800, y: 470 });
    const t = applyHomography(photo, { x: 800, y: 470 });
    expect(Math.hypot(p.x - t.x, p.y - t.y)).toBeLessThan(3);
    // The printed texts are known, so they are never read as values.
    expect(match.printed.has(0)).toBe(true);
    expect(match.printed.has(13)).toBe(false);
  });

  it("prefers the form whose printed texts are found in place over one that shares only its table", () => {
    const other = template(
      8,
      printed.map(([t, x, y], i) => (i < 8 ? [`${t} other`, x, y + 90] : [t, x, y]) as [string, number, number]),
    );
    const match = matchForm(onPhoto(printed), { width: 1500, height: 2150 }, [other, template(7, printed)]);
    expect(match?.template.id).toBe(7);
  });

  it("answers no match for a page of another form", () => {
    const texts = onPhoto([
      ["Lakeshore Diagnostic Ultrasound", 530, 127],
      ["LOWER EXTREMITY VENOUS DUPLEX WORKSHEET", 826, 273],
      ["Name:", 223, 383],
      ["Segment", 163, 804],
      ["Rt reflux s", 577, 804],
      ["CFV", 182, 869],
    ]);
    expect(matchForm(texts, { width: 1500, height: 2150 }, [template(7, printed)])).toBeNull();
  });

  it("does not place the form where its texts are found scrambled", () => {
    const shuffled = printed.map(
      ([t], i) =>
        [t, printed[(i * 7) % printed.length]![1], printed[(i * 11) % printed.length]![2]] as [string, number, number],
    );
    expect(matchForm(onPhoto(shuffled), { width: 1500, height: 2150 }, [template(7, printed)])).toBeNull();
  });
});
