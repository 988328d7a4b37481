import { describe, expect, it } from "vitest";
import { extractPatientFields, extractSheetFields } from "./field-extraction";
import { syntheticRegion as at } from "./synthetic-region";
import { ASCII_CHARS } from "./text-recognizer";

const now = new Date("2026-11-22T12:00:00Z");

describe("extractPatientFields", () => {
  it("anchors values to labels in separate regions on the same line", () => {
    const regions = [
      at("Patient Name:", { u: 100, v: 300 }),
      at("ROBERT", { u: 280, v: 304 }),
      at("KING", { u: 370, v: 302 }),
      at("DOB:", { u: 100, v: 360 }),
      at("02/08/69", { u: 160, v: 362 }),
      at("Sex:", { u: 400, v: 360 }),
      at("M", { u: 450, v: 360 }),
      at("Exam Date:", { u: 700, v: 360 }),
      at("19.09.26", { u: 840, v: 364 }),
    ];
    const fields = extractPatientFields(regions, now);
    expect(fields.patientName.value).toBe("ROBERT KING");
    expect(fields.patientDob.value).toBe("1969-08-02");
    expect(fields.examDate.value).toBe("2026-09-19");
    expect(fields.patientName.box).toMatchObject({ page: 0, x: 280, y: 302 });
    // Each synthetic character leaves 5 % to the blank, so readings that drop one keep a small share.
    expect(fields.examDate.confidence).toBeGreaterThan(0.75);
  });

  it("splits a label and its value read as one region", () => {
    const regions = [
      at("Patient's Name:HERNANDEZ, Barbara", { u: 100, v: 300 }),
      at("D.O.B.:15-04-2002", { u: 100, v: 360 }),
    ];
    const fields = extractPatientFields(regions, now);
    expect(fields.patientName.value).toBe("HERNANDEZ, Barbara");
    expect(fields.patientDob.value).toBe("2002-04-15");
    expect(fields.examDate.value).toBeNull();
  });

  it("takes a short label whose colon was not read when digits follow it, but not a word of a name", () => {
    const dob = [at("D.O.B.1/3/1975", { u: 100, v: 360 })];
    expect(extractPatientFields(dob, now).patientDob.value).toBe("1975-03-01");
    const name = [at("Name:", { u: 100, v: 300 }), at("IDA", { u: 180, v: 300 }), at("KING", { u: 250, v: 300 })];
    expect(extractPatientFields(name, now).patientName.value).toBe("IDA KING");
  });

  it("takes a long label with one letter misread when its colon follows or it stands alone, not a look-alike word", () => {
    const misread = [at("Patent Name:", { u: 100, v: 300 }), at("Ingrid Anderson", { u: 290, v: 300 })];
    expect(extractPatientFields(misread, now).patientName.value).toBe("Ingrid Anderson");
    // Without its colon, only alone in its region: a long label one letter off ("Reterring Doctor" on a photo).
    const noColon = [at("Patent Name", { u: 100, v: 300 }), at("Ingrid Anderson", { u: 290, v: 300 })];
    expect(extractPatientFields(noColon, now).patientName.value).toBe("Ingrid Anderson");
    const inValue = [at("Name:", { u: 100, v: 300 }), at("Patent Name Ingrid", { u: 200, v: 300 })];
    expect(extractPatientFields(inValue, now).patientName.value).toBe("Patent Name Ingrid");
    // A short label one letter off ("Nane") is no label without its colon, alone or not.
    const short = [at("Nane", { u: 100, v: 300 }), at("Ingrid Anderson", { u: 200, v: 300 })];
    expect(extractPatientFields(short, now).patientName.value).toBeNull();
  });

  it("skips a sliver the detector found between a label and its value", () => {
    const regions = [
      at("Name:", { u: 100, v: 300 }),
      // Over the colon's edge and the value's first letter: most of its width lies under its neighbours.
      at("S", { u: 155, v: 300 }),
      at("ROBERT", { u: 162, v: 300 }),
      at("KING", { u: 250, v: 300 }),
    ];
    expect(extractPatientFields(regions, now).patientName.value).toBe("ROBERT KING");
  });

  it("checks each name word even where a comma or point was read without a space", () => {
    const regions = [
      at("Name:", { u: 100, v: 300 }),
      at("WILSON,Jahn", { u: 180, v: 300 }, 0.6, { 8: { char: "o", prob: 0.3 } }),
    ];
    expect(extractPatientFields(regions, now).patientName.value).toBe("WILSON, John");
    const initial = [at("Name:", { u: 100, v: 300 }), at("F.Thomas", { u: 180, v: 300 })];
    expect(extractPatientFields(initial, now).patientName.value).toBe("F. Thomas");
  });

  it("keeps a middle initial written against the given name", () => {
    const name = (text: string) =>
      extractPatientFields([at("Name:", { u: 100, v: 300 }), at(text, { u: 180, v: 300 })], now).patientName.value;
    expect(name("MICHAELB. MORRIS")).toBe("MICHAEL B. MORRIS");
    // A name that ends in a capital is not split, nor a word whose letters before the last are no name.
    expect(name("ANDERSON, JOHN")).toBe("ANDERSON, JOHN");
    expect(name("XQZWB. MORRIS")).toBe("XQZWB. MORRIS");
  });

  it("pools the stretched reading of a date written apart from its label", () => {
    const value = at("7/1/2022", { u: 260, v: 300 }, 0.5, { 2: { char: "7", prob: 0.45 } });
    const label = at("Exam Date:", { u: 100, v: 300 });
    expect(extractPatientFields([label, value], now).examDate.value).toBe("2022-01-07");
    value.stretched = at("7/7/2022", { u: 260, v: 300 }, 0.95).matrix;
    expect(extractPatientFields([label, value], now).examDate.value).toBe("2022-07-07");
    // In a region that also holds the label, the stretched reading is not used.
    const merged = at("Exam Date:7/1/2022", { u: 100, v: 300 }, 0.55, { 12: { char: "7", prob: 0.4 } });
    merged.stretched = at("Exam Date:7/7/2022", { u: 100, v: 300 }, 0.95).matrix;
    expect(extractPatientFields([merged], now).examDate.value).toBe("2022-01-07");
  });

  it("reads a value merged with its label from the value's own crop", () => {
    const merged = at("DOB:6/M/", { u: 100, v: 300 });
    expect(extractPatientFields([merged], now).patientDob.value).toBeNull();
    merged.value = at("16/11/78", { u: 150, v: 300 });
    expect(extractPatientFields([merged], now).patientDob.value).toBe("1978-11-16");
  });

  it("reads a digit-like letter in a date as the digit", () => {
    const fields = extractPatientFields(
      [at("Date of Birth:", { u: 100, v: 300 }), at("O1/O5/1931", { u: 260, v: 300 })],
      now,
    );
    expect(fields.patientDob.value).toBe("1931-05-01");
  });

  it("does not take the next field's label as a value", () => {
    const fields = extractPatientFields(
      [at("Name:", { u: 100, v: 300 }), at("MRN:", { u: 300, v: 300 }), at("12345", { u: 360, v: 300 })],
      now,
    );
    expect(fields.patientName.value).toBeNull();
  });

  it("gives an impossible date no confident value", () => {
    const fields = extractPatientFields(
      [at("Study Date:", { u: 100, v: 300 }), at("31.02.2020", { u: 250, v: 300 })],
      now,
    );
    // The best real date behind it (a digit dropped) may be offered, but only as a guess to check.
    expect(fields.examDate.value).not.toBe("2020-02-31");
    expect(fields.examDate.confidence).toBeLessThan(0.05);
  });

  it("takes a date of birth before the exam date over a likelier one after it", () => {
    const dob = at("12.04.2025", { u: 260, v: 300 }, 0.6, { 8: { char: "0", prob: 0.35 } });
    const fields = extractPatientFields(
      [
        at("DOB:", { u: 100, v: 300 }),
        dob,
        at("Exam Date:", { u: 700, v: 300 }),
        at("03.06.2024", { u: 860, v: 300 }, 0.99),
      ],
      now,
    );
    expect(fields.examDate.value).toBe("2024-06-03");
    expect(fields.patientDob.value).toBe("2005-04-12");
    expect(fields.patientDob.confidence).toBeLessThan(0.5);
  });

  it("prefers the reading of a date of birth that makes the patient an adult", () => {
    const fields = (dob: string, prob: number, alternative: Record<number, { char: string; prob: number }>) =>
      extractPatientFields(
        [
          at("DOB:", { u: 100, v: 300 }),
          at(dob, { u: 260, v: 300 }, prob, alternative),
          at("Exam Date:", { u: 700, v: 300 }),
          at("03.06.2024", { u: 860, v: 300 }, 0.99),
        ],
        now,
      ).patientDob;
    // "73" where the recogniser saw a "1" a little more than the "7".
    expect(fields("05.04.13", 0.6, { 6: { char: "7", prob: 0.35 } })).toMatchObject({ value: "1973-04-05" });
    // A child's date of birth read clearly stays, shown for checking.
    const child = fields("05.04.13", 0.95, {});
    expect(child.value).toBe("2013-04-05");
    expect(child.confidence).toBeLessThan(0.8);
  });

  it("recognises labels as clinics word them, by meaning", () => {
    const read = (label: string, value: string) =>
      extractSheetFields([at(label, { u: 100, v: 300 }), at(value, { u: 500, v: 300 })], now);
    expect(read("Patient:", "Ashley R. Lewis").patientName.value).toBe("Ashley R. Lewis");
    expect(read("Pt Name:", "Ashley Lewis").patientName.value).toBe("Ashley Lewis");
    expect(read("Patient Name (Surname, Given):", "LEWIS, Ashley").patientName.value).toBe("LEWIS, Ashley");
    expect(read("Birth Date:", "02/08/1969").patientDob.value).toBe("1969-08-02");
    expect(read("Born", "02/08/1969").patientDob.value).toBe("1969-08-02");
    expect(read("Date of Scan:", "19.09.26").examDate.value).toBe("2026-09-19");
    expect(read("Date of service:", "19.09.2026").examDate.value).toBe("2026-09-19");
    expect(read("UR No.:", "00123456").mrn.value).toBe("00123456");
    expect(read("Hospital no.:", "H4139310").mrn.value).toBe("H4139310");
    expect(read("Ref Dr:", "Dr A. Chen").referringPhysician.value).toBe("Dr A. Chen");
    expect(read("Reason for study:", "RECURRENT VARICES").indication.value).toBe("RECURRENT VARICES");
    expect(read("Clinical history:", "TIA").indication.value).toBe("TIA");
    expect(read("Tech:", "KL").sonographer.value).toBe("KL");
    expect(read("Gender:", "Female").sex.value).toBe("female");
    expect(read("Sonographer's impression:", "No DVT seen").comments.value).toBe("No DVT seen");
  });

  it("reads every header field of a boxed form, each value under its label", () => {
    const regions = [
      at("Surname", { u: 100, v: 300 }),
      at("Given names", { u: 800, v: 300 }),
      at("DAVIS", { u: 104, v: 350 }),
      at("Elizabeth", { u: 804, v: 352 }),
      at("Indication", { u: 100, v: 420 }),
      at("Sex", { u: 800, v: 420 }),
      at("venous ulcer", { u: 104, v: 470 }),
      at("F", { u: 804, v: 470 }),
      at("Referring physician", { u: 100, v: 540 }),
      at("MRN", { u: 800, v: 540 }),
      at("Dr Y. Hughes", { u: 104, v: 590 }),
      at("8120874", { u: 804, v: 590 }),
    ];
    const fields = extractSheetFields(regions, now);
    expect(fields.patientName.value).toBe("DAVIS, Elizabeth");
    expect(fields.indication.value).toBe("venous ulcer");
    expect(fields.sex.value).toBe("female");
    expect(fields.referringPhysician.value).toBe("Dr Y. Hughes");
    expect(fields.mrn.value).toBe("8120874");
    expect(fields.mrn.box).toMatchObject({ x: 804, y: 590 });
    // What the sheet does not carry is not emitted.
    expect(fields.sonographer.value).toBeNull();
    expect(fields.comments.value).toBeNull();
  });

  it("takes a value that repeats its label's word as the value, and no word that starts like a label", () => {
    const regions = [at("MRN:", { u: 100, v: 300 }), at("MRN383901", { u: 170, v: 300 })];
    expect(extractSheetFields(regions, now).mrn.value).toBe("MRN383901");
    const comments = [at("Comments:", { u: 100, v: 300 }), at("Reflux at SFJ, GSV 7 mm", { u: 104, v: 360 })];
    const fields = extractSheetFields(comments, now);
    expect(fields.comments.value).toBe("Reflux at SFJ, GSV 7 mm");
    expect(fields.referringPhysician.value).toBeNull();
  });

  it("cuts a region that merged two fields of a line where the second label starts", () => {
    const fields = extractSheetFields([at("Patient: MEI ROBINSON Referring: Dr Hughes", { u: 100, v: 300 })], now);
    expect(fields.patientName.value).toBe("MEI ROBINSON");
    expect(fields.referringPhysician.value).toBe("Dr Hughes");
  });

  it("ends a value at a person's label without its colon: 'TECH' then the sonographer's name or initials", () => {
    // Its own region beside the value before it, on the same line.
    const apart = extractSheetFields(
      [at("Reason for study aching legs", { u: 100, v: 300 }), at("TECH J. Morton", { u: 650, v: 300 })],
      now,
    );
    expect(apart.indication.value).toBe("aching legs");
    expect(apart.sonographer.value).toBe("J. Morton");
    // Run into the value before it in one region.
    const merged = extractSheetFields([at("Indication: aching legs TECH J. Morton", { u: 100, v: 300 })], now);
    expect(merged.indication.value).toBe("aching legs");
    expect(merged.sonographer.value).toBe("J. Morton");
    const initials = extractSheetFields([at("Reason: DVT? Tech CF", { u: 100, v: 300 })], now);
    expect(initials.indication.value).toBe("DVT?");
    expect(initials.sonographer.value).toBe("CF");
    const referrer = extractSheetFields([at("Symptoms: calf pain REF N. Gupta", { u: 100, v: 300 })], now);
    expect(referrer.indication.value).toBe("calf pain");
    expect(referrer.referringPhysician.value).toBe("N. Gupta");
  });

  it("keeps a label word inside a value when no person's name follows it", () => {
    const a = extractSheetFields([at("Indication: tech difficult, ref to vascular", { u: 100, v: 300 })], now);
    expect(a.indication.value).toBe("tech difficult, ref to vascular");
    expect(a.sonographer.value).toBeNull();
    expect(a.referringPhysician.value).toBeNull();
  });

  it("leaves a referrer's title with the value when the label could end before it ('REFERRING Dr N. Gupta')", () => {
    const read = (text: string) => extractSheetFields([at(text, { u: 100, v: 300 })], now).referringPhysician.value;
    // Printed in another case than the capital label.
    expect(read("REFERRING Dr N. Gupta")).toBe("Dr N. Gupta");
    // Further from the label's word than from the name.
    expect(read("Referring   Dr N. Gupta")).toBe("Dr N. Gupta");
    expect(read("Ref   Dr Gupta")).toBe("Dr Gupta");
    // The title close to the label, the name apart: the label's ("Referring Dr" then the name).
    expect(read("Referring Dr   N. Gupta")).toBe("N. Gupta");
    // With its colon the label is the long one.
    expect(read("REFERRING DR: N. Gupta")).toBe("N. Gupta");
  });

  it("places two dates no label claims by their type: the older is the date of birth", () => {
    const regions = [
      at("Patient:", { u: 100, v: 300 }),
      at("ROBERT KING", { u: 220, v: 300 }),
      at("14/05/2024", { u: 100, v: 360 }),
      at("02/08/1969", { u: 600, v: 360 }),
    ];
    const fields = extractSheetFields(regions, now);
    expect(fields.patientDob.value).toBe("1969-08-02");
    expect(fields.examDate.value).toBe("2024-05-14");
    expect(fields.examDate.confidence).toBeLessThan(0.7);
    // A lone unlabelled date is no exam date unless the date of birth shows it is one.
    const lone = extractSheetFields([at("Patient:", { u: 100, v: 300 }), at("14/05/2024", { u: 100, v: 360 })], now);
    expect(lone.examDate.value).toBeNull();
    expect(lone.patientDob.value).toBeNull();
    // A date behind a label too misread to be known is read from after the colon (no date holds one).
    const misread = regions.map((r) => (r.read.text === "02/08/1969" ? at("D.0.8:1969-08-02", { u: 600, v: 360 }) : r));
    expect(extractSheetFields(misread, now).patientDob.value).toBe("1969-08-02");
  });
});

