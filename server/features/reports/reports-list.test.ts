import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Report, ReportList } from "../../../domain/contracts/reports";
import { reports } from "../../db/schema";
import { as, createTestApp, registerClinic, type SignedIn, type TestApp } from "../../test-support/test-app";
import { parseSearch } from "./report-search";

let t: TestApp;
let owner: SignedIn;
let other: SignedIn;
const ids: Record<string, number> = {};

const people = [
  {
    key: "smith",
    patientName: "Alice Smith",
    studyType: "Carotid Duplex",
    examDate: "2024-03-15",
    patientDob: "1950-04-02",
    mrn: "MRN-0048213",
  },
  {
    key: "smithers",
    patientName: "Bob Smithers",
    studyType: "Renal Duplex",
    examDate: "2024-03-16",
    patientDob: "1961-11-30",
    mrn: "H552190",
  },
  {
    key: "jones",
    patientName: "Carol Jones",
    studyType: "Lower Limb Venous",
    examDate: "2023-12-01",
    patientDob: "2024-03-15",
    mrn: null,
  },
  {
    key: "oneill",
    patientName: "Dan O'Neill",
    studyType: "Carotid Duplex",
    examDate: null,
    patientDob: null,
    mrn: null,
  },
  {
    key: "percent",
    patientName: "Eve 100%",
    studyType: "Abdominal Aorta",
    examDate: "2022-01-31",
    patientDob: null,
    mrn: "77",
  },
];

beforeAll(async () => {
  t = await createTestApp();
  owner = await registerClinic(t.app, "List Clinic");
  other = await registerClinic(t.app, "Other Clinic");
  const db = t.deps.database.db;
  // 25 filler reports, older than the named ones, so that pages and order can be checked.
  const base = Date.parse("2024-01-01T00:00:00Z");
  await db.insert(reports).values(
    Array.from({ length: 25 }, (_, i) => ({
      clinicId: owner.clinicId,
      patientName: `Filler Patient ${i}`,
      studyType: "DVT Assessment",
      indication: "-",
      findings: "-",
      impression: "-",
      examDate: "2020-06-01",
      generatedAt: new Date(base + i * 60_000),
    })),
  );
  let minute = 0;
  for (const p of people) {
    const [row] = await db
      .insert(reports)
      .values({
        clinicId: owner.clinicId,
        patientName: p.patientName,
        studyType: p.studyType,
        examDate: p.examDate,
        patientDob: p.patientDob,
        mrn: p.mrn,
        indication: "-",
        findings: "-",
        impression: "-",
        generatedAt: new Date(Date.parse("2024-06-01T00:00:00Z") + minute++ * 60_000),
      })
      .returning();
    ids[p.key] = row!.id;
  }
  // Another clinic's Smith must never show.
  await db.insert(reports).values({
    clinicId: other.clinicId,
    patientName: "Zed Smith",
    studyType: "Carotid Duplex",
    patientDob: "1950-04-02",
    mrn: "MRN-0048213",
    indication: "-",
    findings: "-",
    impression: "-",
  });
});
afterAll(() => t.close());

