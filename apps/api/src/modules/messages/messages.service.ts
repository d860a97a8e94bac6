import {
  messageAssigneeNotFoundMessage,
  messageAttachmentNotFoundMessage,
  messageThreadFullMessage,
  messageThreadMaxMessages,
  messageThreadNotFoundMessage,
  type AuditAction,
  type AuditResourceType,
  type ClinicMessageThread,
  type ClinicMessageThreadQuery,
  type ClinicMessageThreadSummary,
  type CreatedMessage,
  type DentalAiResult,
  type MedicalRecord,
  type Message,
  type MessageAttachment,
  type MessageThread,
  type MessageThreadChange,
  type MessageThreadQuery,
  type MessageThreadSummary,
  type NewMemberMessage,
  type NewMessageThread,
  type NewStaffMessage,
  type OralPhoto,
} from '@dental/contracts';
import type { Clock } from '#api/clock';
import type { MessageThreadRow } from '#api/db/schema';
import { NotFound, UnprocessableEntity } from '#api/domain-errors';
import { pageOf, type Page } from '#api/lib/pagination';
import type {
  AttachmentRef,
  MessageRepository,
  MessageWithAttachments,
  StaffThreadRow,
  WriteRefusal,
} from './messages.repository';

/** The member's items as their own modules answer them, with the member's file links (the
 *  photo, record and Dental AI services, wired in services.ts). */
export interface AttachableItems {
  photos(memberId: string, ids: readonly string[]): Promise<OralPhoto[]>;
  records(memberId: string, ids: readonly string[]): Promise<MedicalRecord[]>;
  dentalAi(memberId: string, ids: readonly string[]): Promise<DentalAiResult[]>;
}

/** Replaces the items' file links with links scoped to one staff member, opened while the item
 *  is attached (the care team's staff file links, wired in services.ts). */
export interface StaffItemLinks {
  scope(
    staffId: string,
    items: { photos: OralPhoto[]; records: MedicalRecord[]; dentalAi: DentalAiResult[] },
  ): { photos: OralPhoto[]; records: MedicalRecord[]; dentalAi: DentalAiResult[] };
}

/** An audit row in a member's chain (AuditService). */
export interface MemberAuditTrail {
  record(event: {
    memberId: string;
    actor: string;
    action: AuditAction;
    resourceType: AuditResourceType;
    resourceId: string;
    result: 'success';
  }): Promise<void>;
}

/** Queues the notices of a staff reply after its commit (MessageNoticeService). */
export interface ReplyNotices {
  afterReply(noticeIds: readonly string[]): Promise<void>;
}

/** Tells the open event streams that a thread changed (MessageEvents). */
export interface ThreadEvents {
  changed(change: { memberId: string; threadId: string }): Promise<void>;
}

/** The staff member acting, as the clinic guard names them. */
export interface StaffActor {
  id: string;
  name: string;
}

/**
 * A member's conversations with the practice (docs/decisions/care-messages.md). Members see only
 * their own threads; every staff member of the practice sees every thread. Attachments are the
 * member's own items, and staff read exactly those, through links scoped to them.
 */
export class MessageService {
  constructor(
    private readonly repository: MessageRepository,
    private readonly items: AttachableItems,
    private readonly staffLinks: StaffItemLinks,
    private readonly audit: MemberAuditTrail,
    private readonly notices: ReplyNotices,
    /** Whether the account is an active staff member's (the care team's check). */
    private readonly isActiveStaff: (userId: string) => Promise<boolean>,
    private readonly clock: Clock,
    private readonly events: ThreadEvents,
  ) {}

  /** Starts a thread with its first message; an attachment not the member's creates nothing. */
  async start(memberId: string, request: NewMessageThread): Promise<CreatedMessage> {
    const created = await this.repository.createThread(
      memberId,
      request.subject,
      this.memberMessage(memberId, request.body, request.attachments),
      this.clock.now(),
    );
    const threadId = this.written(created).threadId;
    await this.events.changed({ memberId, threadId });
    return { id: threadId };
  }

