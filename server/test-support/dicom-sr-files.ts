import dcmjs from "dcmjs";

// DICOM files for tests, written with dcmjs the way an ultrasound machine exports a vascular ultrasound report
// (PS3.16 TID 5100: report > section per side (TID 5103) > measurement group per vessel (TID 5104) > NUM items).
// The codes are written out here, not taken from domain/interop/dicom-sr-codes.ts, so that a wrong mapping there
// fails the tests.

const { DicomDict, DicomMetaDictionary } = dcmjs.data;

export type Code = readonly [scheme: string, value: string, meaning: string];

export const CODES = {
  report: ["DCM", "125100", "Vascular Ultrasound Procedure Report"],
  findingSite: ["SCT", "363698007", "Finding Site"],
  laterality: ["SCT", "272741003", "Laterality"],
  topographical: ["SCT", "106233006", "Topographical modifier"],
  measurementGroup: ["DCM", "125007", "Measurement Group"],
  selectionStatus: ["DCM", "121404", "Selection Status"],
  userChosen: ["DCM", "121410", "User chosen value"],
  right: ["SCT", "24028007", "Right"],
  left: ["SCT", "7771000", "Left"],
  proximal: ["SCT", "40415009", "Proximal"],
  middle: ["NCIt", "C25569", "Middle"],
  distal: ["SCT", "46053002", "Distal"],
  cca: ["SCT", "32062004", "Common Carotid Artery"],
  ica: ["SCT", "86117002", "Internal Carotid Artery"],
  icaSrt: ["SRT", "T-45300", "Internal Carotid Artery"],
  eca: ["SCT", "22286001", "External Carotid Artery"],
  vertebral: ["SCT", "85234005", "Vertebral Artery"],
  aorta: ["SCT", "7832008", "Abdominal aorta"],
  gsvThigh: ["SCT", "414369008", "Great Saphenous Vein of Thigh"],
  ophthalmic: ["SCT", "53549008", "Ophthalmic Artery"],
  psv: ["LN", "11726-7", "Peak Systolic Velocity"],
  edv: ["LN", "11653-3", "End Diastolic Velocity"],
  icaCcaRatio: ["LN", "33868-1", "ICA/CCA velocity ratio"],
  pulsatility: ["LN", "12008-9", "Pulsatility Index"],
  lumenDiameter: ["SCT", "397413000", "Vessel lumen diameter"],
  outsideDiameter: ["SCT", "397414006", "Vessel outside diameter"],
  neckArteries: ["SRT", "T-45005", "Artery of neck"],
} as const satisfies Record<string, Code>;

export type SrValue = { code: Code; value: number | string; unit: Code | string; selected?: boolean };
export type SrGroup = { vessel: Code; segment?: Code; values: SrValue[] };
export type SrSection = { laterality?: Code; groups: SrGroup[] };

export type SrOptions = {
  patientName?: string;
  patientId?: string;
  birthDate?: string;
  sex?: string;
  studyDate?: string;
  studyDescription?: string;
  referringPhysician?: string;
  sections: SrSection[];
};

const codeItem = ([scheme, value, meaning]: Code) => ({
  CodeValue: value,
  CodingSchemeDesignator: scheme,
  CodeMeaning: meaning,
});

const modifier = (name: Code, value: Code) => ({
  RelationshipType: "HAS CONCEPT MOD",
  ValueType: "CODE",
  ConceptNameCodeSequence: [codeItem(name)],
  ConceptCodeSequence: [codeItem(value)],
});

const ucum = (unit: Code | string): Code => (typeof unit === "string" ? ["UCUM", unit, unit] : unit);

function numItem(v: SrValue) {
  return {
    RelationshipType: "CONTAINS",
    ValueType: "NUM",
    ConceptNameCodeSequence: [codeItem(v.code)],
    MeasuredValueSequence: [{ NumericValue: String(v.value), MeasurementUnitsCodeSequence: [codeItem(ucum(v.unit))] }],
    ...(v.selected ? { ContentSequence: [modifier(CODES.selectionStatus, CODES.userChosen)] } : {}),
  };
}

function groupItem(group: SrGroup) {
  return {
    RelationshipType: "CONTAINS",
    ValueType: "CONTAINER",
    ContinuityOfContent: "SEPARATE",
    ConceptNameCodeSequence: [codeItem(CODES.measurementGroup)],
    ContentSequence: [
      modifier(CODES.findingSite, group.vessel),
      ...(group.segment ? [modifier(CODES.topographical, group.segment)] : []),
      ...group.values.map(numItem),
    ],
  };
}

function sectionItem(section: SrSection) {
  return {
    RelationshipType: "CONTAINS",
    ValueType: "CONTAINER",
    ContinuityOfContent: "SEPARATE",
    ConceptNameCodeSequence: [codeItem(CODES.neckArteries)],
    ContentSequence: [
      ...(section.laterality ? [modifier(CODES.laterality, section.laterality)] : []),
      ...section.groups.map(groupItem),
    ],
  };
}

