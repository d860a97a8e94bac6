import { z } from 'zod';
import { dentalAiResult } from './dental-ai';
import { medicalRecord } from './medical-records';
import { oralPhoto } from './oral-photo';
import { pageQueryFields } from './pagination';
import { multiLineText, singleLineText } from './text';

/** A member's messages with the practice (docs/product/messages.md,
 *  docs/decisions/care-messages.md). */
export const messagePaths = {
  threads: '/api/messages/',
  unread: '/api/messages/unread/',
  thread: (id: string) => `/api/messages/${encodeURIComponent(id)}/`,
} as const;

/** The practice's side: every staff member of the practice reads every thread. */
export const clinicMessagePaths = {
  threads: '/api/clinic/messages/',
  unread: '/api/clinic/messages/unread/',
  thread: (id: string) => `/api/clinic/messages/${encodeURIComponent(id)}/`,
} as const;

export const messageSubjectMaxLength = 200;
export const messageBodyMaxLength = 5000;
/** Most items one message carries. */
export const messageMaxAttachments = 10;
/** Most messages one thread holds; a longer conversation starts a new thread. */
export const messageThreadMaxMessages = 500;
/** Most threads one page of a list holds. */
export const messageThreadsPageSize = 50;
/** Messages one member may send (new threads and replies together) per window, counted in the
 *  database across every API process. */
export const messageSendLimit = { max: 30, windowSeconds: 60 * 60 } as const;
/** Replies one staff member may send per window: they answer every patient of the practice. */
export const staffMessageSendLimit = { max: 300, windowSeconds: 60 * 60 } as const;

export const messageThreadNotFoundMessage = 'This conversation was not found.';
export const messageAttachmentNotFoundMessage =
  'A photo, X-ray, record or Dental AI result to attach was not found among yours.';
export const messageThreadFullMessage = `This conversation has reached ${String(messageThreadMaxMessages)} messages. Please start a new one.`;
export const messageAssigneeNotFoundMessage = 'This staff member was not found.';
export const tooManyMessagesMessage = (seconds: number) => {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return `Too many messages have been sent. Please try again in ${String(minutes)} minute${minutes === 1 ? '' : 's'}.`;
};

export const messageAttachmentKinds = ['photo', 'record', 'dental_ai'] as const;
export type MessageAttachmentKind = (typeof messageAttachmentKinds)[number];

export const messageThreadStatuses = ['open', 'closed'] as const;
export type MessageThreadStatus = (typeof messageThreadStatuses)[number];

const body = multiLineText('Write a message.')
  .trim()
  .min(1, 'Write a message.')
  .max(messageBodyMaxLength, `A message has at most ${String(messageBodyMaxLength)} characters.`);

/** One of the member's own items; the service checks it is theirs. */
export const messageAttachmentRef = z.object({
  kind: z.enum(messageAttachmentKinds, 'Kind is "photo", "record" or "dental_ai".'),
  id: z.uuid('This is not an id of a photo, record or Dental AI result.'),
});
export type MessageAttachmentRef = z.infer<typeof messageAttachmentRef>;

const attachments = z
  .array(messageAttachmentRef)
  .max(messageMaxAttachments, `At most ${String(messageMaxAttachments)} items can be attached.`)
  .refine(
    (refs) => new Set(refs.map((ref) => `${ref.kind}:${ref.id}`)).size === refs.length,
    'Each item can be attached once.',
  )
  .default([]);

/** A new thread: its subject, the first message, and the member's items attached to it. */
export const newMessageThread = z.object({
  subject: singleLineText('Write a subject.')
    .trim()
    .min(1, 'Write a subject.')
    .max(
      messageSubjectMaxLength,
      `A subject has at most ${String(messageSubjectMaxLength)} characters.`,
    ),
  body,
  attachments,
});
export type NewMessageThread = z.input<typeof newMessageThread>;

/** A member's reply. */
export const newMemberMessage = z.object({ body, attachments });
export type NewMemberMessage = z.input<typeof newMemberMessage>;

/** A staff member's reply: plain text only, staff attach nothing of the member's. */
export const newStaffMessage = z.object({ body });
export type NewStaffMessage = z.input<typeof newStaffMessage>;

