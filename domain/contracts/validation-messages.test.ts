import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fieldName, installValidationMessages } from "./validation-messages";

installValidationMessages();

const firstMessage = (schema: z.ZodType, input: unknown) => schema.safeParse(input).error?.issues[0]?.message;

describe("validation messages", () => {
  it("names fields in words", () => {
    expect(fieldName(["patientName"])).toBe("Patient name");
    expect(fieldName(["patient", "patientDob"])).toBe("Date of birth");
    expect(fieldName(["studyType"])).toBe("Study type");
    expect(fieldName(["measurements", 2, "value"])).toBe("Value of measurement 3");
    expect(fieldName(["measurements", 0])).toBe("Measurement 1");
  });

  it("says what is wrong in a sentence, without the validator's codes", () => {
    const form = z.object({
      patientName: z.string().max(255),
      email: z.email(),
      count: z.number().int().min(1),
      side: z.enum(["right", "left"]),
      title: z.string().min(1, "Title is required"),
    });
    const ok = { patientName: "A", email: "a@b.co", count: 1, side: "left", title: "t" };
    expect(firstMessage(form, { ...ok, patientName: "x".repeat(300) })).toBe(
      "Patient name must be at most 255 characters.",
    );
    expect(firstMessage(form, { ...ok, email: undefined })).toBe("E-mail address is required.");
    expect(firstMessage(form, { ...ok, email: "nope" })).toBe("E-mail address must be a valid e-mail address.");
    expect(firstMessage(form, { ...ok, count: "3" })).toBe("Count must be a number.");
    expect(firstMessage(form, { ...ok, count: 0 })).toBe("Count must be at least 1.");
    expect(firstMessage(form, { ...ok, side: "up" })).toBe("Side must be one of: right, left.");
    // A contract's own words are kept as written.
    expect(firstMessage(form, { ...ok, title: "" })).toBe("Title is required");
  });
});
