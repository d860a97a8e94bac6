import type {
  Appointment,
  Attachment,
  Bundle,
  BundleEntry,
  DiagnosticReport,
  DocumentReference,
  Media,
  Observation,
  Resource,
} from '@medplum/fhirtypes';
import {
  imageKindNames,
  imageKinds,
  photoTypes,
  type DentalAiType,
  type ImageKind,
  type PhotoType,
} from '@dental/contracts';
import type { Detection } from '#api/adapters/detector/detector';
import { uuidV5 } from '#api/lib/uuid-v5';

/** One thing an import brings into the record, with the attachments its files come from. */
export type PlannedItem =
  | {
      kind: 'oral_photo';
      shootDate: string;
      photoType: PhotoType;
      note: string;
      teeth: number[];
      /** The DICOM original when the Bundle has one: the image is rendered from it again. */
      file: Attachment;
    }
  | {
      kind: 'medical_record';
      title: string;
      recordDate: string;
      note: string;
      createdAt: Date | undefined;
      updatedAt: Date | undefined;
      files: { attachment: Attachment; fileName: string; createdAt: Date | undefined }[];
    }
  | { kind: 'appointment'; appointmentDate: Date; note: string; createdAt: Date | undefined }
  | {
      kind: 'dental_ai_result';
      dentalAi: DentalAiType;
      imageKind: ImageKind;
      modelName: string;
      modelVersion: string;
      detections: Detection[];
      createdAt: Date | undefined;
      image: Attachment;
    };

export type PlannedKind = PlannedItem['kind'];

export interface Planned {
  /** The entry's identities: its full URL, and its id (a row id when it came from this app). */
  source: string;
  id: string | undefined;
  resourceType: string;
  item: PlannedItem;
}

export interface PlanError {
  entry: string | null;
  resourceType: string | null;
  detail: string;
}

export interface BundlePlan {
  items: Planned[];
  errors: PlanError[];
  /** `Binary` resources by full URL, the files of a Bundle that carries them. */
  binaries: ReadonlyMap<string, { contentType?: string; data?: string }>;
}

/** The titles 'Download my data' gives each Dental AI run's Observation. */
const dentalAiTitles: Record<string, DentalAiType> = {
  'Dental AI caries detection': 'caries',
  'Dental AI wisdom teeth detection': 'wisdom_teeth',
};
const dicomOriginalText = 'X-ray (DICOM original)';
const consultationDescription = 'Virtual dental consultation';

const isDentalAi = (title: string | undefined) => dentalAiTitles[title ?? ''] !== undefined;

const isPhotoType = (text: string | undefined): text is PhotoType =>
  (photoTypes as readonly (string | undefined)[]).includes(text);

const date = (value: string | undefined): Date | undefined => {
  if (value === undefined) return undefined;
  const parsed = new Date(value);
  return Number.isNaN(parsed.getTime()) ? undefined : parsed;
};

const identity = (entry: BundleEntry): string =>
  entry.fullUrl ?? `${entry.resource?.resourceType ?? 'Resource'}/${entry.resource?.id ?? '?'}`;

/** A box, when the label, its four corners and the confidence are all numbers. */
function detectionOf(
  label: string | undefined,
  numbers: Partial<Record<string, number | undefined>>,
): Detection | undefined {
  const { xmin, ymin, xmax, ymax, confidence } = numbers;
  if (
    label === undefined ||
    xmin === undefined ||
    ymin === undefined ||
    xmax === undefined ||
    ymax === undefined ||
    confidence === undefined ||
    ![xmin, ymin, xmax, ymax, confidence].every(Number.isFinite)
  ) {
    return undefined;
  }
  return { label, xmin, ymin, xmax, ymax, confidence };
}