describe("a clinic's own label wordings (aliases learnt from its corrections)", () => {
  const regions = [
    at("Client:", { u: 100, v: 300 }),
    at("Ashley R. Lewis", { u: 220, v: 300 }),
    at("Natal day:", { u: 100, v: 360 }),
    at("02/08/1969", { u: 260, v: 360 }),
  ];

  it("are labels for that clinic's uploads", () => {
    const aliases = [
      { wording: "client", field: "patientName" as const },
      { wording: "natalday", field: "patientDob" as const },
    ];
    const fields = extractSheetFields(regions, now, aliases);
    expect(fields.patientName.value).toBe("Ashley R. Lewis");
    expect(fields.patientDob.value).toBe("1969-08-02");
  });

  it("are nothing without them: an unknown label's value is no field", () => {
    const fields = extractSheetFields(regions, now);
    expect(fields.patientName.value).toBeNull();
  });
});

describe("a label the lexicon does not know, with its value in the same region", () => {
  it("ends the value of the label before it on the line", () => {
    const regions = [
      at("Patient Name:", { u: 100, v: 300 }),
      at("Edward Rodriguez", { u: 300, v: 300 }),
      at("File no.: 9309054", { u: 560, v: 300 }),
    ];
    expect(extractSheetFields(regions, now).patientName.value).toBe("Edward Rodriguez");
  });

  it("is not taken for one where a known label ran into a value ('ALLENIndication: TIA')", () => {
    const regions = [at("Patient Name:", { u: 100, v: 300 }), at("ELEANOR ALLENIndication: TIA", { u: 300, v: 300 })];
    const fields = extractSheetFields(regions, now);
    expect(fields.patientName.value).toBe("ELEANOR ALLEN");
    expect(fields.indication.value).toBe("TIA");
  });
});

