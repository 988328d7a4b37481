import type {
  Bundle,
  BundleEntry,
  CodeableConcept,
  DiagnosticReport,
  Observation,
  Patient,
  Practitioner,
  Reference,
  Resource,
} from "@medplum/fhirtypes";
import { paragraphsOf } from "../exports/report-document";
import { base64Of, type InteropReport, isoInstant, resultStatus, splitPersonName } from "./interop-report";
import {
  codeMeasurement,
  LOCAL_PARAMETER_SYSTEM,
  LOCAL_SITE_SYSTEM,
  LOINC_SYSTEM,
  UCUM_SYSTEM,
} from "./vascular-codes";

/**
 * A report as a FHIR R4 Bundle: DiagnosticReport (status, conclusion from the Impression, the PDF as
 * presentedForm), one Observation per measurement, the Patient and the Practitioner(s). `collection` answers
 * GET /api/reports/{id}/fhir; `transaction` is what delivery POSTs to a FHIR server: each resource is a
 * conditional update on its identifier, so an amendment replaces the earlier version instead of adding one.
 */

export const LOCAL_SCAN_TYPE_SYSTEM = "urn:sonoscribe:codesystem:scan-type";
const V2_0074 = "http://terminology.hl7.org/CodeSystem/v2-0074";
const V2_0203 = "http://terminology.hl7.org/CodeSystem/v2-0203";
const OBSERVATION_CATEGORY = "http://terminology.hl7.org/CodeSystem/observation-category";

/** Identifier systems of one clinic's records: clinic ids are this installation's, so the clinic is in the URN. */
export const identifierSystem = (clinicId: number, kind: "report" | "mrn" | "physician" | "user" | "measurement") =>
  `urn:sonoscribe:clinic:${clinicId}:${kind}`;

export type FhirBundleOptions = {
  type: "collection" | "transaction";
  /** A new UUID per call (crypto.randomUUID on the server): the entries' fullUrls refer to each other. */
  uuid: () => string;
  now: Date;
};

type Entry = { resource: Resource; identifier?: { system: string; value: string } };

const administrativeGender = (sex: string | null): Patient["gender"] =>
  sex === "female" || sex === "male" || sex === "other" ? sex : "unknown";

function humanName(full: string, suffix?: string | null) {
  const { family, given } = splitPersonName(full);
  return {
    text: full.trim(),
    family,
    ...(given.length ? { given } : {}),
    ...(suffix?.trim() ? { suffix: [suffix.trim()] } : {}),
  };
}