/** The id of the row an entry was made of: its own, its identifier's, or its full URL's. */
function rowIdOf(entry: BundleEntry): string | undefined {
  const resource = entry.resource;
  const identifier =
    resource !== undefined && 'identifier' in resource ? resource.identifier : undefined;
  const first: { value?: string } | undefined = Array.isArray(identifier)
    ? identifier[0]
    : identifier;
  return resource?.id ?? first?.value ?? /^urn:uuid:(.+)$/.exec(entry.fullUrl ?? '')?.[1];
}

/** An entry left out, and why. */
interface NotImported {
  notImported: string;
}

class Unreadable extends Error {}

function required<T>(value: T | undefined | null, what: string): T {
  if (value === undefined || value === null) throw new Unreadable(`It has no ${what}.`);
  return value;
}

/**
 * What a Bundle made by 'Download my data' brings into a record (docs/decisions/data-import.md):
 * photos and X-rays (Media), medical and insurance records (DocumentReference), appointments,
 * and Dental AI results (Observation with the image it was drawn on). The member themself
 * (Patient) and the files (Binary) are part of those; any other entry is listed as not imported.
 */
export function planBundle(bundle: Bundle): BundlePlan {
  const entries = bundle.entry ?? [];
  const byUrl = new Map(
    entries.flatMap((entry) => (entry.fullUrl ? [[entry.fullUrl, entry]] : [])),
  );
  const binaries = new Map(
    entries.flatMap((entry) =>
      entry.fullUrl !== undefined && entry.resource?.resourceType === 'Binary'
        ? [[entry.fullUrl, entry.resource]]
        : [],
    ),
  );
  const resolve = (reference: string | undefined): Resource | undefined =>
    reference === undefined ? undefined : byUrl.get(reference)?.resource;
  // Entries that belong to another: a Dental AI run's image and boxes, an X-ray's DICOM original.
  const partOf = new Set<string>();
  const dicomOriginals = new Map<string, Media>();
  for (const entry of entries) {
    const resource = entry.resource;
    if (resource?.resourceType === 'DiagnosticReport' && isDentalAi(resource.code.text)) {
      for (const { reference } of resource.result ?? []) if (reference) partOf.add(reference);
      for (const { link } of resource.media ?? []) if (link.reference) partOf.add(link.reference);
    }
    // A Dental AI run as one Observation, as exports before 2026-11-29 wrote it.
    if (resource?.resourceType === 'Observation' && isDentalAi(resource.code.text)) {
      for (const ref of resource.derivedFrom ?? []) if (ref.reference) partOf.add(ref.reference);
    }
    if (resource?.resourceType === 'Media' && resource.modality?.text === dicomOriginalText) {
      if (entry.fullUrl !== undefined) {
        partOf.add(entry.fullUrl);
        dicomOriginals.set(entry.fullUrl, resource);
      }
    }
  }

  const items: Planned[] = [];
  const errors: PlanError[] = [];
  const notImported = (entry: BundleEntry, detail: string) => {
    errors.push({
      entry: identity(entry),
      resourceType: entry.resource?.resourceType ?? null,
      detail,
    });
  };
  for (const entry of entries) {
    const resource: Resource | undefined = entry.resource;
    if (resource === undefined) {
      notImported(entry, 'Not imported: the entry has no resource.');
      continue;
    }
    const source = identity(entry);
    try {
      const item = itemOf(resource, entry, { partOf, dicomOriginals, resolve });
      // Part of another entry (the member, a file): neither imported nor an error.
      if (item === undefined) continue;
      if ('notImported' in item) {
        notImported(entry, item.notImported);
        continue;
      }
      items.push({ source, id: rowIdOf(entry), resourceType: resource.resourceType, item });
    } catch (error) {
      if (!(error instanceof Unreadable)) throw error;
      notImported(entry, `Not imported: ${error.message}`);
    }
  }
  return { items, errors, binaries };
}

type Resolve = (reference: string | undefined) => Resource | undefined;

