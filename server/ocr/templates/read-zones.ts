import type { Box, OcrField, OcrFieldName, OcrMeasurement } from "../../../domain/contracts/ocr";
import type { CellZone, FieldZone } from "../../../domain/contracts/worksheet-zones";
import { readNumberCell } from "../cell-reading";
import { joinMatrices } from "../ctc-constrained";
import { ctcDecode } from "../ctc-decode";
import { choosePatientDates, type DateOption, poolDateOptions, readDateOptions } from "../date-reading";
import { MIN_MEASUREMENT_CONFIDENCE } from "../measurement-extraction";
import { nameLexicon } from "../name-lexicon";
import { rescoreNameWord } from "../name-rescoring";
import type { ReadRegion } from "../read-region";
import type { CharMatrix } from "../text-recognizer";
import { PLAUSIBLE, squash } from "../worksheet-vocabulary";
import { applyHomography, invertHomography } from "./homography-fit";
import type { FormMatch } from "./match-form";
import type { FormAnchor } from "./propose-zones";
import { withSpaces } from "./spaced-text";

/** Part of a region that falls in a zone: recogniser steps [from, to). */
type Piece = { region: ReadRegion; from: number; to: number };
export type ZoneReading = { fields: Partial<Record<OcrFieldName, OcrField>>; measurements: OcrMeasurement[] };

/** A region counts for a zone when at least this share of its width lies in it. */
const MIN_OVERLAP = 0.3;
/** Or when the part of it in the zone is at least this many text heights wide, after a label on its left. */
const MIN_INSIDE_HEIGHTS = 1;
const NAME_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz ,.'-";
const MRN_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-/";
const SEX_CHARS = "MFmfOoXxUu";

/**
 * Reads a page by a matched form: each text region of the page is taken back into the form's pixels and given
 * to the zone it lies in (a region that also covers the printed label is cut where the zone begins), then each
 * zone is decoded with its field's grammar: names with the name alphabet and lexicon, dates with the date grammar
 * (both dates chosen together), numbers in cells with the column's number grammar and plausible range.
 */
export function readZones(regions: ReadRegion[], match: FormMatch, now: Date): ZoneReading {
  const back = invertHomography(match.h);
  const zones = match.template.zones;
  const pieces = new Map<string, Piece[]>();
  const labels = new Map(zones.map((z) => [z.id, labelBefore(z, match.template.anchors)]));
  regions.forEach((region, index) => {
    if (match.printed.has(index) || !region.read.text.trim()) return;
    const y = region.box.y + region.box.height / 2;
    const left = applyHomography(back, { x: region.box.x, y });
    const right = applyHomography(back, { x: region.box.x + region.box.width, y });
    const centre = applyHomography(back, { x: region.box.x + region.box.width / 2, y });
    const width = Math.max(1, right.x - left.x);
    const height = region.box.height * (width / Math.max(1, region.box.width));
    let best: { id: string; share: number; from: number; to: number } | null = null;
    for (const z of zones) {
      if (centre.y < z.y || centre.y > z.y + z.height) continue;
      const inside = Math.min(right.x, z.x + z.width) - Math.max(left.x, z.x);
      // A label and its value read as one region ("Sonographer: SW") overlap the value's zone only in part: the
      // value starts after the label's own characters, or failing them where the zone starts.
      const label = labels.get(z.id);
      const coversLabel = label && left.x < label.x && right.x > label.x;
      const afterLabel = coversLabel ? labelEnd(region, label.text) : null;
      const share = afterLabel !== null ? Math.max(MIN_OVERLAP, inside / width) : inside / width;
      const valueAfterLabel = left.x < z.x && inside >= MIN_INSIDE_HEIGHTS * height;
      if ((share < MIN_OVERLAP && !valueAfterLabel) || (best && share <= best.share)) continue;
      const steps = region.matrix.steps;
      const cut = (x: number) => Math.round(Math.max(0, Math.min(1, (x - left.x) / width)) * steps);
      const to = z.x + z.width < right.x ? cut(z.x + z.width) : steps;
      best = { id: z.id, share, from: afterLabel ?? cut(z.x), to };
    }
    if (!best) return;
    const list = pieces.get(best.id) ?? [];
    list.push({ region, from: best.from, to: best.to });
    pieces.set(best.id, list);
  });
  const fields: Partial<Record<OcrFieldName, OcrField>> = {};
  const measurements: OcrMeasurement[] = [];
  const dates: Partial<Record<"patientDob" | "examDate", { options: DateOption[]; box: Box }>> = {};
  for (const zone of zones) {
    const found = (pieces.get(zone.id) ?? []).sort((a, b) => a.region.box.x - b.region.box.x);
    const box = zoneBox(zone, match, found);
    if (zone.kind === "cell") {
      const m = readCell(zone, found, box);
      if (m) measurements.push(m);
    } else if (zone.field === "patientDob" || zone.field === "examDate") {
      dates[zone.field] = { options: found.length ? dateOptions(found, now) : [], box };
    } else {
      fields[zone.field] = found.length ? readField(zone, found, box) : { value: null, confidence: 0, box };
    }
  }
  if (dates.patientDob || dates.examDate) {
    const chosen = choosePatientDates(dates.patientDob?.options ?? [], dates.examDate?.options ?? [], now);
    if (dates.patientDob) fields.patientDob = dateField(chosen.dob, dates.patientDob.box);
    if (dates.examDate) fields.examDate = dateField(chosen.exam, dates.examDate.box);
  }
  return { fields, measurements };
}

