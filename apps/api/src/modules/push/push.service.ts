import {
  pushEndpointNotHttpsMessage,
  pushSubscriptionNotFoundMessage,
  type PushPublicKey,
  type PushSubscriptionRequest,
  type PushSubscriptionResponse,
} from '@dental/contracts';
import {
  subscriptionGone,
  type PushTarget,
  type WebPushSender,
} from '#api/adapters/push/web-push-sender';
import type { Clock } from '#api/clock';
import { BadRequest, NotFound } from '#api/domain-errors';
import type { JobQueue, QueueRules } from '#api/jobs/job-queue';
import { deliverOnce } from '#api/jobs/outbox';
import type { PushQueue } from '#api/jobs/push-outbox';
import type { ErrorLogger } from '#api/logger';
import type { AuthenticatedUser } from '#api/plugins/auth';
import type { PushDelivery, PushRepository } from './push.repository';

/** The pg-boss queue of pushes; each job's id is its push's id. */
export const pushQueue = 'push-delivery';

export interface PushJob {
  pushId: string;
}

export interface PushSettings {
  publicKey: string;
  /** Every push's title. */
  companyName: string;
  /** http:// endpoints on this machine are taken (the local push service of tests). */
  localEndpoints: boolean;
  /** The reminders' retry rules: a push is as urgent as a reminder. */
  rules: QueueRules;
}

/** Sends one push; the adapter in production, a stand-in nowhere (tests use a local service). */
export type PushSend = Pick<WebPushSender, 'send'>;

const sweepBatch = 500;

/** localhost and 127.0.0.0/8: the only hosts an http:// endpoint may name, and only when asked. */
function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || /^127(\.\d{1,3}){3}$/.test(hostname) || hostname === '[::1]';
}

/**
 * Notifications when the app is closed (docs/decisions/web-push.md): each signed-in session may
 * hold one browser subscription; events write their pushes in their own transaction (the outbox,
 * insertPushes) and each push is a job sent exactly once, as reminders are.
 */
export class PushService implements PushQueue {
  constructor(
    private readonly repository: PushRepository,
    /** Undefined in a process that does not talk to the queue; the sweep queues for it. */
    private readonly jobs: JobQueue | undefined,
    private readonly sender: PushSend,
    private readonly clock: Clock,
    private readonly settings: PushSettings,
    private readonly log: ErrorLogger,
  ) {}

  get queueRules(): QueueRules {
    return this.settings.rules;
  }

  publicKey(): PushPublicKey {
    return { public_key: this.settings.publicKey };
  }

  /** Stores this session's browser subscription; an endpoint that is not https is refused. */
  async subscribe(
    user: AuthenticatedUser,
    request: PushSubscriptionRequest,
  ): Promise<PushSubscriptionResponse> {
    const endpoint = new URL(request.endpoint);
    const local =
      this.settings.localEndpoints &&
      endpoint.protocol === 'http:' &&
      isLoopbackHost(endpoint.hostname);
    if (endpoint.protocol !== 'https:' && !local) {
      throw new BadRequest(pushEndpointNotHttpsMessage, {
        endpoint: [pushEndpointNotHttpsMessage],
      });
    }
    const row = await this.repository.subscribe(
      {
        userId: user.id,
        sessionId: user.sessionId,
        endpoint: request.endpoint,
        p256dh: request.keys.p256dh.replace(/=+$/, ''),
        auth: request.keys.auth.replace(/=+$/, ''),
      },
      this.clock.now(),
    );
    return { id: row.id, created_at: row.createdAt.toISOString() };
  }

  /** Ends one of the member's subscriptions; any other id is 404. */
  async unsubscribe(user: AuthenticatedUser, id: string): Promise<void> {
    if (!(await this.repository.unsubscribe(user.id, id))) {
      throw new NotFound(pushSubscriptionNotFoundMessage);
    }
  }

  /** After an event's commit: queue its pushes. A failure loses nothing: the sweep queues them. */
  async afterCommit(): Promise<void> {
    try {
      await this.sweep();
    } catch (error) {
      this.log.error({ err: error }, 'queueing pushes failed; the sweep will queue them');
    }
  }

  /** Queues every pending push that has no job yet. */
  async sweep(): Promise<void> {
    if (this.jobs === undefined) return;
    for (;;) {
      const now = this.clock.now();
      const batch = await this.repository.unqueued(now, sweepBatch);
      const ids = batch.map((row) => row.id);
      if (ids.length > 0) {
        await this.jobs.send<PushJob>(
          pushQueue,
          ids.map((id) => ({ id, data: { pushId: id }, startAfter: now })),
        );
        await this.repository.markQueued(ids, now);
      }
      if (batch.length < sweepBatch) return;
    }
  }

  /** Sends one push exactly once between workers (deliverOnce). */
  deliver(pushId: string, lastAttempt: boolean): Promise<void> {
    return deliverOnce(
      this.repository,
      pushId,
      lastAttempt,
      (delivery, tx) => this.send(delivery, tx),
      () => this.clock.now(),
    );
  }

  private async send(
    delivery: PushDelivery,
    tx: PushRepository,
  ): Promise<{ status: 'sent' | 'skipped'; detail: string | null }> {
    if (delivery.subscription === null) return { status: 'skipped', detail: 'notifications off' };
    const target: PushTarget = delivery.subscription;
    try {
      await this.sender.send(target, { title: this.settings.companyName, ...delivery.notice });
    } catch (error) {
      if (!subscriptionGone(error)) throw error;
      // The browser or its push service ended the subscription: forget it.
      await tx.forget(delivery.subscription.id);
      return { status: 'skipped', detail: (error as Error).message };
    }
    return { status: 'sent', detail: null };
  }
}