export const messageThreadParams = z.object({ id: z.uuid(messageThreadNotFoundMessage) });

export const createdMessage = z.object({ id: z.uuid() });
export type CreatedMessage = z.infer<typeof createdMessage>;

export const messageThreadQuery = z.object(pageQueryFields(messageThreadsPageSize));
export type MessageThreadQuery = z.infer<typeof messageThreadQuery>;

export const clinicMessageThreadQuery = z.object({
  status: z.enum(messageThreadStatuses, 'Status is "open" or "closed".').default('open'),
  ...pageQueryFields(messageThreadsPageSize),
});
export type ClinicMessageThreadQuery = z.infer<typeof clinicMessageThreadQuery>;

/** Close or reopen a thread, and give it to a staff member (null: to nobody). */
export const messageThreadChange = z
  .object({
    status: z.enum(messageThreadStatuses, 'Status is "open" or "closed".').optional(),
    assigned_to: z.uuid(messageAssigneeNotFoundMessage).nullable().optional(),
  })
  .refine((change) => change.status !== undefined || change.assigned_to !== undefined, {
    message: 'Send a status, an assignee, or both.',
    path: ['status'],
  });
export type MessageThreadChange = z.infer<typeof messageThreadChange>;

/** An attached item as its own module answers it, with file links for the reader; null once
 *  the member deleted it. */
export const messageAttachment = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('photo'), id: z.uuid(), photo: oralPhoto.nullable() }),
  z.object({ kind: z.literal('record'), id: z.uuid(), record: medicalRecord.nullable() }),
  z.object({ kind: z.literal('dental_ai'), id: z.uuid(), dental_ai: dentalAiResult.nullable() }),
]);
export type MessageAttachment = z.infer<typeof messageAttachment>;

export const message = z.object({
  id: z.uuid(),
  /** Which side wrote it; a staff author is named as they were when they wrote. */
  author: z.object({ role: z.enum(['member', 'staff']), name: z.string() }),
  /** Plain text: shown as text, never as HTML. */
  body: z.string(),
  created_at: z.iso.datetime({ offset: true }),
  /** When the other side first read it; null while unread. */
  read_at: z.iso.datetime({ offset: true }).nullable(),
  attachments: z.array(messageAttachment),
});
export type Message = z.infer<typeof message>;

const threadFields = {
  id: z.uuid(),
  subject: z.string(),
  status: z.enum(messageThreadStatuses),
  created_at: z.iso.datetime({ offset: true }),
  last_message_at: z.iso.datetime({ offset: true }),
};

/** A thread in the member's list; `unread` counts the practice's messages they have not read. */
export const messageThreadSummary = z.object({ ...threadFields, unread: z.number().int() });
export type MessageThreadSummary = z.infer<typeof messageThreadSummary>;

export const messageThreadList = z.object({
  results: z.array(messageThreadSummary),
  next: z.string().nullable(),
});
export type MessageThreadList = z.infer<typeof messageThreadList>;

export const messageThread = z.object({ ...threadFields, messages: z.array(message) });
export type MessageThread = z.infer<typeof messageThread>;

/** Unread messages: the practice's for a member, the members' for staff (the Home card and the
 *  console's badge). */
export const unreadMessages = z.object({ unread: z.number().int() });
export type UnreadMessages = z.infer<typeof unreadMessages>;

const staffThreadFields = {
  ...threadFields,
  patient: z.object({ id: z.uuid(), username: z.string() }),
  assigned_to: z.object({ id: z.uuid(), name: z.string() }).nullable(),
};

/** A thread in the console's list; `unread` counts the member's messages no staff member read. */
export const clinicMessageThreadSummary = z.object({
  ...staffThreadFields,
  unread: z.number().int(),
});
export type ClinicMessageThreadSummary = z.infer<typeof clinicMessageThreadSummary>;

export const clinicMessageThreadList = z.object({
  results: z.array(clinicMessageThreadSummary),
  next: z.string().nullable(),
});
export type ClinicMessageThreadList = z.infer<typeof clinicMessageThreadList>;

/** A thread as staff read it: attachments carry file links scoped to the staff member. */
export const clinicMessageThread = z.object({ ...staffThreadFields, messages: z.array(message) });
export type ClinicMessageThread = z.infer<typeof clinicMessageThread>;