describe("header fields on other clinics' forms (issue 23, third session)", () => {
  const read = (regions: ReturnType<typeof at>[]) => extractSheetFields(regions, now);

  it("skips a flat sliver over a label's colon and the value's first letter", () => {
    const fields = read([
      at("Name (Last, First):", { u: 100, v: 300 }),
      // Flatter than the text around it (a colon and a letter's top), wider than twice its own height.
      at(":F", { u: 320, v: 306, w: 36, h: 16 }),
      at("Rajesh Fitzgerald", { u: 342, v: 300 }),
    ]);
    expect(fields.patientName.value).toBe("Rajesh Fitzgerald");
  });

  it("cuts a value run into the next column's label off that label", () => {
    const fields = read([
      at("Patient Name", { u: 100, v: 300 }),
      at("MICHELLE X. MOORE Dr:", { u: 300, v: 300 }),
      at("Dr C. Chen", { u: 640, v: 300 }),
    ]);
    expect(fields.patientName.value).toBe("MICHELLE X. MOORE");
    expect(fields.referringPhysician.value).toBe("Dr C. Chen");
    // One to three plain words before a colon are a label, not a value.
    const label = read([
      at("File number:", { u: 100, v: 300 }),
      at("Name:", { u: 100, v: 360 }),
      at("IDA KING", { u: 180, v: 360 }),
    ]);
    expect(label.patientName.value).toBe("IDA KING");
  });

  it("takes the label's last word as what it asks for when it is a label of its own", () => {
    const fields = read([
      at("Sonographer:", { u: 100, v: 300 }),
      at("KL", { u: 260, v: 300 }),
      at("Sonographer notes:", { u: 100, v: 600 }),
      at("No DVT seen", { u: 100, v: 650 }),
    ]);
    expect(fields.sonographer.value).toBe("KL");
    expect(fields.comments.value).toBe("No DVT seen");
  });

  it("keeps a remark in brackets with its label without a colon", () => {
    const fields = read([at("Date of birth (DD/MM/YY) 07.04.2003", { u: 100, v: 300 })]);
    expect(fields.patientDob.value).toBe("2003-04-07");
    // A short label: its value's type after the remark tells it from a word of a value.
    const name = read([at("Name (Last, First) SCHNEIDER, Patricia K.", { u: 100, v: 300 })]);
    expect(name.patientName.value).toBe("SCHNEIDER, Patricia K.");
  });

  it("knows a general practitioner as the referrer", () => {
    const fields = read([at("GP / Referrer:", { u: 100, v: 300 }), at("Dr Q. Walsh", { u: 300, v: 300 })]);
    expect(fields.referringPhysician.value).toBe("Dr Q. Walsh");
  });

  it("reads a value written over a dotted leader: runs of points part words, a point inside a word is the line's", () => {
    const fields = read([
      at("Patient:", { u: 100, v: 300 }),
      at("..WILSON..BEAT.RICE...W..", { u: 200, v: 300 }),
      at("Indication:", { u: 100, v: 360 }),
      at("...LEFT.SIDED.WEAKNESS..", { u: 240, v: 360 }),
      at("Referring:", { u: 100, v: 420 }),
      at("Dr. C. Chen", { u: 240, v: 420 }),
    ]);
    expect(fields.patientName.value).toBe("WILSON BEATRICE W.");
    expect(fields.indication.value).toBe("LEFT SIDED WEAKNESS");
    // Points of initials are no leader.
    expect(fields.referringPhysician.value).toBe("Dr. C. Chen");
  });

  it("ends a name before the next field's date on its line", () => {
    const fields = read([
      at("Pt Name:", { u: 100, v: 300 }),
      at("FITZGERALD, Edward", { u: 210, v: 300 }),
      at("18/04/2020", { u: 450, v: 300 }),
    ]);
    expect(fields.patientName.value).toBe("FITZGERALD, Edward");
  });
});

