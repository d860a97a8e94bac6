import type { Readable } from 'node:stream';
import type { BundleEntry, Identifier, Resource } from '@medplum/fhirtypes';
import type { ArchivedFile } from './archive-layout';
import { urn, type FhirRecord } from './fhir-bundle';

/** `collection`: the record as it stands, every reference inside it. `transaction`: the same
 *  entries as conditional creates a FHIR server accepts (docs/decisions/fhir-export.md). */
export type BundleKind = 'collection' | 'transaction';

export interface BundleHeader {
  identifier: Identifier;
  timestamp: string;
}

/** Opens a file's bytes for its Binary; a file the archive already holds, so one that is gone
 *  now fails the build (and its retry starts over). */
export type OpenFile = (file: ArchivedFile) => Promise<Readable>;

/** The search that finds a resource already imported: its first identifier. */
function ifNoneExist(resource: Resource): string | undefined {
  const identifier = 'identifier' in resource ? resource.identifier : undefined;
  const first: Identifier | undefined = Array.isArray(identifier) ? identifier[0] : identifier;
  if (first?.system === undefined || first.value === undefined) return undefined;
  return `identifier=${encodeURIComponent(first.system)}|${encodeURIComponent(first.value)}`;
}

function entryOf(kind: BundleKind, resource: Resource & { id: string }): BundleEntry {
  if (kind === 'collection') return { fullUrl: urn(resource.id), resource };
  // A server gives a created resource its own id; references by full URL are rewritten to it.
  const { id, ...created } = resource;
  const condition = ifNoneExist(resource);
  return {
    fullUrl: urn(id),
    resource: created,
    request: {
      method: 'POST',
      url: resource.resourceType,
      ...(condition === undefined ? {} : { ifNoneExist: condition }),
    },
  };
}

/** The bytes as base64, chunk by chunk: each chunk is cut at a multiple of 3 bytes, so that the
 *  pieces join into one valid base64 text. */
async function* base64Of(source: Readable): AsyncGenerator<string> {
  let carry = Buffer.alloc(0);
  for await (const chunk of source) {
    const bytes = Buffer.concat([carry, chunk as Buffer]);
    const whole = bytes.length - (bytes.length % 3);
    carry = bytes.subarray(whole);
    if (whole > 0) yield bytes.subarray(0, whole).toString('base64');
  }
  if (carry.length > 0) yield carry.toString('base64');
}

/**
 * The Bundle's JSON, written piece by piece: the resources one entry at a time and each file's
 * bytes streamed into its Binary, so that a member with many photos never has the Bundle (or more
 * than a chunk of one file) in memory.
 */
export async function* bundleJson(
  kind: BundleKind,
  fhir: FhirRecord,
  header: BundleHeader,
  openFile: OpenFile,
): AsyncGenerator<string> {
  const head = {
    resourceType: 'Bundle',
    identifier: header.identifier,
    type: kind,
    timestamp: header.timestamp,
  };
  yield `${JSON.stringify(head, null, 2).slice(0, -2)},\n  "entry": [\n`;
  let first = true;
  const separator = () => {
    const text = first ? '' : ',\n';
    first = false;
    return text;
  };
  for (const resource of fhir.resources) {
    yield `${separator()}${JSON.stringify(entryOf(kind, resource))}`;
  }
  for (const { id, file } of fhir.binaries) {
    const source = await openFile(file);
    const binary = { resourceType: 'Binary', contentType: file.contentType };
    const resource = kind === 'collection' ? { ...binary, id } : binary;
    // The entry up to the data's opening quote, the data, then the rest.
    const entry = JSON.stringify({ fullUrl: urn(id), resource: { ...resource, data: '' } });
    yield `${separator()}${entry.slice(0, entry.lastIndexOf('""}}') + 1)}`;
    yield* base64Of(source);
    const request =
      kind === 'collection'
        ? ''
        : `,"request":${JSON.stringify({ method: 'POST', url: 'Binary' })}`;
    yield `"}${request}}`;
  }
  yield '\n  ]\n}\n';
}