  /** The member's reply in their own thread. */
  async reply(memberId: string, threadId: string, request: NewMemberMessage) {
    await this.ownThread(memberId, threadId);
    const added = await this.repository.addMessage(
      threadId,
      memberId,
      this.memberMessage(memberId, request.body, request.attachments),
      messageThreadMaxMessages,
      this.clock.now(),
    );
    const messageId = this.written(added).messageId;
    await this.events.changed({ memberId, threadId });
    return { id: messageId };
  }

  async threads(memberId: string, query: MessageThreadQuery): Promise<Page<MessageThreadSummary>> {
    const page = pageOf(await this.repository.memberThreads(memberId, query), query);
    return {
      ...page,
      items: page.items.map((row) => ({ ...threadFields(row), unread: row.unread })),
    };
  }

  /** The thread's messages; the practice's become read. */
  async thread(memberId: string, threadId: string): Promise<MessageThread> {
    const thread = await this.ownThread(memberId, threadId);
    await this.repository.markRead(threadId, 'member', this.clock.now());
    const rows = await this.repository.messagesOf(threadId);
    const attached = await this.attachedItems(memberId, rows);
    return { ...threadFields(thread), messages: this.toMessages(rows, attached) };
  }

  async unread(memberId: string): Promise<{ unread: number }> {
    return { unread: await this.repository.unreadByMember(memberId) };
  }

  /** The practice's threads; each one shown (its subject) joins its member's audit trail. */
  async staffThreads(
    staff: StaffActor,
    query: ClinicMessageThreadQuery,
  ): Promise<Page<ClinicMessageThreadSummary>> {
    const page = pageOf(await this.repository.staffThreads(query.status, query), query);
    for (const thread of page.items) {
      await this.audit.record({
        memberId: thread.memberId,
        actor: staff.id,
        action: 'read',
        resourceType: 'message_thread_list',
        resourceId: thread.id,
        result: 'success',
      });
    }
    return { ...page, items: page.items.map(staffThreadFields) };
  }

  /** A thread as staff read it, the members' messages marked read; the read joins the member's
   *  audit trail with the staff member as actor. */
  async staffThread(staff: StaffActor, threadId: string): Promise<ClinicMessageThread> {
    const thread = await this.practiceThread(threadId);
    await this.repository.markRead(threadId, 'staff', this.clock.now());
    const rows = await this.repository.messagesOf(threadId);
    const attached = await this.attachedItems(thread.memberId, rows);
    const scoped = this.staffLinks.scope(staff.id, attached);
    await this.audit.record({
      memberId: thread.memberId,
      actor: staff.id,
      action: 'read',
      resourceType: 'message_thread',
      resourceId: threadId,
      result: 'success',
    });
    return { ...staffThreadBase(thread), messages: this.toMessages(rows, scoped) };
  }

  /** A staff reply; the member is told there is a new message (never what it says). */
  async staffReply(
    staff: StaffActor,
    threadId: string,
    request: NewStaffMessage,
  ): Promise<CreatedMessage> {
    const thread = await this.practiceThread(threadId);
    const added = this.written(
      await this.repository.addMessage(
        threadId,
        thread.memberId,
        {
          authorId: staff.id,
          authorRole: 'staff',
          authorName: staff.name,
          body: request.body,
          attachments: [],
        },
        messageThreadMaxMessages,
        this.clock.now(),
      ),
    );
    await this.audit.record({
      memberId: thread.memberId,
      actor: staff.id,
      action: 'create',
      resourceType: 'message',
      resourceId: added.messageId,
      result: 'success',
    });
    await this.notices.afterReply(added.notices);
    await this.events.changed({ memberId: thread.memberId, threadId });
    return { id: added.messageId };
  }

  /** Closes or reopens the thread, or gives it to an active staff member. */
  async change(threadId: string, change: MessageThreadChange): Promise<ClinicMessageThreadSummary> {
    await this.practiceThread(threadId);
    const assignedTo = change.assigned_to;
    if (
      assignedTo !== undefined &&
      assignedTo !== null &&
      !(await this.isActiveStaff(assignedTo))
    ) {
      throw new UnprocessableEntity(messageAssigneeNotFoundMessage);
    }
    await this.repository.change(threadId, { status: change.status, assignedTo });
    const changed = await this.practiceThread(threadId);
    await this.events.changed({ memberId: changed.memberId, threadId });
    return staffThreadFields(changed);
  }