export function reportToFhirBundle(input: InteropReport, options: FhirBundleOptions): Bundle {
  const { report, clinic } = input;
  const status = resultStatus(report);
  const url = () => `urn:uuid:${options.uuid()}`;
  const entries: (Entry & { fullUrl: string })[] = [];
  const add = <T extends Resource>(entry: Entry & { resource: T }): Reference<T> => {
    const fullUrl = url();
    entries.push({ ...entry, fullUrl });
    return { reference: fullUrl };
  };

  const mrn = report.mrn?.trim() || null;
  const patientIdentifier = mrn ? { system: identifierSystem(clinic.id, "mrn"), value: mrn } : undefined;
  const patient: Patient = {
    resourceType: "Patient",
    ...(patientIdentifier
      ? {
          identifier: [
            {
              use: "usual",
              type: { coding: [{ system: V2_0203, code: "MR", display: "Medical record number" }] },
              ...patientIdentifier,
              assigner: { display: clinic.name },
            },
          ],
        }
      : {}),
    name: [humanName(report.patientName)],
    gender: administrativeGender(report.patientSex),
    ...(report.patientDob ? { birthDate: report.patientDob } : {}),
  };
  const subject = add({ resource: patient, identifier: patientIdentifier });

  let physicianRef: Reference<Practitioner> | undefined;
  if (input.physician) {
    const identifier = { system: identifierSystem(clinic.id, "physician"), value: String(input.physician.id) };
    const practitioner: Practitioner = {
      resourceType: "Practitioner",
      identifier: [identifier],
      name: [humanName(input.physician.name, input.physician.title)],
    };
    physicianRef = { ...add({ resource: practitioner, identifier }), display: input.physician.name };
  }
  // Signed on the physician's behalf: the signer is a performer of their own, and the PDF says "on behalf of".
  let signerRef: Reference<Practitioner> | undefined;
  if (input.signer && report.isFinalized && report.finalizedOnBehalf) {
    const identifier = { system: identifierSystem(clinic.id, "user"), value: input.signer.id };
    const practitioner: Practitioner = {
      resourceType: "Practitioner",
      identifier: [identifier],
      name: [humanName(input.signer.name)],
    };
    signerRef = { ...add({ resource: practitioner, identifier }), display: input.signer.name };
  }

  const effective = report.examDate ? { effectiveDateTime: report.examDate } : {};
  const results: Reference<Observation>[] = (input.measurements ?? []).map((m, index) => {
    const coded = codeMeasurement(m);
    const code: CodeableConcept = {
      coding: [
        ...(coded.loinc ? [{ system: LOINC_SYSTEM, code: coded.loinc.code, display: coded.loinc.display }] : []),
        { system: LOCAL_PARAMETER_SYSTEM, code: coded.parameter, display: coded.parameterName },
      ],
      text: `${coded.parameterName}, ${coded.siteText}`,
    };
    const identifier = { system: identifierSystem(clinic.id, "measurement"), value: `${report.id}-${index + 1}` };
    const observation: Observation = {
      resourceType: "Observation",
      identifier: [identifier],
      status,
      category: [{ coding: [{ system: OBSERVATION_CATEGORY, code: "imaging", display: "Imaging" }] }],
      code,
      subject,
      ...effective,
      ...(physicianRef ? { performer: [physicianRef] } : {}),
      valueQuantity: { value: coded.value, unit: coded.ucum.unit, system: UCUM_SYSTEM, code: coded.ucum.code },
      bodySite: { coding: [{ system: LOCAL_SITE_SYSTEM, code: coded.siteCode, display: coded.siteText }] },
    };
    return add({ resource: observation, identifier });
  });

  const reportIdentifier = { system: identifierSystem(clinic.id, "report"), value: String(report.id) };
  const conclusion = paragraphsOf(report.impression).join("\n\n");
  const diagnosticReport: DiagnosticReport = {
    resourceType: "DiagnosticReport",
    identifier: [reportIdentifier],
    status,
    category: [{ coding: [{ system: V2_0074, code: "VUS", display: "Vascular Ultrasound" }] }],
    code: {
      coding: [{ system: LOCAL_SCAN_TYPE_SYSTEM, code: report.studyType.trim(), display: report.studyType.trim() }],
      text: report.studyType.trim(),
    },
    subject,
    ...effective,
    issued: isoInstant(report.isFinalized && report.finalizedAt ? report.finalizedAt : report.updatedAt),
    ...(physicianRef || signerRef
      ? { performer: [physicianRef, signerRef].filter((r): r is Reference<Practitioner> => Boolean(r)) }
      : {}),
    ...(physicianRef ? { resultsInterpreter: [physicianRef] } : {}),
    ...(results.length ? { result: results } : {}),
    ...(conclusion ? { conclusion } : {}),
    presentedForm: [
      {
        contentType: "application/pdf",
        language: "en",
        data: base64Of(input.pdf),
        title: `Ultrasound report ${report.id}${status === "preliminary" ? " (draft)" : ""}`,
        creation: isoInstant(options.now),
      },
    ],
  };
  add({ resource: diagnosticReport, identifier: reportIdentifier });

  const bundleEntries: BundleEntry[] = entries.map(({ fullUrl, resource, identifier }) => ({
    fullUrl,
    resource,
    ...(options.type === "transaction"
      ? {
          request: identifier
            ? {
                method: "PUT" as const,
                url: `${resource.resourceType}?identifier=${encodeURIComponent(identifier.system)}|${encodeURIComponent(identifier.value)}`,
              }
            : { method: "POST" as const, url: resource.resourceType },
        }
      : {}),
  }));
  return {
    resourceType: "Bundle",
    type: options.type,
    timestamp: isoInstant(options.now),
    entry: bundleEntries,
  };
}