function itemOf(
  resource: Resource,
  entry: BundleEntry,
  bundle: {
    partOf: ReadonlySet<string>;
    dicomOriginals: ReadonlyMap<string, Media>;
    resolve: Resolve;
  },
): PlannedItem | NotImported | undefined {
  if (entry.fullUrl !== undefined && bundle.partOf.has(entry.fullUrl)) return undefined;
  switch (resource.resourceType) {
    // The member is the one importing; the files come with the entries that use them; the
    // practice, its doctors and the Dental AI models are described by what refers to them.
    case 'Patient':
    case 'Binary':
    case 'Organization':
    case 'Practitioner':
    case 'Device':
      return undefined;
    case 'Media':
      return photoOf(resource, rowIdOf(entry), bundle.dicomOriginals);
    case 'DocumentReference':
      return recordOf(resource);
    case 'Appointment':
      return appointmentOf(resource);
    case 'DiagnosticReport':
      return dentalAiReportOf(resource, bundle.resolve);
    case 'Observation':
      return dentalAiObservationOf(resource, bundle.resolve);
    default:
      return { notImported: `Not imported: this app keeps no ${resource.resourceType}.` };
  }
}

function photoOf(
  media: Media,
  rowId: string | undefined,
  dicomOriginals: ReadonlyMap<string, Media>,
): PlannedItem | NotImported {
  const photoType = media.modality?.text;
  if (!isPhotoType(photoType)) {
    return { notImported: 'Not imported: only photos and X-rays are imported as images.' };
  }
  const original =
    rowId === undefined
      ? undefined
      : dicomOriginals.get(`urn:uuid:${uuidV5('dicom-original', rowId)}`);
  const shootDate = required(media.createdDateTime, 'date taken').slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(shootDate)) throw new Unreadable('Its date taken is not a date.');
  return {
    kind: 'oral_photo',
    shootDate,
    photoType,
    note: media.note?.[0]?.text ?? '',
    teeth: (media.bodySite?.coding ?? [])
      .map((coding) => Number(coding.code))
      .filter((tooth) => Number.isInteger(tooth))
      .sort((a, b) => a - b),
    file: required(original?.content ?? media.content, 'image'),
  };
}

function recordOf(document: DocumentReference): PlannedItem {
  const [first, ...rest] = document.content;
  // The export puts the title and note first, as a text attachment; a Bundle from elsewhere may
  // start with a file.
  const noteFirst = first?.attachment.contentType?.startsWith('text/plain') === true;
  const files = noteFirst ? rest : document.content;
  return {
    kind: 'medical_record',
    title: required(document.description ?? first?.attachment.title, 'title'),
    recordDate: required(document.context?.period?.start ?? document.date, 'record date').slice(
      0,
      10,
    ),
    note:
      noteFirst && first.attachment.data !== undefined
        ? Buffer.from(first.attachment.data, 'base64').toString('utf8')
        : '',
    createdAt: date(noteFirst ? first.attachment.creation : undefined),
    updatedAt: date(document.date),
    files: files.map(({ attachment }) => ({
      attachment,
      fileName: attachment.title ?? 'file',
      createdAt: date(attachment.creation),
    })),
  };
}

function appointmentOf(appointment: Appointment): PlannedItem | NotImported {
  if (appointment.description === consultationDescription) {
    return {
      notImported:
        'Not imported: a virtual consultation is booked with this practice’s own doctors.',
    };
  }
  return {
    kind: 'appointment',
    appointmentDate: required(date(appointment.start), 'start'),
    note: appointment.comment ?? '',
    createdAt: date(appointment.created),
  };
}

/** The kind of image a run read, from 'read as …' in its method or the image's modality. */
const imageKindOf = (text: string | undefined): ImageKind =>
  imageKinds.find((kind) => imageKindNames[kind] === /(?:read as )?(.+)$/.exec(text ?? '')?.[1]) ??
  'xray';

