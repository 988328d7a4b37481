import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client";
import { clinics, legendEntries } from "../../db/schema";
import { openTestDatabase } from "../../test-support/test-database";
import { activeLegendMatches, keywordOccurs, splitKeywords } from "./legend.service";

describe("legend keyword matching", () => {
  it("splits comma-separated keywords and drops blanks", () => {
    expect(splitKeywords(" reflux, DVT ,, deep vein ")).toEqual(["reflux", "DVT", "deep vein"]);
    expect(splitKeywords(null)).toEqual([]);
  });

  it("matches whole words, case-insensitively, phrases across any spacing", () => {
    expect(keywordOccurs("dvt", "Findings: acute DVT in the left CFV")).toBe(true);
    expect(keywordOccurs("occlusion", "no occlusions seen")).toBe(false);
    expect(keywordOccurs("deep vein", "Deep\n vein thrombosis")).toBe(true);
    expect(keywordOccurs("ica", "the right ICA.")).toBe(true);
    expect(keywordOccurs("ica", "medication")).toBe(false);
    expect(keywordOccurs("c++ (x)", "see c++ (x) here")).toBe(true);
    expect(keywordOccurs("ödem", "leichtes Ödem")).toBe(true);
  });
});

describe("activeLegendMatches", () => {
  let database: Database;
  let clinicA: number;
  let clinicB: number;

  beforeAll(async () => {
    database = await openTestDatabase();
    const { db } = database;
    const [a, b] = await db
      .insert(clinics)
      .values([
        { name: "A", email: "a@legend.test" },
        { name: "B", email: "b@legend.test" },
      ])
      .returning();
    clinicA = a!.id;
    clinicB = b!.id;
    await db.insert(legendEntries).values([
      { clinicId: clinicA, title: "Cross-hatch", medicalMeaning: "Thrombus", keywords: "thrombus, DVT" },
      { clinicId: clinicA, title: "Zigzag", medicalMeaning: "Reflux > 0.5 s", keywords: "reflux" },
      { clinicId: clinicA, title: "Inactive", medicalMeaning: "Ignored", keywords: "dvt", isActive: false },
      { clinicId: clinicA, title: "No keywords", medicalMeaning: "Never matched", keywords: null },
      { clinicId: clinicB, title: "Other clinic", medicalMeaning: "Other", keywords: "dvt" },
    ]);
  });
  afterAll(() => database.close());

  it("returns the clinic's active entries whose keywords occur in the text", async () => {
    const matches = await activeLegendMatches(database.db, clinicA, "Acute dvt of the popliteal vein; no refluxing");
    expect(matches).toEqual([{ id: expect.any(Number), title: "Cross-hatch", medicalMeaning: "Thrombus" }]);
    const both = await activeLegendMatches(database.db, clinicA, "REFLUX in GSV, thrombus in CFV");
    expect(both.map((m) => m.title)).toEqual(["Cross-hatch", "Zigzag"]);
    expect(await activeLegendMatches(database.db, clinicA, "")).toEqual([]);
    expect((await activeLegendMatches(database.db, clinicB, "dvt")).map((m) => m.title)).toEqual(["Other clinic"]);
  });
});
