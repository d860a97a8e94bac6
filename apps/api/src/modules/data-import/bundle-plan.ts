import type {
  Appointment,
  Attachment,
  Bundle,
  BundleEntry,
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

const isPhotoType = (text: string | undefined): text is PhotoType =>
  (photoTypes as readonly (string | undefined)[]).includes(text);

const date = (value: string | undefined): Date | undefined => {
  if (value === undefined) return undefined;
  const parsed = new Date(value);
  return Number.isNaN(parsed.getTime()) ? undefined : parsed;
};

const identity = (entry: BundleEntry): string =>
  entry.fullUrl ?? `${entry.resource?.resourceType ?? 'Resource'}/${entry.resource?.id ?? '?'}`;

/** `xmin=… ymin=… xmax=… ymax=… confidence=…`, as the export writes each box. */
function detectionOf(label: string | undefined, value: string | undefined): Detection | undefined {
  const numbers = new Map(
    [...(value ?? '').matchAll(/(\w+)=(-?[\d.]+(?:e-?\d+)?)/g)].map(
      ([, key, number]): [string | undefined, number] => [key, Number(number)],
    ),
  );
  const [xmin, ymin, xmax, ymax, confidence] = ['xmin', 'ymin', 'xmax', 'ymax', 'confidence'].map(
    (key) => numbers.get(key),
  );
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
  const media = (reference: string | undefined): Media | undefined => {
    const resource = reference === undefined ? undefined : byUrl.get(reference)?.resource;
    return resource?.resourceType === 'Media' ? resource : undefined;
  };
  // Media that belong to another entry: a Dental AI result's image, an X-ray's DICOM original.
  const partOf = new Set<string>();
  const dicomOriginals = new Map<string, Media>();
  for (const entry of entries) {
    const resource = entry.resource;
    if (
      resource?.resourceType === 'Observation' &&
      dentalAiTitles[resource.code.text ?? ''] !== undefined
    ) {
      for (const ref of resource.derivedFrom ?? []) if (ref.reference) partOf.add(ref.reference);
    }
    if (resource?.resourceType === 'Media' && resource.modality?.text === dicomOriginalText) {
      if (entry.fullUrl !== undefined) partOf.add(entry.fullUrl);
      if (resource.id !== undefined) dicomOriginals.set(resource.id, resource);
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
      const item = itemOf(resource, entry, { partOf, dicomOriginals, media });
      // Part of another entry (the member, a file): neither imported nor an error.
      if (item === undefined) continue;
      if ('notImported' in item) {
        notImported(entry, item.notImported);
        continue;
      }
      items.push({ source, id: resource.id, resourceType: resource.resourceType, item });
    } catch (error) {
      if (!(error instanceof Unreadable)) throw error;
      notImported(entry, `Not imported: ${error.message}`);
    }
  }
  return { items, errors, binaries };
}

function itemOf(
  resource: Resource,
  entry: BundleEntry,
  bundle: {
    partOf: ReadonlySet<string>;
    dicomOriginals: ReadonlyMap<string, Media>;
    media: (reference: string | undefined) => Media | undefined;
  },
): PlannedItem | NotImported | undefined {
  switch (resource.resourceType) {
    // The member is the one importing; the files come with the entries that use them.
    case 'Patient':
    case 'Binary':
      return undefined;
    case 'Media':
      if (entry.fullUrl !== undefined && bundle.partOf.has(entry.fullUrl)) return undefined;
      return photoOf(resource, bundle.dicomOriginals);
    case 'DocumentReference':
      return recordOf(resource);
    case 'Appointment':
      return appointmentOf(resource);
    case 'Observation':
      return dentalAiOf(resource, bundle.media);
    default:
      return { notImported: `Not imported: this app keeps no ${resource.resourceType}.` };
  }
}

function photoOf(
  media: Media,
  dicomOriginals: ReadonlyMap<string, Media>,
): PlannedItem | NotImported {
  const photoType = media.modality?.text;
  if (!isPhotoType(photoType)) {
    return { notImported: 'Not imported: only photos and X-rays are imported as images.' };
  }
  const original =
    media.id === undefined ? undefined : dicomOriginals.get(uuidV5('dicom-original', media.id));
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

function dentalAiOf(
  observation: Observation,
  media: (reference: string | undefined) => Media | undefined,
): PlannedItem | NotImported {
  const dentalAi = dentalAiTitles[observation.code.text ?? ''];
  if (dentalAi === undefined) {
    return { notImported: 'Not imported: only Dental AI results are imported as observations.' };
  }
  const model = /^Dental AI model (.+), version (.+)$/.exec(observation.device?.display ?? '');
  const readAs = /, read as (.+)$/.exec(observation.method?.text ?? '')?.[1];
  const imageKind = imageKinds.find((kind) => imageKindNames[kind] === readAs) ?? 'xray';
  const image = media(observation.derivedFrom?.[0]?.reference);
  const detections = (observation.component ?? []).map((component) =>
    detectionOf(component.code.text, component.valueString),
  );
  if (detections.some((detection) => detection === undefined)) {
    throw new Unreadable('One of its boxes cannot be read.');
  }
  return {
    kind: 'dental_ai_result',
    dentalAi,
    imageKind,
    modelName: required(model?.[1], 'model'),
    modelVersion: required(model?.[2], 'model version'),
    detections: detections.filter((detection) => detection !== undefined),
    createdAt: date(observation.issued ?? observation.effectiveDateTime),
    image: required(image?.content, 'image'),
  };
}
