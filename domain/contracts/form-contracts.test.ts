import { describe, expect, it } from "vitest";
import { communicationForm } from "./critical-communication";
import { DESTINATION_PORT_MESSAGE, DESTINATION_URL_MESSAGE, destinationForm } from "./delivery";
import { startSessionForm } from "./drawings";
import { AMENDMENT_REASON_REQUIRED, amendReasonField } from "./reports";

// The forms' contracts (issue 29 item 4): the form's values checked as the request they become, with the
// texts on the fields the screen shows them by.
const issues = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  (result.error?.issues ?? []).map((i) => [i.path.join("."), i.message]);

describe("the form contracts", () => {
  const blankDestination = { kind: "fhir" as const, name: "", url: "", token: "", host: "", port: "2575" };

  it("destination: the request's texts on the form's fields, and only the chosen kind's fields sent", () => {
    expect(issues(destinationForm.safeParse({ ...blankDestination, name: "HIE", url: "file:///etc/passwd" }))).toEqual([
      ["url", DESTINATION_URL_MESSAGE],
    ]);
    expect(
      issues(destinationForm.safeParse({ ...blankDestination, kind: "mllp", name: "RIS", host: "ris", port: "" })),
    ).toEqual([["port", DESTINATION_PORT_MESSAGE]]);
    expect(
      destinationForm.parse({
        ...blankDestination,
        name: " HIE ",
        url: "https://fhir.example/r4",
        host: "x",
        token: " ",
      }),
    ).toEqual({ kind: "fhir", name: "HIE", url: "https://fhir.example/r4" });
    expect(destinationForm.parse({ ...blankDestination, kind: "mllp", name: "RIS", host: "ris", url: "y" })).toEqual({
      kind: "mllp",
      name: "RIS",
      host: "ris",
      port: 2575,
    });
  });

  it("start session: a name and a sonographer are needed; blanks become none", () => {
    const values = { patientName: " ", patientDob: "", examDate: "2026-11-24", studyType: "", sonographerId: "" };
    expect(issues(startSessionForm.safeParse(values))).toEqual([
      ["patientName", "Please fill in patient name and select a sonographer"],
      ["sonographerId", "Please fill in patient name and select a sonographer"],
    ]);
    expect(startSessionForm.parse({ ...values, patientName: "Ada", sonographerId: "3" })).toEqual({
      patientName: "Ada",
      patientDob: null,
      examDate: "2026-11-24",
      studyType: null,
      sonographerId: 3,
    });
  });

  it("communication record: the dialog's texts for what is missing", () => {
    const missing = { recipient: " ", communicatedAt: "", notes: "" };
    expect(issues(communicationForm.safeParse(missing))).toEqual([
      ["recipient", "Say whom the result was communicated to"],
      ["method", "Choose how it was communicated"],
      ["communicatedAt", "Give the date and time it was communicated"],
      ["readBack", "Say whether the recipient read the result back"],
    ]);
  });

  it("amendment: a reason blank once trimmed is refused, with the service's text", () => {
    expect(amendReasonField.safeParse("   ").error?.issues[0]?.message).toBe(AMENDMENT_REASON_REQUIRED);
    expect(amendReasonField.parse(" typo in the impression ")).toBe("typo in the impression");
  });
});
