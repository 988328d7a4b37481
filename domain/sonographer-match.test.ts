import { describe, expect, it } from "vitest";
import { matchSonographer, nameScore, nameTokens } from "./sonographer-match";

const staff = [
  { id: 1, name: "Jane Smith", initials: "JS" },
  { id: 2, name: "Óscar Pérez-Núñez", initials: "OPN" },
  { id: 3, name: "John Smith", initials: "JOS" },
  { id: 4, name: "Priya Raghunathan", initials: "PR" },
];
const match = (written: string | null) => matchSonographer(written, staff)?.id ?? null;

describe("matchSonographer", () => {
  it("matches the name however it is written", () => {
    expect(match("Jane Smith")).toBe(1);
    expect(match("SMITH, JANE")).toBe(1);
    expect(match("jane smith RDMS")).toBe(1);
    expect(match("P. Raghunathan")).toBe(4);
    expect(match("Oscar Perez Nunez")).toBe(2);
    expect(match("Perez-Nunez")).toBe(2);
  });

  it("matches the initials written alone", () => {
    expect(match("JS")).toBe(1);
    expect(match("J.O.S.")).toBe(3);
    expect(match("PR")).toBe(4);
  });

  it("tolerates a misread letter or two in a long name", () => {
    expect(match("Jane Smyth")).toBe(1);
    expect(match("Priya Ragunathan")).toBe(4);
    expect(match("Pirya Raghunathen")).toBe(4);
  });

  it("names no one when two sonographers fit equally well", () => {
    expect(match("Smith")).toBeNull();
    expect(match("J Smith")).toBeNull();
  });

  it("names no one for other people, blanks and credentials only", () => {
    expect(match("Maria Garcia")).toBeNull();
    expect(match("Jones")).toBeNull();
    expect(match("")).toBeNull();
    expect(match(null)).toBeNull();
    expect(match("RDMS")).toBeNull();
    expect(match("XY")).toBeNull();
  });

  it("does not stretch a short name to a different one", () => {
    expect(nameScore("Jan Smith", { name: "Joan Smith", initials: "JS" })).toBeLessThan(1);
    expect(matchSonographer("Ian Lee", [{ id: 9, name: "Ann Lee", initials: "AL" }])).toBeNull();
  });
});

describe("nameTokens", () => {
  it("drops accents, punctuation and credentials", () => {
    expect(nameTokens("Dr. Óscar Pérez-Núñez, RVT")).toEqual(["oscar", "perez", "nunez"]);
  });
});
