import type {
  Appointment,
  Attachment,
  Bundle,
  ClinicalImpression,
  Communication,
  DiagnosticReport,
  DocumentReference,
  Media,
  Observation,
  Patient,
  QuestionnaireResponse,
  Reference,
  Resource,
  ServiceRequest,
} from '@medplum/fhirtypes';
import { imageKindNames, slotMinutes } from '@dental/contracts';
import type { DentalAiResultRow, OralPhotoRow } from '#api/db/schema';
import { uuidV5 } from '#api/lib/uuid-v5';
import type { ArchivedFile, ArchiveLayout } from './archive-layout';
import type { MemberRecord } from './data-export.repository';

export interface BundleSettings {
  exportedAt: Date;
  companyName: string;
  /** The server's address: identifiers are scoped by it. */
  publicUrl: string;
  /** SHA-1 (base64) of each archived file by its path, as FHIR's Attachment.hash asks; a file
   *  without one was left out of the archive (damaged), so its attachment has no URL. */
  sha1ByPath: ReadonlyMap<string, string>;
}

const urn = (id: string) => `urn:uuid:${id}`;

/** Resources with no row of their own (the image a Dental AI result was drawn on, a booking's
 *  answers) get a UUID derived from the row's, so that the same record exports the same ids. */
const derivedId = (kind: string, rowId: string) => uuidV5(kind, rowId);
const ref = <T extends Resource>(id: string, display?: string): Reference<T> =>
  display === undefined ? { reference: urn(id) } : { reference: urn(id), display };

/** The bundle sits in fhir/; files are referenced relative to it. */
const fromBundle = (path: string) => `../${path}`;

/** FDI (ISO 3950) tooth numbers, the system HL7's own tooth codes use. */
const teethSite = (teeth: readonly number[]) => ({
  coding: teeth.map((tooth) => ({
    system: 'http://terminology.hl7.org/CodeSystem/ex-tooth',
    code: String(tooth),
  })),
  text: `${teeth.length === 1 ? 'Tooth' : 'Teeth'} ${teeth.join(', ')} (FDI)`,
});

const dentalAiTitles: Record<DentalAiResultRow['dentalAi'], string> = {
  caries: 'Dental AI caries detection',
  wisdom_teeth: 'Dental AI wisdom teeth detection',
};

/**
 * The member's record as a FHIR R4 Bundle of type `collection` (docs/decisions/data-export.md):
 * every entry has a `urn:uuid:` full URL made of the row's own id, so references inside the
 * Bundle resolve without a server.
 */
