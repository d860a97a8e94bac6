import type {
  Appointment,
  Attachment,
  ClinicalImpression,
  Communication,
  Device,
  DiagnosticReport,
  DocumentReference,
  HumanName,
  Identifier,
  Media,
  Narrative,
  Observation,
  ObservationComponent,
  Organization,
  Patient,
  Practitioner,
  QuestionnaireResponse,
  Reference,
  Resource,
  ServiceRequest,
} from '@medplum/fhirtypes';
import { imageKindNames, slotMinutes } from '@dental/contracts';
import type { DentalAiResultRow, OralPhotoRow } from '#api/db/schema';
import { escapeHtml } from '#api/lib/html';
import { uuidV5 } from '#api/lib/uuid-v5';
import type { ArchivedFile, ArchiveLayout } from './archive-layout';
import type { ExportedConsultation, MemberRecord } from './data-export.repository';
import {
  boxCorners,
  clinicalNoteCategory,
  concept,
  findingConcept,
  imagingCategory,
  imagingReportCode,
  medicalRecordsType,
  modalities,
  radiologyCategory,
  systems,
  usCoreProfiles,
} from './fhir-codes';

export interface BundleSettings {
  exportedAt: Date;
  companyName: string;
  /** The server's address: identifiers are scoped by it. */
  publicUrl: string;
  /** Each archived file's digest by its path; a file without one was left out of the archive
   *  (damaged), so its attachment has no URL. */
  archived: ReadonlyMap<string, ArchivedDigest>;
}

/** A file as the archive holds it: SHA-1 (base64, as FHIR's Attachment.hash asks) and bytes. */
export interface ArchivedDigest {
  sha1: string;
  size: number;
}

/** A file the Bundle carries as a `Binary` resource; its bytes are streamed in when the Bundle
 *  is written (`fhir-bundle-json.ts`), never held here. */
export interface BundledFile {
  id: string;
  file: ArchivedFile;
}

/** The member's record as FHIR resources, and the files to carry as `Binary` resources. */
export interface FhirRecord {
  resources: (Resource & { id: string })[];
  binaries: BundledFile[];
}

export const urn = (id: string) => `urn:uuid:${id}`;

/** Resources with no row of their own (the image a Dental AI result was drawn on, a booking's
 *  answers, a file's Binary) get a UUID derived from the row's, so that the same record exports
 *  the same ids. */
const derivedId = (kind: string, rowId: string) => uuidV5(kind, rowId);
/** RFC 9562's namespace for names that are URLs. */
const urlNamespace = '6ba7b811-9dad-11d1-80b4-00c04fd430c8';
const ref = <T extends Resource>(id: string, display?: string): Reference<T> =>
  display === undefined ? { reference: urn(id) } : { reference: urn(id), display };

/** Narrative text every resource carries, so that a person reads it in any FHIR viewer. */
const narrative = (...lines: string[]): Narrative => ({
  status: 'generated',
  div: `<div xmlns="http://www.w3.org/1999/xhtml">${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('')}</div>`,
});

/** FDI (ISO 3950) tooth numbers in HL7's tooth code system. */
const teethSite = (teeth: readonly number[]) => ({
  coding: teeth.map((tooth) => ({ system: systems.fdiTooth, code: String(tooth) })),
  text: `${teeth.length === 1 ? 'Tooth' : 'Teeth'} ${teeth.join(', ')} (FDI)`,
});

const dentalAiTitles: Record<DentalAiResultRow['dentalAi'], string> = {
  caries: 'Dental AI caries detection',
  wisdom_teeth: 'Dental AI wisdom teeth detection',
};

/** Wisdom teeth models read panoramic X-rays only; the kind of any other X-ray is not held. */
const dentalAiModality = (row: DentalAiResultRow) =>
  row.imageKind === 'photo'
    ? modalities.photo
    : row.dentalAi === 'wisdom_teeth'
      ? modalities.panoramic
      : modalities.xray;

const photoModality = (photo: OralPhotoRow) =>
  photo.photoType === 'Photo' ? modalities.photo : modalities.xray;

/** How a consultation stands: cancelled, fulfilled once the doctor's summary is written, else
 *  booked. */
const consultationStatus = ({
  reservation,
  summary,
}: ExportedConsultation): Appointment['status'] =>
  reservation.status === 'cancelled' ? 'cancelled' : summary === undefined ? 'booked' : 'fulfilled';