/** The form's printed text just left of a zone on its row: the label a region may share with the value. */
function labelBefore(zone: FieldZone | CellZone, anchors: FormAnchor[]): FormAnchor | null {
  if (zone.kind !== "field") return null;
  const left = anchors.filter((a) => a.y >= zone.y && a.y <= zone.y + zone.height && a.x < zone.x);
  return left.sort((a, b) => b.x - a.x)[0] ?? null;
}

/**
 * The recogniser step where a value starts in a region that begins with the label ("Sex: M"): after the label's
 * characters and the punctuation after them. Null when the region does not begin with the label or holds nothing
 * more.
 */
function labelEnd(region: ReadRegion, label: string): number | null {
  const chars = region.read.chars;
  let read = "";
  let k = 0;
  while (k < chars.length && read.length < label.length) read += squash(chars[k++]!.char.replace("0", "o"));
  if (read !== label) return null;
  while (k < chars.length && /[\s:.;,|_-]/.test(chars[k]!.char)) k++;
  if (k >= chars.length) return null;
  return Math.max(0, Math.round((chars[k - 1]!.step + chars[k]!.step) / 2));
}

const dateField = (pick: DateOption | null, box: Box): OcrField =>
  pick ? { value: pick.value, confidence: pick.confidence, box } : { value: null, confidence: 0, box };

/** The zone on the page: where its values were read, or the zone's corners taken onto the page. */
function zoneBox(zone: FieldZone | CellZone, match: FormMatch, found: Piece[]): Box {
  const page = found[0]?.region.box.page ?? 0;
  const corners = found.length
    ? found.flatMap(({ region: { box: b } }) => [
        { x: b.x, y: b.y },
        { x: b.x + b.width, y: b.y + b.height },
      ])
    : [
        { x: zone.x, y: zone.y },
        { x: zone.x + zone.width, y: zone.y },
        { x: zone.x, y: zone.y + zone.height },
        { x: zone.x + zone.width, y: zone.y + zone.height },
      ].map((p) => applyHomography(match.h, p));
  const x = Math.max(0, Math.min(...corners.map((p) => p.x)));
  const y = Math.max(0, Math.min(...corners.map((p) => p.y)));
  return {
    page,
    x: Math.round(x),
    y: Math.round(y),
    width: Math.round(Math.max(...corners.map((p) => p.x)) - x),
    height: Math.round(Math.max(...corners.map((p) => p.y)) - y),
  };
}

function readCell(zone: CellZone, found: Piece[], box: Box): OcrMeasurement | null {
  if (found.length === 0) return null;
  const range = PLAUSIBLE[zone.parameter];
  const inSeconds = zone.parameter === "REFLUX_MS" && zone.sheetUnit === "s";
  const limit = zone.parameter === "REFLUX_MS" && zone.sheetUnit === "ms" ? 1000 : 1;
  const reading = readNumberCell(
    found.map((p) => p.region),
    {
      decimals: (range?.decimals ?? true) && zone.sheetUnit !== "ms",
      min: (range?.min ?? 0) * limit,
      max: (range?.max ?? Number.POSITIVE_INFINITY) * limit,
    },
  );
  if (!reading || reading.confidence < MIN_MEASUREMENT_CONFIDENCE) return null;
  const unit = zone.parameter === "REFLUX_MS" ? "ms" : zone.sheetUnit;
  return {
    site: zone.site,
    side: zone.side,
    parameter: zone.parameter,
    value: Math.round(reading.value * (inSeconds ? 1000 : 1) * 100) / 100,
    unit,
    confidence: Math.round(reading.confidence * 1000) / 1000,
    text: reading.text.replace(/^[-.]+|[-.]+$/g, ""),
    box,
  };
}

