import {
  aliasedTable,
  and,
  asc,
  count,
  desc,
  eq,
  inArray,
  isNull,
  sql,
  type SQL,
} from 'drizzle-orm';
import type { MessageAttachmentKind, MessageThreadStatus, PageRequest } from '@dental/contracts';
import type { Database } from '#api/db/client';
import {
  dentalAiResults,
  medicalRecords,
  messageAttachments,
  messages,
  messageThreads,
  oralPhotos,
  users,
  type MessageRow,
  type MessageThreadRow,
} from '#api/db/schema';
import { rowsToFetch } from '#api/lib/pagination';
import { insertNotices } from './message-notices.repository';

/** An item of the member's, attached in the member's order. */
export interface AttachmentRef {
  kind: MessageAttachmentKind;
  itemId: string;
}

export interface NewMessage {
  authorId: string;
  authorRole: MessageRow['authorRole'];
  /** Null: the author's account name now (a member's). */
  authorName: string | null;
  body: string;
  attachments: readonly AttachmentRef[];
}

export interface ThreadWithUnread extends MessageThreadRow {
  unread: number;
}

export interface StaffThreadRow extends ThreadWithUnread {
  patientUsername: string;
  assigneeName: string | null;
}

export interface MessageWithAttachments extends MessageRow {
  attachments: AttachmentRef[];
}

/** Why a write did not happen: an attachment is not the member's, or the thread is full. */
export type WriteRefusal = 'attachment' | 'full';

const assignees = aliasedTable(users, 'assignees');

/** Each kind's table and owner column: an attachment must be a row of the member's here. */
const itemTables = {
  photo: { table: oralPhotos, id: oralPhotos.id, owner: oralPhotos.userId },
  record: { table: medicalRecords, id: medicalRecords.id, owner: medicalRecords.userId },
  dental_ai: { table: dentalAiResults, id: dentalAiResults.id, owner: dentalAiResults.userId },
} as const;

/** The other side's messages of the thread that `reader` has not read. Names are written out:
 *  drizzle leaves columns unqualified in a one-table query, which the subquery would misread. */
const unreadBy = (reader: MessageRow['authorRole']) =>
  sql<number>`(select count(*) from messages m where m.thread_id = "message_threads"."id"
    and m.author_role = ${reader === 'member' ? 'staff' : 'member'}
    and ${sql.raw(reader === 'member' ? 'm.member_read_at' : 'm.staff_read_at')} is null)`.mapWith(
    Number,
  );

/**
 * The only code that reads or writes threads, messages and attachments. Every member query takes
 * the member's id; staff queries read practice-wide (docs/decisions/care-messages.md).
 */
export class MessageRepository {
  constructor(private readonly db: Database) {}

  /** Creates the thread with its first message; undefined (nothing written) when an attachment
   *  is not the member's. */
  createThread(
    memberId: string,
    subject: string,
    first: NewMessage,
    now: Date,
  ): Promise<{ threadId: string } | WriteRefusal> {
    return this.db.transaction(async (tx) => {
      const repository = new MessageRepository(tx);
      if (!(await repository.ownsAll(memberId, first.attachments))) return 'attachment';
      const [thread] = await tx
        .insert(messageThreads)
        .values({ memberId, subject, createdAt: now, lastMessageAt: now })
        .returning({ id: messageThreads.id });
      if (thread === undefined) throw new Error('insert returned no thread');
      await repository.insertMessage(memberId, thread.id, first, now);
      return { threadId: thread.id };
    });
  }