describe("overlapping regions (issue 23, fourth session)", () => {
  const read = (regions: ReturnType<typeof at>[]) => extractSheetFields(regions, now);

  it("reads the letters two value regions share once", () => {
    const fields = read([
      at("Requested by", { u: 100, v: 300, w: 180 }),
      // "Dr Sullivan" found as two regions: the first one reaches over the "S" the second one starts with.
      at("Dr S", { u: 300, v: 300, w: 80 }),
      at("Sullivan", { u: 360, v: 300, w: 120 }),
    ]);
    expect(fields.referringPhysician.value).toBe("Dr Sullivan");
  });

  it("keeps a value's first letter under the dots after its label", () => {
    const fields = read([
      // The label's region runs on over its leader's dots into the value's region.
      at("Medical record no....", { u: 100, v: 300, w: 240 }),
      at("MRN807583", { u: 320, v: 300, w: 117 }),
    ]);
    expect(fields.mrn.value).toBe("MRN807583");
  });
});

describe("other clinics' wordings and date styles (issue 23, fourth session)", () => {
  const read = (regions: ReturnType<typeof at>[]) => extractSheetFields(regions, now);

  it("reads a date with its month written as a name, not as a number", () => {
    const fields = read([
      at("DOB:", { u: 100, v: 300 }),
      at("03-APR-1956", { u: 200, v: 300 }),
      at("Date of exam:", { u: 100, v: 360 }),
      at("12 Nov 2026", { u: 300, v: 360 }),
    ]);
    expect(fields.patientDob.value).toBe("1956-04-03");
    expect(fields.examDate.value).toBe("2026-11-12");
  });

  it("takes a # after a label for 'number': the record number, not the name", () => {
    const hosp = read([at("Hosp #", { u: 100, v: 300 }), at("00123456", { u: 200, v: 300 })]);
    expect(hosp.mrn.value).toBe("00123456");
    const patient = read([at("Patient #:", { u: 100, v: 300 }), at("445566", { u: 260, v: 300 })]);
    expect(patient.mrn.value).toBe("445566");
    expect(patient.patientName.value).toBeNull();
  });

  it("reads a referrer's title run against its label as the value's", () => {
    expect(read([at("REF.DRDr. D Ferreira", { u: 100, v: 300 })]).referringPhysician.value).toBe("Dr. D Ferreira");
  });

  it("knows ordering and requesting clinicians, short exam-date labels, and an accession number as none of ours", () => {
    const fields = read([
      at("Ordering physician:", { u: 100, v: 300 }),
      at("Dr. Y Hughes", { u: 380, v: 300 }),
      at("Study Dt:", { u: 700, v: 300 }),
      at("12/11/2026", { u: 850, v: 300 }),
      at("Accession No:", { u: 100, v: 360 }),
      at("A445566", { u: 320, v: 360 }),
    ]);
    expect(fields.referringPhysician.value).toBe("Dr. Y Hughes");
    expect(fields.examDate.value).toBe("2026-11-12");
    expect(fields.mrn.value).toBeNull();
    expect(
      read([at("Requesting clinician:", { u: 100, v: 300 }), at("Dr. Y Hughes", { u: 400, v: 300 })]).referringPhysician
        .value,
    ).toBe("Dr. Y Hughes");
  });

  it("takes a label whose word ends inside its bracketed remark, with the value under it", () => {
    const fields = read([
      at("Surname", { u: 100, v: 300 }),
      at("Given name(s)", { u: 500, v: 300 }),
      at("LEWIS", { u: 100, v: 350 }),
      at("Ashley", { u: 500, v: 350 }),
    ]);
    expect(fields.patientName.value).toBe("LEWIS, Ashley");
  });
});