async function list(query = "", user = owner): Promise<ReportList> {
  const res = await as(t.app, user)({ method: "GET", url: `/api/reports${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ReportList;
}
const names = (l: ReportList) => l.items.map((r) => r.patientName);

describe("GET /api/reports", () => {
  it("pages 12 at a time, newest first, with the total", async () => {
    const first = await list();
    expect(first.total).toBe(30);
    expect(first.items).toHaveLength(12);
    expect(names(first).slice(0, 2)).toEqual(["Eve 100%", "Dan O'Neill"]);
    const third = await list("?page=3");
    expect(third.items).toHaveLength(6);
    expect(third.items.at(-1)!.patientName).toBe("Filler Patient 0");
    const all = [...first.items, ...(await list("?page=2")).items, ...third.items].map((r) => r.id);
    expect(new Set(all).size).toBe(30);
    // A page past the end still carries the total, listed or searched.
    expect(await list("?page=4")).toEqual({ items: [], total: 30 });
    expect(await list("?page=9&search=dvt")).toEqual({ items: [], total: 25 });
    expect((await list("?pageSize=5")).items).toHaveLength(5);
  });

  it("searches patient names as substrings, case-insensitively, and within the clinic only", async () => {
    expect(names(await list("?search=smith")).sort()).toEqual(["Alice Smith", "Bob Smithers"]);
    expect(names(await list("?search=SMITHERS"))).toEqual(["Bob Smithers"]);
    expect(names(await list("?search=o'neill"))).toEqual(["Dan O'Neill"]);
    expect((await list("?search=smith", other)).items.map((r) => r.patientName)).toEqual(["Zed Smith"]);
  });

  it("treats LIKE wildcards as text", async () => {
    expect(names(await list(`?search=${encodeURIComponent("100%")}`))).toEqual(["Eve 100%"]);
    expect((await list(`?search=${encodeURIComponent("%")}`)).total).toBe(1);
    expect((await list("?search=_")).total).toBe(0);
  });

  it("searches the report number, with or without #", async () => {
    expect(names(await list(`?search=${ids.jones}`))).toContain("Carol Jones");
    const hashed = await list(`?search=${encodeURIComponent(`#${ids.jones}`)}`);
    expect(names(hashed)).toEqual(["Carol Jones"]);
  });

  it("searches the study type", async () => {
    const carotid = await list("?search=carotid");
    expect(carotid.total).toBe(2);
    expect(names(carotid).sort()).toEqual(["Alice Smith", "Dan O'Neill"]);
    expect((await list(`?search=${encodeURIComponent("lower limb")}`)).total).toBe(1);
    expect((await list("?search=dvt")).total).toBe(25);
  });

  it("searches the MRN, whole or in part, case-insensitively, and within the clinic only", async () => {
    expect(names(await list("?search=MRN-0048213"))).toEqual(["Alice Smith"]);
    expect(names(await list("?search=mrn-0048213"))).toEqual(["Alice Smith"]);
    expect(names(await list("?search=552190"))).toEqual(["Bob Smithers"]);
    expect(names(await list("?search=0048213", other))).toEqual(["Zed Smith"]);
    expect(names(await list(`?search=${encodeURIComponent("h552190 renal")}`))).toEqual(["Bob Smithers"]);
  });

  it("searches the date of birth as ISO or day/month/year, within the clinic only", async () => {
    expect(names(await list("?search=1950-04-02"))).toEqual(["Alice Smith"]);
    expect(names(await list(`?search=${encodeURIComponent("30/11/1961")}`))).toEqual(["Bob Smithers"]);
    expect(names(await list("?search=02.04.1950", other))).toEqual(["Zed Smith"]);
  });

  it("searches the exam date as ISO or day/month/year", async () => {
    // Carol Jones was born on the day Alice Smith was examined: a date finds both.
    expect(names(await list("?search=2024-03-15"))).toEqual(["Carol Jones", "Alice Smith"]);
    expect(names(await list(`?search=${encodeURIComponent("15/03/2024 smith")}`))).toEqual(["Alice Smith"]);
    expect(names(await list("?search=01.12.2023"))).toEqual(["Carol Jones"]);
    expect((await list(`?search=${encodeURIComponent("31/02/2024")}`)).total).toBe(0);
  });

  it("requires every word to match, and pages search results", async () => {
    expect(names(await list(`?search=${encodeURIComponent("smith carotid")}`))).toEqual(["Alice Smith"]);
    const filler = await list("?search=filler&page=2");
    expect(filler.total).toBe(25);
    expect(filler.items).toHaveLength(12);
    expect((await list("?search=nobody")).total).toBe(0);
  });

  it("leaves deleted reports out of the list, the search and the total", async () => {
    const del = await as(t.app, owner)({ method: "DELETE", url: `/api/reports/${ids.percent}` });
    expect(del.statusCode).toBe(200);
    expect((await list()).total).toBe(29);
    expect((await list("?search=eve")).total).toBe(0);
  });

  it("GET /api/reports/recent answers the latest 50 of the clinic", async () => {
    const res = await as(t.app, owner)({ method: "GET", url: "/api/reports/recent" });
    const recent = res.json() as Report[];
    expect(recent.length).toBe(29);
    expect(recent[0]!.patientName).toBe("Dan O'Neill");
    expect(recent.every((r) => r.patientName !== "Zed Smith")).toBe(true);
  });
});

describe("parseSearch", () => {
  it("reads report numbers and dates, and rejects impossible dates", () => {
    expect(parseSearch(" #42  2024-2-9 ")).toEqual([
      { text: "#42", id: 42, date: null },
      { text: "2024-2-9", id: null, date: "2024-02-09" },
    ]);
    expect(parseSearch("29/02/2023")[0]!.date).toBeNull();
    expect(parseSearch("29-02-2024")[0]!.date).toBe("2024-02-29");
    expect(parseSearch("99999999999")[0]!.id).toBeNull();
    expect(parseSearch("")).toEqual([]);
  });
});
