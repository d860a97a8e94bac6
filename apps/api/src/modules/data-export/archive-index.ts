import { dataExportBundlePath, imageKindNames } from '@dental/contracts';
import { escapeHtml } from '#api/lib/html';
import type { ArchivedFile, ArchiveLayout } from './archive-layout';
import { boxPlace } from './box-place';
import type { MemberRecord } from './data-export.repository';

/** Attribute values too: a path holds the member's own file name. */
const link = (path: string, text: string) =>
  `<a href="${escapeHtml(encodeURI(path))}">${escapeHtml(text)}</a>`;

const when = (moment: Date, timeZone: string) =>
  `${new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(moment)} (${timeZone})`;

const section = (title: string, items: readonly string[], empty: string) =>
  `<section><h2>${escapeHtml(title)}</h2>${
    items.length === 0 ? `<p>${escapeHtml(empty)}</p>` : `<ul>${items.join('')}</ul>`
  }</section>`;

const paragraph = (text: string) => (text === '' ? '' : `<p>${escapeHtml(text)}</p>`);

const damagedNote = ' (damaged: left out of this archive)';

/**
 * `index.html` of the archive: everything in plain words, each file a relative link, so that it
 * opens offline in any browser after unzipping. Nothing is loaded from elsewhere. A file that
 * failed its integrity check is not in the archive: it is named as damaged instead of linked.
 */
export function archiveIndex(
  record: MemberRecord,
  layout: ArchiveLayout,
  {
    exportedAt,
    companyName,
    damaged,
  }: { exportedAt: Date; companyName: string; damaged: readonly ArchivedFile[] },
): string {
  const { member } = record;
  const damagedPaths = new Set(damaged.map((file) => file.path));
  const fileLink = (path: string, text: string) =>
    damagedPaths.has(path) ? `${escapeHtml(text)}${damagedNote}` : link(path, text);
  const photos = record.photos.map((photo) => {
    const file = layout.photo(photo);
    const { originalKey } = photo;
    const original =
      originalKey === null
        ? ''
        : ` · ${fileLink(layout.dicomOriginal({ ...photo, originalKey }).path, 'DICOM original')}`;
    const teeth =
      photo.teeth.length === 0 ? '' : paragraph(`Teeth (FDI): ${photo.teeth.join(', ')}`);
    const image = damagedPaths.has(file.path)
      ? ''
      : // The link beside it names the image: the picture itself needs no words of its own.
        `<img src="${escapeHtml(encodeURI(file.path))}" alt="" width="160">`;
    return `<li>${image}${fileLink(file.path, file.title)}${original}${teeth}${paragraph(photo.note)}</li>`;
  });
  const records = record.records.map(
    ({ record: row, files }) =>
      `<li><h3>${escapeHtml(row.title)}</h3><p>Record date: ${escapeHtml(row.recordDate)}</p>${paragraph(row.note)}${
        files.length === 0
          ? ''
          : `<ul>${files.map((file) => `<li>${fileLink(layout.recordFile(file).path, file.fileName)}</li>`).join('')}</ul>`
      }</li>`,
  );
  const appointments = record.appointments.map(
    (row) =>
      `<li>${escapeHtml(when(row.appointmentDate, row.timeZone))}${paragraph(row.note)}</li>`,
  );
  const results = record.dentalAiResults.map((row) => {
    const image = layout.dentalAiImage(row);
    const boxes =
      row.detections.length === 0
        ? '<p>Nothing was marked.</p>'
        : `<ul>${row.detections
            .map(
              (box) =>
                `<li>${escapeHtml(box.label)}: an area in ${boxPlace(box, row.imageWidth, row.imageHeight)} of the image (the model was ${String(Math.round(box.confidence * 100))}% sure)</li>`,
            )
            .join('')}</ul>`;
    return `<li><h3>${row.dentalAi === 'caries' ? 'Caries' : 'Wisdom teeth'}, ${escapeHtml(when(row.createdAt, 'UTC'))}</h3><p>Model ${escapeHtml(row.modelName)} ${escapeHtml(row.modelVersion)}, read as ${imageKindNames[row.imageKind]}. ${fileLink(image.path, 'The image analysed')}</p>${boxes}</li>`;
  });
  const consultations = record.consultations.map(
    ({ reservation, doctor, answers, summary, summaryImages }) =>
      `<li><h3>${escapeHtml(when(reservation.reservationTime, reservation.timeZone))} with ${escapeHtml(doctor.name)}${
        reservation.status === 'cancelled' ? ' (cancelled)' : ''
      }</h3>${
        answers.length === 0
          ? ''
          : `<dl>${answers.map((answer) => `<dt>${escapeHtml(answer.questionLabel)}</dt><dd>${escapeHtml(answer.answer)}</dd>`).join('')}</dl>`
      }${
        summary === undefined
          ? ''
          : `<h4>Doctor’s summary</h4><dl><dt>Condition</dt><dd>${escapeHtml(summary.condition)}</dd><dt>Summary</dt><dd>${escapeHtml(summary.summary)}</dd><dt>Return visit</dt><dd>${escapeHtml(summary.returnVisit)}</dd></dl>${summaryImages
              .map((image) =>
                fileLink(layout.summaryImage(reservation.id, image).path, image.fileName),
              )
              .join(' ')}`
      }</li>`,
  );
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Your dental record from ${escapeHtml(companyName)}</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 60rem; margin: 0 auto; padding: 1rem; line-height: 1.5; color: #1a1a1a; overflow-wrap: anywhere; }
ul { padding-left: 1.2rem; } li { margin-bottom: 0.75rem; } img { display: block; max-width: 100%; height: auto; }
dt { font-weight: 600; } dd { margin: 0 0 0.5rem 0; }
</style>
</head>
<body>
<main>
<h1>Your dental record from ${escapeHtml(companyName)}</h1>
<p>Made on ${escapeHtml(when(exportedAt, 'UTC'))} for ${escapeHtml(member.username)} (${escapeHtml(member.email)}${
    member.phone === null ? '' : `, ${escapeHtml(member.phone)}`
  }). Every file is in the <code>files</code> folder beside this page. The same record, for another
health app or a dentist’s system, is in ${link(dataExportBundlePath, dataExportBundlePath)} (FHIR R4).</p>
${
  damaged.length === 0
    ? ''
    : `<section><h2>Damaged files</h2><p>These files failed our integrity check (their bytes changed since they were stored), so they are left out of this archive. Please contact support.</p><ul>${damaged
        .map((file) => `<li>${escapeHtml(file.title)} (${escapeHtml(file.path)})</li>`)
        .join('')}</ul></section>`
}
${section('Photos and X-rays', photos, 'No photos or X-rays.')}
${section('Medical and insurance records', records, 'No records.')}
${section('Appointments', appointments, 'No appointments.')}
${section('Dental AI results', results, 'No Dental AI results.')}
${section('Virtual consultations', consultations, 'No consultations.')}
</main>
</body>
</html>
`;
}