/** A Dental AI run as a DiagnosticReport with one Observation per box, as the export writes it
 *  (docs/decisions/fhir-export.md): the model from the boxes' Device, or, for a run that marked
 *  nothing, from the report's narrative. */
function dentalAiReportOf(report: DiagnosticReport, resolve: Resolve): PlannedItem | NotImported {
  const dentalAi = dentalAiTitles[report.code.text ?? ''];
  if (dentalAi === undefined) {
    return { notImported: 'Not imported: only Dental AI results are imported as reports.' };
  }
  const boxes = (report.result ?? []).map(({ reference }) => {
    const observation = resolve(reference);
    if (observation?.resourceType !== 'Observation') throw new Unreadable('A box is missing.');
    return observation;
  });
  const corner = (observation: Observation, name: string) =>
    observation.component?.find(
      (component) =>
        component.code.text === name ||
        component.code.coding?.some((coding) => coding.code === name) === true,
    )?.valueQuantity?.value;
  const detections = boxes.map((box) => {
    const detection = detectionOf(box.code.text, {
      xmin: corner(box, 'xmin'),
      ymin: corner(box, 'ymin'),
      xmax: corner(box, 'xmax'),
      ymax: corner(box, 'ymax'),
      confidence: box.valueQuantity?.value,
    });
    if (detection === undefined) throw new Unreadable('One of its boxes cannot be read.');
    return detection;
  });
  const device = resolve(boxes[0]?.device?.reference);
  const model =
    device?.resourceType === 'Device'
      ? [device.deviceName?.[0]?.name, device.version?.[0]?.value]
      : / by (.+?) (\S+): /.exec(plainText(report.text?.div))?.slice(1);
  const image = resolve(report.media?.[0]?.link.reference);
  return {
    kind: 'dental_ai_result',
    dentalAi,
    imageKind: imageKindOf(
      boxes[0]?.method?.text ??
        (image?.resourceType === 'Media' ? image.modality?.text : undefined),
    ),
    modelName: required(model?.[0], 'model'),
    modelVersion: required(model?.[1], 'model version'),
    detections,
    createdAt: date(report.effectiveDateTime ?? report.issued),
    image: required(image?.resourceType === 'Media' ? image.content : undefined, 'image'),
  };
}

/** The text of a narrative's XHTML, its entities read. */
function plainText(div: string | undefined): string {
  return (div ?? '')
    .replaceAll(/<[^>]*>/g, ' ')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&amp;', '&');
}

/** A Dental AI run as one Observation, each box a component in words, as exports before
 *  2026-11-29 wrote it. */
function dentalAiObservationOf(
  observation: Observation,
  resolve: Resolve,
): PlannedItem | NotImported {
  const dentalAi = dentalAiTitles[observation.code.text ?? ''];
  if (dentalAi === undefined) {
    return { notImported: 'Not imported: only Dental AI results are imported as observations.' };
  }
  const model = /^Dental AI model (.+), version (.+)$/.exec(observation.device?.display ?? '');
  const image = resolve(observation.derivedFrom?.[0]?.reference);
  const detections = (observation.component ?? []).map((component) => {
    const numbers: Record<string, number> = {};
    for (const [, key, number] of (component.valueString ?? '').matchAll(
      /(\w+)=(-?[\d.]+(?:e-?\d+)?)/g,
    )) {
      if (key !== undefined) numbers[key] = Number(number);
    }
    const detection = detectionOf(component.code.text, numbers);
    if (detection === undefined) throw new Unreadable('One of its boxes cannot be read.');
    return detection;
  });
  return {
    kind: 'dental_ai_result',
    dentalAi,
    imageKind: imageKindOf(observation.method?.text),
    modelName: required(model?.[1], 'model'),
    modelVersion: required(model?.[2], 'model version'),
    detections,
    createdAt: date(observation.issued ?? observation.effectiveDateTime),
    image: required(image?.resourceType === 'Media' ? image.content : undefined, 'image'),
  };
}