  /**
   * Adds a message to a thread: locks the thread so the cap on messages holds under concurrent
   * writes, checks the attachments are the member's, and moves the thread to the top.
   */
  addMessage(
    threadId: string,
    memberId: string,
    message: NewMessage,
    maxMessages: number,
    now: Date,
  ): Promise<{ messageId: string; notices: string[] } | WriteRefusal> {
    return this.db.transaction(async (tx) => {
      const repository = new MessageRepository(tx);
      await tx
        .select({ id: messageThreads.id })
        .from(messageThreads)
        .where(eq(messageThreads.id, threadId))
        .for('update');
      const [held] = await tx
        .select({ messages: count() })
        .from(messages)
        .where(eq(messages.threadId, threadId));
      if ((held?.messages ?? 0) >= maxMessages) return 'full';
      if (!(await repository.ownsAll(memberId, message.attachments))) return 'attachment';
      const messageId = await repository.insertMessage(memberId, threadId, message, now);
      await tx
        .update(messageThreads)
        // A member writing again reopens a closed thread, so the practice sees it.
        .set(
          message.authorRole === 'member'
            ? { lastMessageAt: now, status: 'open' }
            : { lastMessageAt: now },
        )
        .where(eq(messageThreads.id, threadId));
      const notices =
        message.authorRole === 'staff' ? await insertNotices(tx, memberId, { messageId }, now) : [];
      return { messageId, notices };
    });
  }

  /** The member's thread, or undefined for anyone else's. */
  async memberThread(memberId: string, threadId: string): Promise<MessageThreadRow | undefined> {
    const [row] = await this.db
      .select()
      .from(messageThreads)
      .where(and(eq(messageThreads.id, threadId), eq(messageThreads.memberId, memberId)));
    return row;
  }

  /** The member's threads, newest message first, with the practice's messages they have not read. */
  memberThreads(memberId: string, page: PageRequest): Promise<ThreadWithUnread[]> {
    return this.db
      .select({ ...threadColumns, unread: unreadBy('member') })
      .from(messageThreads)
      .where(eq(messageThreads.memberId, memberId))
      .orderBy(desc(messageThreads.lastMessageAt), desc(messageThreads.id))
      .limit(rowsToFetch(page))
      .offset(page.offset);
  }

  /** Every thread of the practice with this status, newest message first. */
  staffThreads(status: MessageThreadStatus, page: PageRequest): Promise<StaffThreadRow[]> {
    return this.staffThreadQuery(eq(messageThreads.status, status))
      .orderBy(desc(messageThreads.lastMessageAt), desc(messageThreads.id))
      .limit(rowsToFetch(page))
      .offset(page.offset);
  }

  async staffThread(threadId: string): Promise<StaffThreadRow | undefined> {
    const [row] = await this.staffThreadQuery(eq(messageThreads.id, threadId));
    return row;
  }

  /** The thread's messages, oldest first, each with its attachments in the member's order. */
  async messagesOf(threadId: string): Promise<MessageWithAttachments[]> {
    const rows = await this.db
      .select()
      .from(messages)
      .where(eq(messages.threadId, threadId))
      .orderBy(asc(messages.createdAt), asc(messages.id));
    if (rows.length === 0) return [];
    const attached = await this.db
      .select()
      .from(messageAttachments)
      .where(
        inArray(
          messageAttachments.messageId,
          rows.map((row) => row.id),
        ),
      )
      .orderBy(asc(messageAttachments.position));
    return rows.map((row) => ({
      ...row,
      attachments: attached
        .filter((attachment) => attachment.messageId === row.id)
        .map(({ kind, itemId }) => ({ kind, itemId })),
    }));
  }

  /** Marks the other side's messages of the thread read by `reader`; earlier marks stay. */
  async markRead(threadId: string, reader: MessageRow['authorRole'], now: Date): Promise<void> {
    const mark = reader === 'member' ? messages.memberReadAt : messages.staffReadAt;
    await this.db
      .update(messages)
      .set(reader === 'member' ? { memberReadAt: now } : { staffReadAt: now })
      .where(
        and(
          eq(messages.threadId, threadId),
          eq(messages.authorRole, reader === 'member' ? 'staff' : 'member'),
          isNull(mark),
        ),
      );
  }

  /** Messages of the practice the member has not read, across their threads. */
  async unreadByMember(memberId: string): Promise<number> {
    const [row] = await this.db
      .select({ unread: count() })
      .from(messages)
      .innerJoin(messageThreads, eq(messageThreads.id, messages.threadId))
      .where(
        and(
          eq(messageThreads.memberId, memberId),
          eq(messages.authorRole, 'staff'),
          isNull(messages.memberReadAt),
        ),
      );
    return row?.unread ?? 0;
  }