/**
 * The member's record as FHIR R4 resources (docs/decisions/fhir-export.md): US Core 6.1 profiles
 * where one applies, coded with LOINC, SNOMED CT, DICOM and FDI tooth numbers, narrative on every
 * resource, an identifier scoped by the server's address on each (an importer's duplicate check),
 * and every file as a `Binary` the attachments point at.
 */
export function fhirRecord(
  record: MemberRecord,
  layout: ArchiveLayout,
  settings: BundleSettings,
): FhirRecord {
  const patientId = record.member.id;
  const subject = ref<Patient>(patientId, record.member.username);
  const idSystem = `${settings.publicUrl}/fhir-id`;
  const identifier = (id: string): Identifier[] => [{ system: idSystem, value: id }];
  const binaries: BundledFile[] = [];
  // Resources named by something other than a row id (the practice, a model, a file) get a UUID
  // of that name within this installation.
  const installation = uuidV5(settings.publicUrl, urlNamespace);
  const namedId = (kind: string, name: string) => uuidV5(`${kind}:${name}`, installation);

  /** The file as a Binary of the Bundle, when it is in the archive (a damaged one is not). */
  const attachment = (file: ArchivedFile): Attachment => {
    const digest = settings.archived.get(file.path);
    if (digest === undefined) {
      const size = file.sizeBytes === undefined ? {} : { size: file.sizeBytes };
      return { contentType: file.contentType, title: file.title, ...size };
    }
    const id = namedId('binary', file.path);
    binaries.push({ id, file });
    const { sha1: hash, size } = digest;
    return { contentType: file.contentType, url: urn(id), hash, title: file.title, size };
  };

  const organizationId = namedId('organization', settings.companyName);
  const organization: Organization & { id: string } = {
    resourceType: 'Organization',
    id: organizationId,
    meta: { profile: [usCoreProfiles.Organization] },
    text: narrative(`The dental practice ${settings.companyName}.`),
    identifier: identifier(organizationId),
    active: true,
    name: settings.companyName,
    telecom: [{ system: 'url', value: settings.publicUrl }],
  };
  const practice = ref<Organization>(organizationId, settings.companyName);

  // One Practitioner per person: a doctor with a staff account is the same one who reviews.
  const practitioners = new Map<string, Practitioner & { id: string }>();
  const practitioner = (key: string, name: string): Reference<Practitioner> => {
    const id = namedId('practitioner', key);
    if (!practitioners.has(id)) {
      practitioners.set(id, {
        resourceType: 'Practitioner',
        id,
        meta: { profile: [usCoreProfiles.Practitioner] },
        text: narrative(`${name}, dentist at ${settings.companyName}.`),
        identifier: identifier(id),
        active: true,
        // The product keeps a practitioner's name as one text, not split into its parts.
        name: [{ text: name }],
      });
    }
    return ref<Practitioner>(id, name);
  };

  const { givenName, familyName, birthDate, sex, username } = record.member;
  const legalName = [givenName, familyName].filter((part) => part !== null).join(' ');
  const names: HumanName[] =
    legalName === ''
      ? // Only the name the member goes by: US Core asks for a reason when no part is known.
        [
          {
            text: username,
            extension: [
              {
                url: 'http://hl7.org/fhir/StructureDefinition/data-absent-reason',
                valueCode: 'unknown',
              },
            ],
          },
        ]
      : [
          {
            use: 'official',
            text: legalName,
            ...(familyName === null ? {} : { family: familyName }),
            ...(givenName === null ? {} : { given: [givenName] }),
          },
          { use: 'usual', text: username },
        ];
  const patient: Patient & { id: string } = {
    resourceType: 'Patient',
    id: patientId,
    meta: { profile: [usCoreProfiles.Patient] },
    text: narrative(
      `${legalName === '' ? username : legalName}, a member of ${settings.companyName}.`,
      ...(birthDate === null ? [] : [`Born ${birthDate}.`]),
    ),
    identifier: [{ system: `${settings.publicUrl}/member`, value: patientId }],
    active: true,
    name: names,
    telecom: [
      { system: 'email', value: record.member.email },
      ...(record.member.phone === null
        ? []
        : [{ system: 'phone' as const, value: record.member.phone }]),
    ],
    // US Core needs a gender: 'unknown' until the member gives one.
    gender: sex ?? 'unknown',
    ...(birthDate === null ? {} : { birthDate }),
    managingOrganization: practice,
  };

  const media = (
    id: string,
    file: ArchivedFile,
    summary: string,
    fields: Omit<Media, 'resourceType' | 'id' | 'status' | 'subject' | 'content'>,
  ): Media & { id: string } => ({
    resourceType: 'Media',
    id,
    text: narrative(summary),
    identifier: identifier(id),
    status: 'completed',
    type: concept(systems.mediaType, 'image', 'Image'),
    subject,
    content: attachment(file),
    ...fields,
  });

  const photos = record.photos.flatMap((photo: OralPhotoRow): (Media & { id: string })[] => {
    const fields = {
      modality: { coding: [photoModality(photo)], text: photo.photoType },
      createdDateTime: photo.shootDate,
      ...(photo.teeth.length === 0 ? {} : { bodySite: teethSite(photo.teeth) }),
      ...(photo.note === '' ? {} : { note: [{ text: photo.note }] }),
    };
    const { originalKey } = photo;
    const summary = `${photo.photoType} taken ${photo.shootDate}${photo.note === '' ? '' : `: ${photo.note}`}`;
    const shown = media(photo.id, layout.photo(photo), summary, fields);
    if (originalKey === null) return [shown];
    // An imported DICOM file stays as it came; the rendered image is the one the app shows.
    return [
      shown,
      media(
        derivedId('dicom-original', photo.id),
        layout.dicomOriginal({ ...photo, originalKey }),
        `The DICOM file the X-ray of ${photo.shootDate} was imported from.`,
        { ...fields, modality: { coding: [modalities.xray], text: 'X-ray (DICOM original)' } },
      ),
    ];
  });

  const documents = record.records.map(
    ({ record: row, files }): DocumentReference & { id: string } => {
      const noteAttachment: Attachment = {
        contentType: 'text/plain; charset=utf-8',
        title: row.title,
        data: Buffer.from(row.note, 'utf8').toString('base64'),
        creation: row.createdAt.toISOString(),
      };
      return {
        resourceType: 'DocumentReference',
        id: row.id,
        meta: { profile: [usCoreProfiles.DocumentReference] },
        text: narrative(`${row.title}, dated ${row.recordDate}.`, row.note),
        identifier: identifier(row.id),
        status: 'current',
        type: medicalRecordsType,
        category: [clinicalNoteCategory],
        subject,
        date: row.updatedAt.toISOString(),
        description: row.title,
        context: { period: { start: row.recordDate } },
        // The title and note come first, so a record without files still has its one content.
        content: [
          { attachment: noteAttachment },
          ...files.map((file) => ({
            attachment: {
              ...attachment(layout.recordFile(file)),
              creation: file.createdAt.toISOString(),
            },
          })),
        ],
      };
    },
  );

  const appointments = record.appointments.map((row): Appointment & { id: string } => ({
    resourceType: 'Appointment',
    id: row.id,
    text: narrative(
      `Dental appointment on ${row.appointmentDate.toISOString()}${row.note === '' ? '' : `: ${row.note}`}`,
      `How long it lasts was not recorded; its end is given ${String(slotMinutes)} minutes after its start.`,
    ),
    identifier: identifier(row.id),
    // The member notes an appointment with their own dentist: when it starts, not how long it
    // lasts. A booked FHIR appointment needs an end, so it is given one slot's length (stated in
    // its text), rather than ending when it starts.
    status: 'booked',
    description: 'Dental appointment',
    start: row.appointmentDate.toISOString(),
    end: new Date(row.appointmentDate.getTime() + slotMinutes * 60_000).toISOString(),
    created: row.createdAt.toISOString(),
    ...(row.note === '' ? {} : { comment: row.note }),
    participant: [{ actor: subject, status: 'accepted' }],
  }));

  // A Dental AI run is a DiagnosticReport with one Observation per box; a dentist's answered
  // review of the run makes it final, with the reviewer as performer.
  const reviewOfRun = new Map(
    record.reviews
      .filter((review) => review.status === 'answered' && review.dentalAiResultId !== null)
      .map((review) => [review.dentalAiResultId, review]),
  );
  const boxSystem = `${settings.publicUrl}/fhir/image-box`;
  // One Device per model and version, however many runs it made.
  const devices = new Map<string, Device & { id: string }>();
  const dentalAi = record.dentalAiResults.flatMap((row): (Resource & { id: string })[] => {
    const imageId = derivedId('dental-ai-image', row.id);
    const deviceId = namedId('device', `${row.modelName}|${row.modelVersion}`);
    const analysed = media(
      imageId,
      layout.dentalAiImage(row),
      `The image ${dentalAiTitles[row.dentalAi]} read, as ${imageKindNames[row.imageKind]}.`,
      {
        modality: { coding: [dentalAiModality(row)], text: imageKindNames[row.imageKind] },
        width: row.imageWidth,
        height: row.imageHeight,
        createdDateTime: row.createdAt.toISOString(),
      },
    );
    const review = reviewOfRun.get(row.id);
    const reviewer =
      review?.reviewerName == null
        ? undefined
        : practitioner(review.reviewerId ?? `name:${review.reviewerName}`, review.reviewerName);
    const status = review === undefined ? 'preliminary' : 'final';
    const observations = row.detections.map((box, index): Observation & { id: string } => {
      const id = derivedId(`dental-ai-box#${String(index)}`, row.id);
      const component: ObservationComponent[] = boxCorners.map((corner) => ({
        code: { coding: [{ system: boxSystem, code: corner }], text: corner },
        valueQuantity: { value: box[corner], unit: 'pixel' },
      }));
      return {
        resourceType: 'Observation',
        id,
        meta: { profile: [usCoreProfiles.Observation] },
        text: narrative(
          `${box.label}, marked by Dental AI with confidence ${box.confidence.toFixed(2)}, in the box from (${String(box.xmin)}, ${String(box.ymin)}) to (${String(box.xmax)}, ${String(box.ymax)}) pixels of the ${String(row.imageWidth)} × ${String(row.imageHeight)} image. Not a diagnosis.`,
        ),
        identifier: identifier(id),
        status,
        category: [imagingCategory],
        code: findingConcept(box.label),
        subject,
        effectiveDateTime: row.createdAt.toISOString(),
        issued: row.createdAt.toISOString(),
        // The model's score for the box, 0 to 1 (UCUM's unity).
        valueQuantity: {
          value: box.confidence,
          unit: 'confidence',
          system: systems.ucum,
          code: '1',
        },
        method: { text: `Dental AI, read as ${imageKindNames[row.imageKind]}` },
        device: ref<Device>(deviceId),
        derivedFrom: [ref<Media>(imageId)],
        component,
        ...(reviewer === undefined ? {} : { performer: [reviewer] }),
      };
    });
    devices.set(deviceId, {
      resourceType: 'Device',
      id: deviceId,
      text: narrative(`Dental AI model ${row.modelName}, version ${row.modelVersion}.`),
      identifier: identifier(deviceId),
      deviceName: [{ name: row.modelName, type: 'model-name' }],
      version: [{ value: row.modelVersion }],
      owner: practice,
    });
    const report: DiagnosticReport & { id: string } = {
      resourceType: 'DiagnosticReport',
      id: row.id,
      meta: { profile: [usCoreProfiles.DiagnosticReport] },
      text: narrative(
        `${dentalAiTitles[row.dentalAi]} by ${row.modelName} ${row.modelVersion}: ${row.detections.length === 0 ? 'nothing was marked' : `${String(row.detections.length)} area(s) marked`}. ${review === undefined ? 'Not reviewed by a dentist; not a diagnosis.' : 'Reviewed by a dentist.'}`,
      ),
      identifier: identifier(row.id),
      status,
      category: [radiologyCategory],
      code: { ...imagingReportCode, text: dentalAiTitles[row.dentalAi] },
      subject,
      effectiveDateTime: row.createdAt.toISOString(),
      issued: (review?.answeredAt ?? row.createdAt).toISOString(),
      ...(reviewer === undefined ? {} : { performer: [reviewer] }),
      result: observations.map((observation) => ref<Observation>(observation.id)),
      media: [{ link: ref<Media>(imageId) }],
      conclusion:
        row.detections.length === 0
          ? 'Nothing was marked.'
          : `Boxes are in pixels of the ${String(row.imageWidth)} × ${String(row.imageHeight)} image; this is not a diagnosis.`,
    };
    return [analysed, report, ...observations];
  });

  const consultations = record.consultations.flatMap(
    (consultation): (Resource & { id: string })[] => {
      const { reservation, doctor, answers, summary, summaryImages } = consultation;
      const start = reservation.reservationTime;
      const doctorRef = practitioner(doctor.userId ?? `doctor:${doctor.id}`, doctor.name);
      const answersId = derivedId('consultation-answers', reservation.id);
      const answersResource: (QuestionnaireResponse & { id: string }) | undefined =
        answers.length === 0
          ? undefined
          : {
              resourceType: 'QuestionnaireResponse',
              id: answersId,
              text: narrative(
                ...answers.map((answer) => `${answer.questionLabel} ${answer.answer}`),
              ),
              identifier: { system: idSystem, value: answersId },
              status: 'completed',
              subject,
              authored: reservation.createdAt.toISOString(),
              item: answers.map((answer) => ({
                linkId: answer.questionId,
                text: answer.questionLabel,
                answer: [{ valueString: answer.answer }],
              })),
            };
      const images = summaryImages.map((image) =>
        media(
          image.id,
          layout.summaryImage(reservation.id, image),
          `An image ${doctor.name} attached to the consultation's summary.`,
          {
            operator: doctorRef,
          },
        ),
      );
      const impression: (ClinicalImpression & { id: string }) | undefined =
        summary === undefined
          ? undefined
          : {
              resourceType: 'ClinicalImpression',
              id: summary.id,
              text: narrative(
                summary.condition,
                summary.summary,
                `Return visit: ${summary.returnVisit}`,
              ),
              identifier: identifier(summary.id),
              status: 'completed',
              subject,
              date: summary.updatedAt.toISOString(),
              assessor: doctorRef,
              summary: summary.summary,
              finding: [{ itemCodeableConcept: { text: summary.condition } }],
              note: [{ text: `Return visit: ${summary.returnVisit}` }],
              ...(images.length === 0
                ? {}
                : { supportingInfo: summaryImages.map((image) => ref<Media>(image.id)) }),
            };
      const status = consultationStatus(consultation);
      const appointment: Appointment & { id: string } = {
        resourceType: 'Appointment',
        id: reservation.id,
        text: narrative(
          `Virtual dental consultation with ${doctor.name} on ${start.toISOString()}, ${status}.`,
        ),
        identifier: identifier(reservation.id),
        status,
        description: 'Virtual dental consultation',
        start: start.toISOString(),
        end: new Date(start.getTime() + doctor.slotMinutes * 60_000).toISOString(),
        minutesDuration: doctor.slotMinutes,
        created: reservation.createdAt.toISOString(),
        participant: [
          { actor: subject, status: 'accepted' },
          { actor: doctorRef, status: 'accepted' },
        ],
        ...(answersResource === undefined && impression === undefined
          ? {}
          : {
              supportingInformation: [answersResource?.id, impression?.id]
                .filter((id) => id !== undefined)
                .map((id) => ref(id)),
            }),
      };
      return [
        appointment,
        ...(answersResource === undefined ? [] : [answersResource]),
        ...(impression === undefined ? [] : [impression]),
        ...images,
      ];
    },
  );

  // A dentist's review (docs/decisions/photo-reviews.md): the member's question is a
  // ServiceRequest; the answer a DiagnosticReport whose conclusion is the report, with one
  // Observation per finding, on the photos or the Dental AI image exported above.
  const exportedPhotos = new Set(record.photos.map((photo) => photo.id));
  const exportedResults = new Set(record.dentalAiResults.map((row) => row.id));
  const reviews = record.reviews.flatMap((row): (Resource & { id: string })[] => {
    const imageOf = (photoId: string | null) =>
      photoId === null
        ? row.dentalAiResultId !== null && exportedResults.has(row.dentalAiResultId)
          ? derivedId('dental-ai-image', row.dentalAiResultId)
          : undefined
        : exportedPhotos.has(photoId)
          ? photoId
          : undefined;
    const images = (row.dentalAiResultId === null ? row.photoIds : [null])
      .map(imageOf)
      .filter((id) => id !== undefined);
    const requestId = derivedId('review-request', row.id);
    const reviewCode = { text: 'Dentist’s review of photos' };
    const request: ServiceRequest & { id: string } = {
      resourceType: 'ServiceRequest',
      id: requestId,
      text: narrative(`Asked a dentist to review: ${row.question}`),
      identifier: identifier(requestId),
      status: row.status === 'answered' ? 'completed' : 'active',
      intent: 'order',
      code: reviewCode,
      subject,
      authoredOn: row.createdAt.toISOString(),
      note: [{ text: row.question }],
      ...(images.length === 0 ? {} : { supportingInfo: images.map((id) => ref<Media>(id)) }),
    };
    if (row.status !== 'answered' || row.answeredAt === null) return [request];
    const reviewer =
      row.reviewerName === null
        ? undefined
        : practitioner(row.reviewerId ?? `name:${row.reviewerName}`, row.reviewerName);
    const answeredAt = row.answeredAt.toISOString();
    const findings = (row.findings ?? []).map((finding, index): Observation & { id: string } => {
      const image = imageOf(finding.photoId);
      // The index is part of the name: the namespace must be the row's UUID alone.
      const id = derivedId(`review-finding#${String(index)}`, row.id);
      const [x1, y1, x2, y2] = finding.box;
      const verdict = `${finding.verdict}${finding.aiBox === null ? '' : ` (Dental AI box ${String(finding.aiBox)})`}`;
      return {
        resourceType: 'Observation',
        id,
        meta: { profile: [usCoreProfiles.Observation] },
        text: narrative(`${finding.label}, ${verdict} by the reviewing dentist.`),
        identifier: identifier(id),
        status: 'final',
        category: [imagingCategory],
        code: findingConcept(finding.label),
        subject,
        effectiveDateTime: answeredAt,
        issued: answeredAt,
        valueString: verdict,
        component: boxCorners.map((corner, corners) => ({
          code: { coding: [{ system: boxSystem, code: corner }], text: corner },
          valueQuantity: { value: [x1, y1, x2, y2][corners], unit: 'pixel' },
        })),
        ...(reviewer === undefined ? {} : { performer: [reviewer] }),
        ...(image === undefined ? {} : { derivedFrom: [ref<Media>(image)] }),
      };
    });
    const report: DiagnosticReport & { id: string } = {
      resourceType: 'DiagnosticReport',
      id: row.id,
      meta: { profile: [usCoreProfiles.DiagnosticReport] },
      text: narrative(row.report ?? ''),
      identifier: identifier(row.id),
      basedOn: [ref<ServiceRequest>(requestId)],
      status: 'final',
      category: [radiologyCategory],
      code: { ...imagingReportCode, text: reviewCode.text },
      subject,
      effectiveDateTime: answeredAt,
      issued: answeredAt,
      ...(reviewer === undefined ? {} : { performer: [reviewer] }),
      conclusion: row.report ?? '',
      ...(findings.length === 0
        ? {}
        : { result: findings.map((finding) => ref<Observation>(finding.id)) }),
      ...(images.length === 0 ? {} : { media: images.map((id) => ({ link: ref<Media>(id) })) }),
    };
    return [request, report, ...findings];
  });

  // Each message with the practice is a Communication (docs/decisions/care-messages.md): the
  // thread's subject is its topic, each reply answers the message before it, and an attached
  // photo, record or Dental AI result is referenced while it is still in the record.
  const exported = new Set([
    ...record.photos.map((photo) => photo.id),
    ...record.records.map(({ record: row }) => row.id),
    ...record.dentalAiResults.map((row) => row.id),
  ]);
  const attachedNames = {
    photo: 'a photo or X-ray',
    record: 'a record',
    dental_ai: 'a Dental AI result',
  };
  const communications = record.threads.flatMap(({ thread, messages }) =>
    messages.map(({ message, attachments }, index): Communication & { id: string } => {
      const previous = messages[index - 1]?.message;
      const readAt = message.authorRole === 'member' ? message.staffReadAt : message.memberReadAt;
      return {
        resourceType: 'Communication',
        id: message.id,
        text: narrative(
          `${message.authorName} on ${message.createdAt.toISOString()}:`,
          message.body,
        ),
        identifier: [
          ...identifier(message.id),
          { system: `${settings.publicUrl}/message-thread`, value: thread.id },
        ],
        status: 'completed',
        subject,
        topic: { text: thread.subject },
        sent: message.createdAt.toISOString(),
        ...(readAt === null ? {} : { received: readAt.toISOString() }),
        sender: message.authorRole === 'member' ? subject : { display: message.authorName },
        recipient: [message.authorRole === 'member' ? practice : subject],
        ...(previous === undefined ? {} : { inResponseTo: [ref<Communication>(previous.id)] }),
        payload: [
          { contentString: message.body },
          ...attachments.map((attached) => ({
            contentReference: exported.has(attached.itemId)
              ? ref<Resource>(attached.itemId, attachedNames[attached.kind])
              : { display: `${attachedNames[attached.kind]}, since deleted` },
          })),
        ],
      };
    }),
  );

  const resources = [
    patient,
    organization,
    ...photos,
    ...documents,
    ...appointments,
    ...dentalAi,
    ...consultations,
    ...communications,
    ...reviews,
  ];
  // The Practitioners and Devices are known once every resource that names one is built.
  return {
    resources: [...resources, ...practitioners.values(), ...devices.values()],
    binaries,
  };
}