  async staffUnread(): Promise<{ unread: number }> {
    return { unread: await this.repository.unreadByStaff() };
  }

  private async ownThread(memberId: string, threadId: string): Promise<MessageThreadRow> {
    const thread = await this.repository.memberThread(memberId, threadId);
    if (thread === undefined) throw new NotFound(messageThreadNotFoundMessage);
    return thread;
  }

  private async practiceThread(threadId: string): Promise<StaffThreadRow> {
    const thread = await this.repository.staffThread(threadId);
    if (thread === undefined) throw new NotFound(messageThreadNotFoundMessage);
    return thread;
  }

  private memberMessage(
    memberId: string,
    body: string,
    attachments: NewMemberMessage['attachments'] = [],
  ) {
    return {
      authorId: memberId,
      authorRole: 'member' as const,
      authorName: null,
      body,
      attachments: attachments.map((ref) => ({ kind: ref.kind, itemId: ref.id })),
    };
  }

  private written<Created>(outcome: Created | WriteRefusal): Created {
    if (outcome === 'attachment') throw new NotFound(messageAttachmentNotFoundMessage);
    if (outcome === 'full') throw new UnprocessableEntity(messageThreadFullMessage);
    return outcome;
  }

  /** Every item attached in the thread, as the member's modules answer it now. */
  private async attachedItems(memberId: string, rows: readonly MessageWithAttachments[]) {
    const idsOf = (kind: AttachmentRef['kind']) => [
      ...new Set(
        rows.flatMap((row) => row.attachments.filter((a) => a.kind === kind).map((a) => a.itemId)),
      ),
    ];
    const [photos, records, dentalAi] = await Promise.all([
      this.items.photos(memberId, idsOf('photo')),
      this.items.records(memberId, idsOf('record')),
      this.items.dentalAi(memberId, idsOf('dental_ai')),
    ]);
    return { photos, records, dentalAi };
  }

  private toMessages(
    rows: readonly MessageWithAttachments[],
    items: { photos: OralPhoto[]; records: MedicalRecord[]; dentalAi: DentalAiResult[] },
  ): Message[] {
    const find = <Item extends { id: string }>(list: Item[], id: string) =>
      list.find((item) => item.id === id) ?? null;
    const toAttachment = ({ kind, itemId }: AttachmentRef): MessageAttachment => {
      switch (kind) {
        case 'photo':
          return { kind, id: itemId, photo: find(items.photos, itemId) };
        case 'record':
          return { kind, id: itemId, record: find(items.records, itemId) };
        case 'dental_ai':
          return { kind, id: itemId, dental_ai: find(items.dentalAi, itemId) };
      }
    };
    return rows.map((row) => {
      // The other side's read mark: for a member's message, when staff first read it.
      const readAt = row.authorRole === 'member' ? row.staffReadAt : row.memberReadAt;
      return {
        id: row.id,
        author: { role: row.authorRole, name: row.authorName },
        body: row.body,
        created_at: row.createdAt.toISOString(),
        read_at: readAt?.toISOString() ?? null,
        attachments: row.attachments.map(toAttachment),
      };
    });
  }
}

function threadFields(row: MessageThreadRow) {
  return {
    id: row.id,
    subject: row.subject,
    status: row.status,
    created_at: row.createdAt.toISOString(),
    last_message_at: row.lastMessageAt.toISOString(),
  };
}

function staffThreadFields(row: StaffThreadRow): ClinicMessageThreadSummary {
  return { ...staffThreadBase(row), unread: row.unread };
}

function staffThreadBase(row: StaffThreadRow) {
  return {
    ...threadFields(row),
    patient: { id: row.memberId, username: row.patientUsername },
    assigned_to:
      row.assignedTo === null || row.assigneeName === null
        ? null
        : { id: row.assignedTo, name: row.assigneeName },
  };
}