/** A date's readings: its pieces joined under the date grammar, pooled with their stretched readings. */
function dateOptions(found: Piece[], now: Date): DateOption[] {
  // A label region that also holds the date was read again from the date's own crop (recognizePage).
  const own = found.map((p) =>
    p.from > 0 && p.region.value ? { region: p.region.value, from: 0, to: p.region.value.matrix.steps } : p,
  );
  const spans = (pick: (r: ReadRegion) => CharMatrix | undefined) => {
    if (!own.every((p) => pick(p.region))) return null;
    return own.map((p) => {
      const matrix = pick(p.region)!;
      const scale = matrix.steps / p.region.matrix.steps;
      return { matrix, from: Math.round(p.from * scale), to: Math.round(p.to * scale) };
    });
  };
  const readings = [spans((r) => r.matrix), spans((r) => r.stretched), spans((r) => r.wide)]
    .filter((s) => s !== null)
    .map((s) => readDateOptions(joinMatrices(s), now));
  return readings.length > 1 ? poolDateOptions(readings) : (readings[0] ?? []);
}

function readField(zone: FieldZone, found: Piece[], box: Box): OcrField {
  const decode = (chars?: string) =>
    found.map((p) => withSpaces(ctcDecode(p.region.matrix, chars, p.from, p.to), p.region.matrix));
  const meanConfidence = (ds: { confidence: number; text: string }[]) => {
    const used = ds.filter((d) => d.text.trim());
    return used.length ? Math.min(...used.map((d) => d.confidence)) : 0;
  };
  const field = (value: string | null, confidence: number): OcrField =>
    value ? { value, confidence: Math.round(confidence * 1000) / 1000, box } : { value: null, confidence: 0, box };
  switch (zone.field) {
    case "patientName": {
      const decoded = decode(NAME_CHARS);
      const { text, factor } = checkName(decoded, found);
      return field(/[A-Za-z]{2}/.test(text) ? text : null, meanConfidence(decoded) * factor);
    }
    case "sex": {
      const decoded = decode(SEX_CHARS);
      const letter = decoded
        .map((d) => d.text.trim())
        .join("")
        .toLowerCase()[0];
      const value = letter === "m" ? "male" : letter === "f" ? "female" : letter ? "other" : null;
      return field(value, meanConfidence(decoded));
    }
    case "mrn": {
      const decoded = decode(MRN_CHARS);
      const value = decoded.map((d) => d.text.replace(/\s+/g, "")).join("");
      return field(/[A-Z0-9]{3}/.test(value) ? value : null, meanConfidence(decoded));
    }
    default: {
      const decoded = decode();
      const value = decoded
        .map((d) => d.text.trim())
        .join(" ")
        .replace(/\s+/g, " ")
        .replace(/^[\s:;,.|_-]+|[\s:;,|_-]+$/g, "");
      return field(/[A-Za-z0-9]/.test(value) ? value : null, meanConfidence(decoded));
    }
  }
}

/** Every word of a name checked against the name lexicon with the recogniser's probabilities. */
function checkName(decoded: ReturnType<typeof ctcDecode>[], found: Piece[]) {
  let factor = 1;
  const words: string[] = [];
  decoded.forEach((d, i) => {
    const matrix = found[i]!.region.matrix;
    let word: typeof d.chars = [];
    const flush = () => {
      if (word.length === 0) return;
      const raw = word.map((c) => c.char).join("");
      const [, before, core, after] = /^([^A-Za-z]*)(.*?)([^A-Za-z]*)$/.exec(raw)!;
      const checked = rescoreNameWord(
        { text: core!, matrix, from: word[0]!.step, to: word.at(-1)!.step + 1 },
        nameLexicon(),
      );
      factor = Math.min(factor, checked.factor);
      words.push(before + checked.text + after);
      word = [];
    };
    for (const c of d.chars) {
      if (c.char === " ") flush();
      else word.push(c);
    }
    flush();
  });
  const text = words
    .map((w) => {
      const letters = w.replace(/[^A-Za-z]/g, "");
      return letters.length >= 3 && letters.replace(/[^A-Z]/g, "").length / letters.length >= 0.6 ? w.toUpperCase() : w;
    })
    .join(" ")
    .replace(/\s*,\s*/g, ", ")
    .replace(/^[\s,.'-]+|[\s,'-]+$/g, "")
    .replace(/\s+/g, " ");
  return { text, factor };
}