/** Writes a Part 10 file (explicit VR little endian) of a dataset with the given SOP class. */
function part10(dataset: Record<string, unknown>): Buffer {
  const sopInstance = DicomMetaDictionary.uid();
  const meta = {
    FileMetaInformationVersion: new Uint8Array([0, 1]).buffer,
    MediaStorageSOPClassUID: dataset.SOPClassUID,
    MediaStorageSOPInstanceUID: sopInstance,
    TransferSyntaxUID: "1.2.840.10008.1.2.1",
    ImplementationClassUID: "1.2.826.0.1.3680043.10.1234",
    ImplementationVersionName: "SONOSCRIBE_TEST",
  };
  const dict = new DicomDict(DicomMetaDictionary.denaturalizeDataset(meta));
  dict.dict = DicomMetaDictionary.denaturalizeDataset({ ...dataset, SOPInstanceUID: sopInstance });
  return Buffer.from(dict.write());
}

const studyHeader = (o: Omit<SrOptions, "sections">, modality: string, sopClass: string) => ({
  SpecificCharacterSet: "ISO_IR 192",
  SOPClassUID: sopClass,
  StudyInstanceUID: DicomMetaDictionary.uid(),
  SeriesInstanceUID: DicomMetaDictionary.uid(),
  Modality: modality,
  PatientName: o.patientName ?? "",
  PatientID: o.patientId ?? "",
  PatientBirthDate: o.birthDate ?? "",
  PatientSex: o.sex ?? "",
  StudyDate: o.studyDate ?? "",
  StudyTime: "101500",
  StudyDescription: o.studyDescription ?? "",
  ReferringPhysicianName: o.referringPhysician ?? "",
  AccessionNumber: "",
  StudyID: "1",
  SeriesNumber: "1",
  InstanceNumber: "1",
  Manufacturer: "Sonoscribe test",
});

/** A Comprehensive SR of a vascular ultrasound report. */
export function vascularSr(options: SrOptions): Buffer {
  return part10({
    ...studyHeader(options, "SR", "1.2.840.10008.5.1.4.1.1.88.33"),
    ValueType: "CONTAINER",
    ConceptNameCodeSequence: [codeItem(CODES.report)],
    ContinuityOfContent: "SEPARATE",
    CompletionFlag: "COMPLETE",
    VerificationFlag: "UNVERIFIED",
    ContentSequence: options.sections.map(sectionItem),
  });
}

/** An ultrasound image (a 2 x 2 grey frame): DICOM, but not a structured report. */
export function ultrasoundImage(): Buffer {
  return part10({
    ...studyHeader({ patientName: "Image^Only" }, "US", "1.2.840.10008.5.1.4.1.1.6.1"),
    SamplesPerPixel: 1,
    PhotometricInterpretation: "MONOCHROME2",
    Rows: 2,
    Columns: 2,
    BitsAllocated: 8,
    BitsStored: 8,
    HighBit: 7,
    PixelRepresentation: 0,
    PixelData: new Uint8Array([0, 64, 128, 255]).buffer,
    _vrMap: { PixelData: "OB" },
  });
}

/** A carotid study as a machine exports it: both sides, PSV and EDV by segment, the ICA/CCA ratio. */
export function carotidSr(overrides: Partial<SrOptions> = {}): Buffer {
  return vascularSr({
    patientName: "Doe^Jane^Q",
    patientId: "MRN-4471",
    birthDate: "19480312",
    sex: "F",
    studyDate: "20250301",
    studyDescription: "Carotid duplex",
    referringPhysician: "House^Gregory",
    sections: [
      {
        laterality: CODES.right,
        groups: [
          { vessel: CODES.cca, segment: CODES.distal, values: [{ code: CODES.psv, value: 78, unit: "cm/s" }] },
          {
            vessel: CODES.ica,
            segment: CODES.proximal,
            values: [
              { code: CODES.psv, value: 2.45, unit: "m/s" },
              { code: CODES.edv, value: 62, unit: "cm/s" },
            ],
          },
          { vessel: CODES.ica, values: [{ code: CODES.icaCcaRatio, value: 3.14, unit: "1" }] },
        ],
      },
      {
        laterality: CODES.left,
        groups: [
          { vessel: CODES.cca, segment: CODES.distal, values: [{ code: CODES.psv, value: 81, unit: "cm/s" }] },
          { vessel: CODES.icaSrt, segment: CODES.proximal, values: [{ code: CODES.psv, value: 95, unit: "cm/s" }] },
          { vessel: CODES.vertebral, values: [{ code: CODES.psv, value: 48, unit: "cm/s" }] },
        ],
      },
    ],
    ...overrides,
  });
}