describe("names of the referrer and sonographer (issue 23, fourth session)", () => {
  const read = (regions: ReturnType<typeof at>[]) => extractSheetFields(regions, now);

  it("checks their surnames against the name lexicon like the patient's", () => {
    const fields = read([
      at("Referring Dr:", { u: 100, v: 300 }),
      // "Hughes" with its "g" read as a "q", the "g" close behind.
      at("Dr L Huqhes", { u: 300, v: 300 }, 0.6, { 7: { char: "g", prob: 0.3 } }),
    ]);
    expect(fields.referringPhysician.value).toBe("Dr L Hughes");
  });

  it("leaves a title with its initial run against it as read", () => {
    const fields = read([at("Referring Dr:", { u: 100, v: 300 }), at("DrP.Sullivan", { u: 300, v: 300 })]);
    expect(fields.referringPhysician.value).toBe("DrP. Sullivan");
  });
});

describe("labels, a leader of points, dashes or underscores, then the value (issue 23, fifth session)", () => {
  const read = (regions: ReturnType<typeof at>[]) => extractSheetFields(regions, now);

  it("pairs every header field across a leader printed in the label's region or in one of its own", () => {
    const fields = read([
      // The leader read in the label's region: a short label without its colon.
      at("UR No. ------", { u: 100, v: 300 }),
      at("MRN819855", { u: 420, v: 300 }),
      at("Sex (M/F) ----", { u: 100, v: 360 }),
      at("M", { u: 420, v: 360 }),
      // The leader found as a region of its own, between the label and the value.
      at("DOB (dd/mm/yyyy)", { u: 100, v: 420 }),
      at(".........", { u: 300, v: 420 }),
      at("28-11-2003", { u: 420, v: 420 }),
      at("Exam date .", { u: 100, v: 480 }),
      at("...........", { u: 240, v: 480 }),
      at("2020-11-29", { u: 420, v: 480 }),
      at("Requested by", { u: 100, v: 540 }),
      at("______________", { u: 250, v: 540 }),
      at("Dr K. Brennan", { u: 420, v: 540 }),
      at("Tech --------", { u: 100, v: 600 }),
      at("CF", { u: 420, v: 600 }),
      at("Reason for exam ........", { u: 100, v: 660 }),
      at("skin changes", { u: 420, v: 660 }),
      // "Patient name / ID": the slash and its word are the label's.
      at("Patient name / ID", { u: 100, v: 720 }),
      at("ANTHONY GALLAGHER", { u: 420, v: 720 }),
    ]);
    expect(fields.mrn.value).toBe("MRN819855");
    expect(fields.sex.value).toBe("male");
    expect(fields.patientDob.value).toBe("2003-11-28");
    expect(fields.examDate.value).toBe("2020-11-29");
    expect(fields.referringPhysician.value).toBe("Dr K. Brennan");
    expect(fields.sonographer.value).toBe("CF");
    expect(fields.indication.value).toBe("skin changes");
    expect(fields.patientName.value).toBe("ANTHONY GALLAGHER");
  });

  it("reads values typed over a dotted line in the label's region, with the line's points at their ends", () => {
    const fields = read([
      at("Name .THOMAS....LEE.", { u: 100, v: 300 }),
      at("Patient ID: .UR755471.", { u: 100, v: 360 }),
      at("Tech .C..FOX.", { u: 100, v: 420 }),
      at("REASON: .venous. ulcer.", { u: 100, v: 480 }),
      at("Gender .FEMALE.", { u: 100, v: 540 }),
    ]);
    expect(fields.patientName.value).toBe("THOMAS LEE");
    expect(fields.mrn.value).toBe("UR755471");
    expect(fields.sonographer.value).toBe("C. FOX");
    expect(fields.indication.value).toBe("venous ulcer");
    expect(fields.sex.value).toBe("female");
  });

  it("parts two names at a single point of the line, keeps one name whole", () => {
    const two = read([at("Patient Name: .Karen.Robinson.", { u: 100, v: 300 })]);
    expect(two.patientName.value).toBe("Karen Robinson");
    const one = read([at("Patient Name: .Karen..BEAT.RICE.", { u: 100, v: 300 })]);
    expect(one.patientName.value).toBe("Karen BEATRICE");
  });

  it("reads a sex among a leader's end read as a letter, but not two sexes", () => {
    const fields = read([at("Sex (M/F)..... I", { u: 100, v: 300 }), at("m", { u: 330, v: 300 })]);
    expect(fields.sex.value).toBe("male");
    const both = read([at("Sex:", { u: 100, v: 300 }), at("M F", { u: 330, v: 300 })]);
    expect(both.sex.value).toBeNull();
  });

  it("reads a sex after the label and a point, in one region", () => {
    expect(read([at("Sex.FEMALE", { u: 100, v: 300 })]).sex.value).toBe("female");
    // A word that is no sex after "Sex." leaves the label unknown.
    expect(read([at("Sex.ual", { u: 100, v: 300 })]).sex.value).toBeNull();
  });
});

