import { z } from 'zod';
import { listMaxRows } from './oral-photo';
import { pageQueryFields } from './pagination';

/** What a member shares with the dental practice (docs/product/care-team-sharing.md,
 *  docs/decisions/care-team-access.md). */
export const careTeamPaths = {
  access: '/api/care-team/access/',
} as const;

/** What the practice's staff read of a patient; only the shared items, each read audited in the
 *  patient's chain. */
export const clinicPatientRoutePatterns = {
  list: '/api/clinic/patients/',
  oralPhotos: '/api/clinic/patients/:id/oral-photo/',
  medicalRecords: '/api/clinic/patients/:id/medical-records/',
} as const;

export const clinicPatientPaths = {
  list: clinicPatientRoutePatterns.list,
  oralPhotos: (id: string) => `/api/clinic/patients/${encodeURIComponent(id)}/oral-photo/`,
  medicalRecords: (id: string) => `/api/clinic/patients/${encodeURIComponent(id)}/medical-records/`,
} as const;

export const careTeamScopes = ['all', 'chosen'] as const;
export type CareTeamScope = (typeof careTeamScopes)[number];

/** Most photos, and most records, one 'chosen' grant holds: a staff list shows them all in one
 *  page of the member's own list size. */
export const careTeamMaxItems = listMaxRows;

export const careTeamItemNotFoundMessage =
  'A photo, X-ray or record to share was not found among yours.';
export const careTeamNothingChosenMessage =
  'Choose at least one photo, X-ray or record to share, or share all of them.';
export const clinicPatientNotFoundMessage = 'This patient was not found.';

const ids = z
  .array(z.uuid('This is not a photo or record id.'))
  .max(careTeamMaxItems, `At most ${careTeamMaxItems} of each can be chosen.`);

/** `{ scope: 'all' }`, or the chosen photos/X-rays and records; a new grant replaces the last. */
export const careTeamGrantRequest = z
  .object({
    scope: z
      .literal('all', 'Scope is "all"; to choose, send photos and records instead.')
      .optional(),
    photos: ids.optional(),
    records: ids.optional(),
  })
  .refine((grant) => grant.scope === undefined || (grant.photos ?? grant.records) === undefined, {
    message: 'Share all, or send the chosen photos and records, not both.',
    path: ['scope'],
  })
  .refine(
    (grant) =>
      grant.scope === 'all' || (grant.photos?.length ?? 0) + (grant.records?.length ?? 0) > 0,
    { message: careTeamNothingChosenMessage, path: ['photos'] },
  );
export type CareTeamGrantRequest = z.input<typeof careTeamGrantRequest>;

/** What is shared now; `scope` null (and empty lists) when nothing is. */
export const careTeamAccess = z.object({
  scope: z.enum(careTeamScopes).nullable(),
  photos: z.array(z.uuid()),
  records: z.array(z.uuid()),
  granted_at: z.iso.datetime().nullable(),
});
export type CareTeamAccess = z.infer<typeof careTeamAccess>;

export const clinicPatientParams = z.object({ id: z.uuid('This is not a patient id.') });

/** A staff list of a patient's shared items: the member's own page size and paging. */
export const clinicPatientItemsQuery = z.object(pageQueryFields(listMaxRows));

/** A patient this staff member may see: booked with them, or sharing with the practice. */
export const clinicPatient = z.object({
  id: z.uuid(),
  username: z.string(),
  shared: z.enum(careTeamScopes).nullable(),
  booked_with_me: z.boolean(),
});
export type ClinicPatient = z.infer<typeof clinicPatient>;

export const clinicPatientList = z.object({ results: z.array(clinicPatient) });
export type ClinicPatientList = z.infer<typeof clinicPatientList>;