export function fhirBundle(
  record: MemberRecord,
  layout: ArchiveLayout,
  settings: BundleSettings,
): Bundle {
  const patientId = record.member.id;
  const subject = ref<Patient>(patientId, record.member.username);
  const attachment = (file: ArchivedFile): Attachment => {
    const hash = settings.sha1ByPath.get(file.path);
    return {
      contentType: file.contentType,
      ...(hash === undefined ? {} : { url: fromBundle(file.path), hash }),
      title: file.title,
      ...(file.sizeBytes === undefined ? {} : { size: file.sizeBytes }),
    };
  };
  const media = (
    id: string,
    file: ArchivedFile,
    fields: Omit<Media, 'resourceType' | 'id' | 'status' | 'subject' | 'content'>,
  ): Media => ({
    resourceType: 'Media',
    id,
    status: 'completed',
    type: {
      coding: [{ system: 'http://terminology.hl7.org/CodeSystem/media-type', code: 'image' }],
    },
    subject,
    content: attachment(file),
    ...fields,
  });

  const patient: Patient = {
    resourceType: 'Patient',
    id: patientId,
    identifier: [{ system: `${settings.publicUrl}/member`, value: patientId }],
    active: true,
    name: [{ text: record.member.username }],
    telecom: [
      { system: 'email', value: record.member.email },
      ...(record.member.phone === null
        ? []
        : [{ system: 'phone' as const, value: record.member.phone }]),
    ],
  };

  const photos = record.photos.flatMap((photo: OralPhotoRow): Media[] => {
    const fields = {
      modality: { text: photo.photoType },
      createdDateTime: photo.shootDate,
      ...(photo.teeth.length === 0 ? {} : { bodySite: teethSite(photo.teeth) }),
      ...(photo.note === '' ? {} : { note: [{ text: photo.note }] }),
    };
    const { originalKey } = photo;
    const shown = media(photo.id, layout.photo(photo), fields);
    if (originalKey === null) return [shown];
    // An imported DICOM file stays as it came; the rendered image is the one the app shows.
    return [
      shown,
      media(
        derivedId('dicom-original', photo.id),
        layout.dicomOriginal({ ...photo, originalKey }),
        {
          ...fields,
          modality: { text: 'X-ray (DICOM original)' },
        },
      ),
    ];
  });

  const documents = record.records.map(({ record: row, files }): DocumentReference => {
    const noteAttachment: Attachment = {
      contentType: 'text/plain; charset=utf-8',
      title: row.title,
      data: Buffer.from(row.note, 'utf8').toString('base64'),
      creation: row.createdAt.toISOString(),
    };
    return {
      resourceType: 'DocumentReference',
      id: row.id,
      status: 'current',
      type: { text: 'Medical or insurance record' },
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
  });

  const appointments = record.appointments.map((row): Appointment => ({
    resourceType: 'Appointment',
    id: row.id,
    status: 'booked',
    description: 'Dental appointment',
    // The product keeps when an appointment starts, not how long it lasts; FHIR wants both.
    start: row.appointmentDate.toISOString(),
    end: row.appointmentDate.toISOString(),
    created: row.createdAt.toISOString(),
    ...(row.note === '' ? {} : { comment: row.note }),
    participant: [{ actor: subject, status: 'accepted' }],
  }));

  const dentalAi = record.dentalAiResults.flatMap((row): Resource[] => {
    const imageId = derivedId('dental-ai-image', row.id);
    const analysed = media(imageId, layout.dentalAiImage(row), {
      width: row.imageWidth,
      height: row.imageHeight,
      createdDateTime: row.createdAt.toISOString(),
    });
    const observation: Observation = {
      resourceType: 'Observation',
      id: row.id,
      status: 'final',
      code: { text: dentalAiTitles[row.dentalAi] },
      subject,
      effectiveDateTime: row.createdAt.toISOString(),
      issued: row.createdAt.toISOString(),
      method: {
        text: `${row.modelName} ${row.modelVersion}, read as ${imageKindNames[row.imageKind]}`,
      },
      device: { display: `Dental AI model ${row.modelName}, version ${row.modelVersion}` },
      derivedFrom: [ref<Media>(imageId)],
      note: [
        {
          text: `Boxes are in pixels of the ${row.imageWidth} × ${row.imageHeight} image; this is not a diagnosis.`,
        },
      ],
      ...(row.detections.length === 0
        ? { valueString: 'Nothing was marked.' }
        : {
            component: row.detections.map((box) => ({
              code: { text: box.label },
              valueString: `xmin=${box.xmin} ymin=${box.ymin} xmax=${box.xmax} ymax=${box.ymax} confidence=${box.confidence}`,
            })),
          }),
    };
    return [analysed, observation];
  });

  const consultations = record.consultations.flatMap(
    ({ reservation, doctorName, answers, summary, summaryImages }): Resource[] => {
      const start = reservation.reservationTime;
      const answersResource: QuestionnaireResponse | undefined =
        answers.length === 0
          ? undefined
          : {
              resourceType: 'QuestionnaireResponse',
              id: derivedId('consultation-answers', reservation.id),
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
        media(image.id, layout.summaryImage(reservation.id, image), {
          operator: { display: doctorName },
        }),
      );
      const impression: ClinicalImpression | undefined =
        summary === undefined
          ? undefined
          : {
              resourceType: 'ClinicalImpression',
              id: summary.id,
              status: 'completed',
              subject,
              date: summary.updatedAt.toISOString(),
              assessor: { display: doctorName },
              summary: summary.summary,
              finding: [{ itemCodeableConcept: { text: summary.condition } }],
              note: [{ text: `Return visit: ${summary.returnVisit}` }],
              ...(images.length === 0
                ? {}
                : { supportingInfo: summaryImages.map((image) => ref<Media>(image.id)) }),
            };
      const appointment: Appointment = {
        resourceType: 'Appointment',
        id: reservation.id,
        status: reservation.status === 'cancelled' ? 'cancelled' : 'booked',
        description: 'Virtual dental consultation',
        start: start.toISOString(),
        end: new Date(start.getTime() + slotMinutes * 60_000).toISOString(),
        minutesDuration: slotMinutes,
        created: reservation.createdAt.toISOString(),
        participant: [
          { actor: subject, status: 'accepted' },
          { actor: { display: doctorName }, status: 'accepted' },
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
  const reviews = record.reviews.flatMap((row): Resource[] => {
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
    const request: ServiceRequest = {
      resourceType: 'ServiceRequest',
      id: requestId,
      status: row.status === 'answered' ? 'completed' : 'active',
      intent: 'order',
      code: { text: 'Dentist’s review of photos' },
      subject,
      authoredOn: row.createdAt.toISOString(),
      note: [{ text: row.question }],
      ...(images.length === 0 ? {} : { supportingInfo: images.map((id) => ref<Media>(id)) }),
    };
    if (row.status !== 'answered' || row.answeredAt === null) return [request];
    const findings = (row.findings ?? []).map((finding, index) => {
      const image = imageOf(finding.photoId);
      const [x1, y1, x2, y2] = finding.box;
      const observation: Observation & { id: string } = {
        resourceType: 'Observation',
        id: derivedId('review-finding', `${row.id}#${String(index)}`),
        status: 'final',
        code: { text: finding.label },
        subject,
        issued: row.answeredAt?.toISOString(),
        valueString: `${finding.verdict}${finding.aiBox === null ? '' : ` (Dental AI box ${String(finding.aiBox)})`}: x1=${String(x1)} y1=${String(y1)} x2=${String(x2)} y2=${String(y2)}`,
        ...(image === undefined ? {} : { derivedFrom: [ref<Media>(image)] }),
      };
      return observation;
    });
    const report: DiagnosticReport = {
      resourceType: 'DiagnosticReport',
      id: row.id,
      basedOn: [ref<ServiceRequest>(requestId)],
      status: 'final',
      code: { text: 'Dentist’s review of photos' },
      subject,
      issued: row.answeredAt.toISOString(),
      ...(row.reviewerName === null ? {} : { performer: [{ display: row.reviewerName }] }),
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
    messages.map(({ message, attachments }, index): Communication => {
      const practice = { display: settings.companyName };
      const previous = messages[index - 1]?.message;
      const readAt = message.authorRole === 'member' ? message.staffReadAt : message.memberReadAt;
      return {
        resourceType: 'Communication',
        id: message.id,
        identifier: [{ system: `${settings.publicUrl}/message-thread`, value: thread.id }],
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
          ...attachments.map((attachment) => ({
            contentReference: exported.has(attachment.itemId)
              ? ref<Resource>(attachment.itemId, attachedNames[attachment.kind])
              : { display: `${attachedNames[attachment.kind]}, since deleted` },
          })),
        ],
      };
    }),
  );

  const resources: Resource[] = [
    patient,
    ...photos,
    ...documents,
    ...appointments,
    ...dentalAi,
    ...consultations,
    ...communications,
    ...reviews,
  ];
  return {
    resourceType: 'Bundle',
    identifier: { system: `${settings.publicUrl}/data-export`, value: layout.exportId },
    type: 'collection',
    timestamp: settings.exportedAt.toISOString(),
    // Every resource above has an id; the check only narrows the type.
    entry: resources.flatMap((resource) =>
      resource.id === undefined ? [] : [{ fullUrl: urn(resource.id), resource }],
    ),
  };
}