describe("a referrer's garbled title (issue 23, fifth session)", () => {
  const read = (regions: ReturnType<typeof at>[]) => extractSheetFields(regions, now);
  const referrer = (value: ReturnType<typeof at>) =>
    read([at("Referring Dr:", { u: 100, v: 300 }), value]).referringPhysician.value;

  it("reads 'Dr' for a first word the recogniser also saw as 'Dr', and for the 'r' left of one", () => {
    // "Dn. H Novak" where the "n" was also an "r" (0.3).
    expect(referrer(at("Dn. H Novak", { u: 300, v: 300 }, 0.6, { 1: { char: "r", prob: 0.3 } }))).toBe("Dr. H Novak");
    // "DA Chen": between the D and the A the recogniser saw an "r" at 0.3 beside the blank.
    const da = at("DA Chen", { u: 300, v: 300 });
    da.matrix.probs[2 * 96] = 0.7;
    da.matrix.probs[2 * 96 + ASCII_CHARS.indexOf("r") + 1] = 0.3;
    expect(referrer(da)).toBe("Dr A Chen");
    // The title's "D" read into the label's colon: a lone small "r" before an initial and a name.
    expect(referrer(at("r T Hughes", { u: 300, v: 300 }))).toBe("Dr T Hughes");
  });

  it("keeps an initial read plainly, and a name with no title", () => {
    expect(referrer(at("D. Osei", { u: 300, v: 300 }, 0.97))).toBe("D. Osei");
    expect(referrer(at("R. T. Hughes", { u: 300, v: 300 }, 0.97))).toBe("R. T. Hughes");
    expect(referrer(at("Walsh", { u: 300, v: 300 }))).toBe("Walsh");
    // The first letters of a word are no word of their own, even where the recogniser saw "Dr" in them.
    expect(referrer(at("Donald Smith", { u: 300, v: 300 }, 0.6, { 1: { char: "r", prob: 0.3 } }))).toBe("Donald Smith");
  });
});

