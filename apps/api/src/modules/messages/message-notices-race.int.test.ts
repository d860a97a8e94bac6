import { describe, inject } from 'vitest';
import { inArray } from 'drizzle-orm';
import { newMessageThread } from '@dental/contracts';
import { messageNotices } from '#api/db/schema';
import { factories } from '#api-test/factories';
import { staffFactories } from '#api-test/staff';
import { noticeRaceTests, noticeWorkers } from '#api-test/support/notice-workers';

/**
 * Reply notices with worker processes racing on one database, and one killed between handing a
 * notice to the mail server and recording it (docs/decisions/care-messages.md). Separate
 * processes cannot share an embedded PGlite database: PostgreSQL pass only.
 */
describe.runIf(inject('testDatabase').kind === 'postgres')(
  'reply notices with worker processes',
  () => {
    const setting = noticeWorkers();

    /** `count` threads of new members, each answered once by a staff member. */
    async function replies(count: number) {
      const { t, api } = setting;
      const factory = factories(t);
      const staff = await staffFactories(t).staff('practitioner');
      const threadIds: string[] = [];
      const messageIds: string[] = [];
      for (let index = 0; index < count; index++) {
        const member = await factory.member();
        const { id } = await api.messages.start(
          member.id,
          newMessageThread.parse({ subject: `Question ${String(index)}`, body: 'Is this ok?' }),
        );
        const reply = await api.messages.staffReply({ id: staff.id, name: staff.username }, id, {
          body: 'Yes.',
        });
        threadIds.push(id);
        messageIds.push(reply.id);
      }
      return { linkIds: threadIds, rows: inArray(messageNotices.messageId, messageIds) };
    }

    noticeRaceTests(setting, replies, (threadId) => `/messages/${threadId}`);
  },
);
