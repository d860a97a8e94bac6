import { z } from 'zod';
import { dentalAiResult } from './dental-ai';
import { medicalRecord } from './medical-records';
import { oralPhoto } from './oral-photo';
import { report } from './reports';
import { singleLineText } from './text';

/** Share links for a dentist (docs/product/sharing.md, docs/decisions/share-links.md). */
export const shareLinkRoutePatterns = {
  list: '/api/share-link/',
  one: '/api/share-link/:id/',
  /** What the recipient's page reads, without an account; the token is the only credential. */
  shared: '/api/shared/:token/',
} as const;

/** Where the recipient's page lives: the app serves it, never indexed. */
export const sharePagePrefix = '/s/';

export const shareLinkPaths = {
  list: shareLinkRoutePatterns.list,
  one: (id: string) => `/api/share-link/${id}/`,
  shared: (token: string) => `/api/shared/${encodeURIComponent(token)}/`,
  page: (token: string) => `${sharePagePrefix}${encodeURIComponent(token)}`,
} as const;

/** The recipient sends the passcode in this header, never in the URL (URLs end up in logs). */
export const sharePasscodeHeader = 'x-share-passcode';

export const shareLinkMinHours = 1;
/** 30 days. */
export const shareLinkMaxHours = 720;
export const shareLabelMaxLength = 100;
export const sharePasscodeMinLength = 4;
export const sharePasscodeMaxLength = 64;
/** Most photos, records, Dental AI results and reports one link holds, together. */
export const shareLinkMaxItems = 50;
/** Most links the list answers, newest first. */
export const shareLinkListLimit = 200;

export const shareLinkNotFoundMessage =
  'This link does not exist, was revoked by its owner, or has expired.';
export const shareItemNotFoundMessage =
  'A photo, record, Dental AI result or ready report to share was not found.';
export const sharePasscodeRequiredMessage = 'This link is protected by a passcode.';
export const sharePasscodeWrongMessage =
  'That passcode is not right. Please check it and try again.';

const ids = z.array(z.uuid('This is not a photo or record id.')).max(shareLinkMaxItems);
const itemCount = (link: {
  photos: string[];
  records: string[];
  dental_ai: string[];
  reports: string[];
}) => link.photos.length + link.records.length + link.dental_ai.length + link.reports.length;

export const newShareLinkRequest = z
  .object({
    photos: ids.default([]),
    records: ids.default([]),
    dental_ai: z
      .array(z.uuid('This is not a Dental AI result id.'))
      .max(shareLinkMaxItems)
      .default([]),
    /** The member's own reports, each done (generated): a queued or failed one has no PDF. */
    reports: z.array(z.uuid('This is not a report id.')).max(shareLinkMaxItems).default([]),
    expires_in_hours: z
      .number('Choose how long the link works.')
      .int('Choose how long the link works.')
      .min(shareLinkMinHours, 'A link works for at least 1 hour.')
      .max(shareLinkMaxHours, 'A link works for at most 30 days.'),
    label: singleLineText('Enter a label, such as the dentist’s name.')
      .trim()
      .min(1, 'Enter a label, such as the dentist’s name.')
      .max(shareLabelMaxLength, `A label has at most ${shareLabelMaxLength} characters.`),
    passcode: z
      .string()
      .min(sharePasscodeMinLength, `A passcode has at least ${sharePasscodeMinLength} characters.`)
      .max(sharePasscodeMaxLength, `A passcode has at most ${sharePasscodeMaxLength} characters.`)
      .optional(),
  })
  .refine((link) => itemCount(link) > 0, {
    message: 'Choose at least one photo, X-ray, record, Dental AI result or report to share.',
    path: ['photos'],
  })
  .refine((link) => itemCount(link) <= shareLinkMaxItems, {
    message: `A link holds at most ${shareLinkMaxItems} photos, records, results and reports.`,
    path: ['photos'],
  });
export type NewShareLinkRequest = z.input<typeof newShareLinkRequest>;
export type NewShareLink = z.output<typeof newShareLinkRequest>;

/** The token and URL are answered once, when the link is made: only the token's hash is kept. */
export const shareLinkCreated = z.object({
  id: z.uuid(),
  url: z.url(),
  token: z.string(),
  expires_at: z.iso.datetime(),
});
export type ShareLinkCreated = z.infer<typeof shareLinkCreated>;

export const shareLinkStates = ['active', 'expired', 'revoked'] as const;
export type ShareLinkState = (typeof shareLinkStates)[number];

/** One of the member's links as the Shared links screen lists it. */
export const shareLink = z.object({
  id: z.uuid(),
  label: z.string(),
  created_at: z.iso.datetime(),
  expires_at: z.iso.datetime(),
  revoked_at: z.iso.datetime().nullable(),
  state: z.enum(shareLinkStates),
  has_passcode: z.boolean(),
  photo_count: z.number().int(),
  record_count: z.number().int(),
  dental_ai_count: z.number().int(),
  /** Reports still shown: a deleted one leaves the link. */
  report_count: z.number().int(),
  views: z.number().int(),
  last_viewed_at: z.iso.datetime().nullable(),
});
export type ShareLink = z.infer<typeof shareLink>;

export const shareLinkList = z.array(shareLink);

export const shareLinkIdParams = z.object({ id: z.uuid('This is not a link id.') });
/** 32 random bytes are 43 base64url characters; anything far longer is not a token (the
 *  router answers 414 for a path segment over 100 characters anyway). */
export const shareTokenMaxLength = 100;
export const shareTokenParams = z.object({ token: z.string().min(1).max(shareTokenMaxLength) });

/** A report as the recipient sees it: its kind and period, and the PDF through the share's own
 *  short-lived file link. */
export const sharedReport = report.pick({ id: true, kind: true, from: true, to: true }).extend({
  download_url: z.string(),
});
export type SharedReport = z.infer<typeof sharedReport>;

/** What the recipient sees: the same photo, record and Dental AI result shapes as the owner's
 *  own answers, and the finished reports. */
export const sharedItems = z.object({
  label: z.string(),
  expires_at: z.iso.datetime(),
  photos: z.array(oralPhoto),
  records: z.array(medicalRecord),
  dental_ai: z.array(dentalAiResult),
  reports: z.array(sharedReport),
});
export type SharedItems = z.infer<typeof sharedItems>;