describe("a referrer's title run into the surname (issue 23, fifth session)", () => {
  it("parts 'DRCHEN' instead of reading it as a name near it", () => {
    const fields = extractSheetFields(
      [at("Referring Dr:", { u: 100, v: 300 }), at("DRCHEN", { u: 300, v: 300 }, 0.9)],
      now,
    );
    expect(fields.referringPhysician.value).toBe("DR CHEN");
  });
});

describe("a short label word run into the name; a date far right of its label (issue 23, fifth session)", () => {
  it("parts 'ID' of 'Patient name / ID' from the name it was read against", () => {
    // Clean print: letters read at 0.99, so the lexicon never replaces the word (a plain reading is kept).
    const apart = [at("Patient name /", { u: 100, v: 300 }), at("IDGeorge Y. Okafor", { u: 270, v: 300 }, 0.99)];
    expect(extractSheetFields(apart, now).patientName.value).toBe("George Y. Okafor");
    const oneRegion = [at("Patient name/IDGeorge Y. Okafor", { u: 100, v: 300 }, 0.99)];
    expect(extractSheetFields(oneRegion, now).patientName.value).toBe("George Y. Okafor");
  });

  it("keeps names with two capitals and titles whole", () => {
    const mc = [at("Patient name:", { u: 100, v: 300 }), at("McDonald, Beatrice", { u: 270, v: 300 }, 0.99)];
    expect(extractSheetFields(mc, now).patientName.value).toBe("McDonald, Beatrice");
    const caps = [at("Name:", { u: 100, v: 300 }), at("IDA KING", { u: 180, v: 300 }, 0.99)];
    expect(extractSheetFields(caps, now).patientName.value).toBe("IDA KING");
  });

  it("pairs a date of birth written far right on its label's line, nothing between", () => {
    const far = [at("Date of Birth:", { u: 100, v: 300 }), at("12/03/1961", { u: 1100, v: 300 })];
    expect(extractSheetFields(far, now).patientDob.value).toBe("1961-03-12");
  });

  it("leaves it when a label stands over that date (its own field) or a label lies between", () => {
    const column = [
      at("Date of Birth:", { u: 100, v: 300 }),
      at("Exam Date:", { u: 1100, v: 255 }),
      at("12/03/2024", { u: 1100, v: 300 }),
    ];
    const fields = extractSheetFields(column, now);
    expect(fields.patientDob.value).toBeNull();
    expect(fields.examDate.value).toBe("2024-03-12");
    const between = [
      at("Date of Birth:", { u: 100, v: 300 }),
      at("Sex:", { u: 700, v: 300 }),
      at("12/03/1961", { u: 1100, v: 300 }),
    ];
    expect(extractSheetFields(between, now).patientDob.value).toBeNull();
  });
});