  /** Members' messages no staff member has read, in the open threads staff see. */
  async unreadByStaff(): Promise<number> {
    const [row] = await this.db
      .select({ unread: count() })
      .from(messages)
      .innerJoin(messageThreads, eq(messageThreads.id, messages.threadId))
      .innerJoin(users, eq(users.id, messageThreads.memberId))
      .where(
        and(
          eq(messageThreads.status, 'open'),
          eq(messages.authorRole, 'member'),
          isNull(messages.staffReadAt),
          isNull(users.deactivatedAt),
        ),
      );
    return row?.unread ?? 0;
  }

  async change(
    threadId: string,
    change: { status?: MessageThreadStatus; assignedTo?: string | null },
  ): Promise<boolean> {
    const changed = await this.db
      .update(messageThreads)
      .set(change)
      .where(eq(messageThreads.id, threadId))
      .returning({ id: messageThreads.id });
    return changed.length > 0;
  }

  /** Whether the member attached this item to one of their threads: staff may then open it. */
  async isAttached(memberId: string, kind: MessageAttachmentKind, itemId: string) {
    const rows = await this.db
      .select({ itemId: messageAttachments.itemId })
      .from(messageAttachments)
      .where(
        and(
          eq(messageAttachments.memberId, memberId),
          eq(messageAttachments.kind, kind),
          eq(messageAttachments.itemId, itemId),
        ),
      )
      .limit(1);
    return rows.length > 0;
  }

  /** Threads of active members: a deactivated member's access has ended, as for sharing. */
  private staffThreadQuery(condition: SQL) {
    return this.db
      .select({
        ...threadColumns,
        unread: unreadBy('staff'),
        patientUsername: users.username,
        assigneeName: assignees.username,
      })
      .from(messageThreads)
      .innerJoin(users, eq(users.id, messageThreads.memberId))
      .leftJoin(assignees, eq(assignees.id, messageThreads.assignedTo))
      .where(and(condition, isNull(users.deactivatedAt)))
      .$dynamic();
  }

  /** Whether every item is a row of the member's own (one query per kind). */
  private async ownsAll(memberId: string, refs: readonly AttachmentRef[]): Promise<boolean> {
    for (const kind of Object.keys(itemTables) as MessageAttachmentKind[]) {
      const ids = refs.filter((ref) => ref.kind === kind).map((ref) => ref.itemId);
      if (ids.length === 0) continue;
      const { table, id, owner } = itemTables[kind];
      const [row] = await this.db
        .select({ owned: count() })
        .from(table)
        .where(and(eq(owner, memberId), inArray(id, ids)));
      if ((row?.owned ?? 0) !== ids.length) return false;
    }
    return true;
  }

  private async insertMessage(
    memberId: string,
    threadId: string,
    message: NewMessage,
    now: Date,
  ): Promise<string> {
    const [row] = await this.db
      .insert(messages)
      .values({
        threadId,
        authorId: message.authorId,
        authorRole: message.authorRole,
        authorName:
          message.authorName ??
          sql`(select ${users.username} from ${users} where ${users.id} = ${message.authorId})`,
        body: message.body,
        createdAt: now,
      })
      .returning({ id: messages.id });
    if (row === undefined) throw new Error('insert returned no message');
    if (message.attachments.length > 0) {
      await this.db.insert(messageAttachments).values(
        message.attachments.map((attachment, position) => ({
          messageId: row.id,
          memberId,
          kind: attachment.kind,
          itemId: attachment.itemId,
          position,
        })),
      );
    }
    return row.id;
  }
}

const threadColumns = {
  id: messageThreads.id,
  memberId: messageThreads.memberId,
  subject: messageThreads.subject,
  status: messageThreads.status,
  assignedTo: messageThreads.assignedTo,
  createdAt: messageThreads.createdAt,
  lastMessageAt: messageThreads.lastMessageAt,
};
