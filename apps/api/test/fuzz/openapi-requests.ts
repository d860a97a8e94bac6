import fc from 'fast-check';
import {
  hostileValue,
  invalidObject,
  invalidValue,
  validValue,
  type FieldHints,
  type JsonSchema,
} from './json-schema-arbitrary';

/** The parts of an OpenAPI 3.1 document (as @fastify/swagger serves it) the fuzz reads. */
export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
}

interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema: JsonSchema;
}

interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface Operation {
  method: HttpMethod;
  /** As the document writes it: `/api/oral-photo/{id}/`. */
  path: string;
  parameters: OpenApiParameter[];
  body: JsonSchema | undefined;
  responses: OpenApiOperation['responses'];
}

export interface FuzzRequest {
  operation: Operation;
  url: string;
  body: unknown;
  /** Whether the request was built to pass its schemas (the API may still refuse it). */
  valid: boolean;
}

/** Every operation of the document. */
export function operationsOf(document: OpenApiDocument): Operation[] {
  return Object.entries(document.paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod).map(([method, operation]) => ({
      method: method.toUpperCase() as HttpMethod,
      path,
      parameters: operation.parameters ?? [],
      body: operation.requestBody?.content['application/json']?.schema,
      responses: operation.responses,
    })),
  );
}

/** Query values travel as text; lists as the key repeated. */
function queryString(entries: [string, unknown][]): string {
  const query = new URLSearchParams();
  for (const [name, value] of entries) {
    for (const item of Array.isArray(value) ? value : [value]) {
      query.append(name, typeof item === 'string' ? item : JSON.stringify(item));
    }
  }
  const text = query.toString();
  return text === '' ? '' : `?${text}`;
}

/** Lone surrogates become U+FFFD, as a browser's URL encoder sends them. */
const wellFormed = (text: string) => Buffer.from(text, 'utf8').toString('utf8');

const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

function parameterValue(
  parameter: OpenApiParameter,
  valid: boolean,
  hints: FieldHints,
): fc.Arbitrary<unknown> {
  const generated = valid ? validValue(parameter.schema, hints) : invalidValue(parameter.schema);
  const hint = hints[parameter.name];
  return hint === undefined ? generated : fc.oneof(hint, generated);
}

/**
 * Requests for one operation: valid ones from its schemas, and invalid ones with one part broken
 * (a path or query value, or the body).
 */
export function requestsFor(operation: Operation, hints: FieldHints): fc.Arbitrary<FuzzRequest> {
  const pathParameters = operation.parameters.filter((parameter) => parameter.in === 'path');
  const queryParameters = operation.parameters.filter((parameter) => parameter.in === 'query');
  return fc.boolean().chain((valid) => {
    const path = fc.tuple(
      ...pathParameters.map((parameter) => parameterValue(parameter, valid, hints)),
    );
    const query = fc.tuple(
      ...queryParameters.map((parameter) =>
        fc.option(parameterValue(parameter, valid, hints), { nil: undefined }),
      ),
    );
    const body =
      operation.body === undefined
        ? fc.option(hostileValue, { nil: undefined, freq: 4 })
        : valid
          ? validValue(operation.body, hints)
          : invalidObject(operation.body, hints);
    return fc
      .record({ path, query, body })
      .map(({ path: pathValues, query: queryValues, body }) => {
        let url = operation.path;
        pathParameters.forEach((parameter, index) => {
          url = url.replace(
            `{${parameter.name}}`,
            encodeURIComponent(wellFormed(asText(pathValues[index]))),
          );
        });
        const queryEntries = queryParameters
          .map((parameter, index): [string, unknown] => [parameter.name, queryValues[index]])
          .filter(([, value]) => value !== undefined);
        return { operation, url: url + queryString(queryEntries), body, valid };
      });
  });
}