describe("other clinics' header forms (issue 23, --clinic-forms)", () => {
  it("takes 'Patient details' for a section's heading, not the name's label", () => {
    const regions = [at("Patient details", { u: 100, v: 240 }), at("DOB:", { u: 100, v: 300 })];
    regions.push(at("01/02/1960", { u: 170, v: 300 }));
    expect(extractSheetFields(regions, now).patientName.value).toBeNull();
  });

  it("reads 'Client name:' as the patient's name label", () => {
    const regions = [at("Client name:", { u: 100, v: 300 }), at("ROBERT O'BRIEN", { u: 260, v: 300 }, 0.99)];
    expect(extractSheetFields(regions, now).patientName.value).toBe("ROBERT O'BRIEN");
  });

  it("joins a label printed as two regions ('Birth' 'date'), so its second word is not the exam's label", () => {
    const regions = [
      at("Birth", { u: 100, v: 300 }),
      at("date", { u: 172, v: 300 }),
      at("17/7/1961", { u: 330, v: 300 }),
      at("Study date", { u: 700, v: 300 }),
      at("01 Jul 2026", { u: 860, v: 300 }),
    ];
    const fields = extractSheetFields(regions, now);
    expect(fields.patientDob.value).toBe("1961-07-17");
    expect(fields.examDate.value).toBe("2026-07-01");
  });

  it("keeps a remark in brackets with its label: 'Patient (Surname, Given)'", () => {
    const regions = [
      at("Patient (Surname, Given)", { u: 100, v: 300 }),
      at("VAN DER BERG, Sharon", { u: 420, v: 300 }, 0.99),
    ];
    expect(extractSheetFields(regions, now).patientName.value).toBe("VAN DER BERG, Sharon");
  });

  it("reads 'Last:' and 'First:' as the name's two fields", () => {
    const regions = [
      at("Last:", { u: 100, v: 300 }),
      at("GALLAGHER", { u: 100, v: 345 }, 0.99),
      at("First:", { u: 800, v: 300 }),
      at("Joseph", { u: 800, v: 345 }, 0.99),
    ];
    expect(extractSheetFields(regions, now).patientName.value).toBe("GALLAGHER, Joseph");
  });

  it("reads a date of birth with the age beside it, and 'DOB / Age' as one label", () => {
    const named = [at("D.O.B. / Age: Sep 8, 1961 (61y)", { u: 100, v: 300 })];
    expect(extractSheetFields(named, now).patientDob.value).toBe("1961-09-08");
    const digits = [at("DOB/Age:", { u: 100, v: 300 }), at("14/08/1953 Age 72", { u: 220, v: 300 })];
    expect(extractSheetFields(digits, now).patientDob.value).toBe("1953-08-14");
  });

  it("reads dates month first when a label says MM/DD/YYYY or the letterhead's address is American", () => {
    const hinted = [
      at("Date of birth (MM/DD/YYYY):", { u: 100, v: 300 }),
      at("08/04/1953", { u: 440, v: 300 }),
      at("Exam date:", { u: 100, v: 360 }),
      at("10/05/2025", { u: 240, v: 360 }),
    ];
    const fields = extractSheetFields(hinted, now);
    expect(fields.patientDob.value).toBe("1953-08-04");
    expect(fields.examDate.value).toBe("2025-10-05");
    const address = [
      at("1200 Oak Avenue, Springfield, IL 62704", { u: 100, v: 150 }),
      at("DOB:", { u: 100, v: 300 }),
      at("03/04/1956", { u: 170, v: 300 }),
    ];
    expect(extractSheetFields(address, now).patientDob.value).toBe("1956-03-04");
    // A label that says day first wins over the address.
    address.push(at("Exam date (DD/MM/YYYY):", { u: 100, v: 360 }));
    expect(extractSheetFields(address, now).patientDob.value).toBe("1956-04-03");
  });

  it("reads printed sex choices 'M / F' as no answer unless the circle left a bracket at one", () => {
    const unread = [
      at("Sex:", { u: 100, v: 300 }),
      at("M", { u: 170, v: 300 }),
      at("/", { u: 200, v: 300 }),
      at("E", { u: 230, v: 300 }),
    ];
    expect(extractSheetFields(unread, now).sex.value).toBeNull();
    const circled = [at("Sex:", { u: 100, v: 300 }), at("(M", { u: 170, v: 300 }), at("/F", { u: 210, v: 300 })];
    expect(extractSheetFields(circled, now).sex.value).toBe("male");
    const plain = [at("Sex:", { u: 100, v: 300 }), at("F", { u: 170, v: 300 })];
    expect(extractSheetFields(plain, now).sex.value).toBe("female");
  });
});

describe("an age beside a numeric date of birth (issue 23, held-out 6161 after scoring)", () => {
  it("drops the label's '/ Age (DD/MM/YYYY)' before the date and an age in a region of its own after it", () => {
    const remark = [at("D.O.B. / Age (DD/MM/YYYY) 15/6/1957 (68 yrs)", { u: 100, v: 300 })];
    expect(extractSheetFields(remark, now).patientDob.value).toBe("1957-06-15");
    const apart = [at("D.O.B. / Age (MM/DD/YYYY): 05/10/1950", { u: 100, v: 300 }), at(")(70y)", { u: 640, v: 300 })];
    expect(extractSheetFields(apart, now).patientDob.value).toBe("1950-05-10");
    // The label's last letter misread as a digit ("3/Age:" for "B/Age:") is still the label's.
    const misread = [at("DOB/Age:", { u: 100, v: 300 }), at("3/Age: Nov 21, 1975 (49y)", { u: 200, v: 300 })];
    expect(extractSheetFields(misread, now).patientDob.value).toBe("1975-11-21");
  });

  it("weighs a date run into the next field's label by the strokes of the date's part of the strip", () => {
    // The recogniser read the 7 of "27/07/41" rather as a 1; the strokes of the date's part read it (the "F" is the
    // sex's).
    const strip = at("21/07/41sex:", { u: 200, v: 300 }, 0.6, { 1: { char: "7", prob: 0.35 } });
    strip.dateStrokes = at("27/07/41", { u: 200, v: 300 }, 0.99).matrix;
    const regions = [at("Date of Birth:", { u: 20, v: 300 }), strip, at("F", { u: 420, v: 300 })];
    expect(extractSheetFields(regions, now).patientDob.value).toBe("1941-07-27");
  });

  it("takes no year for an age when its 1 was read as a bracket ('21.5.(979': no one is 979)", () => {
    const year = [
      at("D.O.B.:", { u: 100, v: 300 }),
      at("21.5.(979", { u: 200, v: 300 }, 0.95, { 5: { char: "1", prob: 0.04 } }),
    ];
    expect(extractSheetFields(year, now).patientDob.value).toBe("1979-05-21");
  });
});
