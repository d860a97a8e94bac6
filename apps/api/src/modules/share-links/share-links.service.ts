import { createHash, randomBytes } from 'node:crypto';
import {
  problemTypes,
  type DentalAiResult,
  shareItemNotFoundMessage,
  shareLinkListLimit,
  shareLinkNotFoundMessage,
  shareLinkPaths,
  sharePasscodeRequiredMessage,
  sharePasscodeWrongMessage,
  type MedicalRecord,
  type NewShareLink,
  type OralPhoto,
  type Report,
  type ShareLink,
  type ShareLinkCreated,
  type SharedItems,
} from '@dental/contracts';
import type { Clock } from '#api/clock';
import type { ShareLinkRow } from '#api/db/schema';
import { NotFound, Unauthorized } from '#api/domain-errors';
import type { ShareLinkRepository, ShareLinkWithCounts } from './share-links.repository';
import type { SharedFiles } from './shared-files';

/** The member's photos as the photo module answers them (wired in services.ts). */
export interface SharedPhotos {
  getMany(userId: string, ids: readonly string[]): Promise<OralPhoto[]>;
}

/** The member's records with their files, as the records module answers them. */
export interface SharedRecords {
  getMany(userId: string, ids: readonly string[]): Promise<MedicalRecord[]>;
}

/** The member's Dental AI results, as the Dental AI module answers them. */
export interface SharedDentalAi {
  getMany(userId: string, ids: readonly string[]): Promise<DentalAiResult[]>;
}

/** The member's reports that are done and not deleted, as the reports module answers them. */
export interface SharedReports {
  getManyDone(userId: string, ids: readonly string[]): Promise<Report[]>;
}

/** Hashes and checks passcodes like passwords (argon2id; the auth module's service). */
export interface PasscodeHasher {
  hash(passcode: string): Promise<string>;
  verify(passcodeHash: string | null, passcode: string): Promise<boolean>;
}

/** Wrong passcodes lock a link like wrong passwords lock a sign-in: the auth module's lock on
 *  guesses, wired in services.ts (docs/decisions/login-throttling.md). */
export interface PasscodeGuessLock {
  /** Reserves the guess (429 while `key` is locked), evaluates it, clears `key` when right. */
  evaluate<Answer>(key: string, now: Date, evaluate: () => Promise<Answer>): Promise<Answer>;
}

export interface ShareLinkSettings {
  publicUrl: string;
}

/** 401 for a link that needs its passcode: none was sent, or a wrong one. */
export class SharePasscodeNeeded extends Unauthorized {
  override readonly type = problemTypes.sharePasscode;
}

/** 256 random bits (at least 128 are required): a link cannot be guessed. */
const tokenBytes = 32;
const hourMs = 60 * 60 * 1000;

const hashOf = (text: string) => createHash('sha256').update(text).digest('hex');

/** Share links for a dentist (docs/decisions/share-links.md, docs/product/sharing.md). */
export class ShareLinkService {
  constructor(
    private readonly repository: ShareLinkRepository,
    private readonly photos: SharedPhotos,
    private readonly records: SharedRecords,
    private readonly passcodes: PasscodeHasher,
    private readonly guesses: PasscodeGuessLock,
    private readonly clock: Clock,
    private readonly settings: ShareLinkSettings,
    private readonly sharedFiles: SharedFiles,
    private readonly dentalAi: SharedDentalAi,
    private readonly reports: SharedReports,
  ) {}

  /** A new link to the member's own photos, records, Dental AI results and finished reports; the
   *  token is answered only here. */
  async create(userId: string, input: NewShareLink): Promise<ShareLinkCreated> {
    const photoIds = [...new Set(input.photos)];
    const recordIds = [...new Set(input.records)];
    const dentalAiIds = [...new Set(input.dental_ai)];
    const reportIds = [...new Set(input.reports)];
    // Another member's id (or one that is gone, or a report not done) makes no link: every item
    // must be the member's and ready to show.
    const [photos, records, results, reports] = await Promise.all([
      this.photos.getMany(userId, photoIds),
      this.records.getMany(userId, recordIds),
      this.dentalAi.getMany(userId, dentalAiIds),
      this.reports.getManyDone(userId, reportIds),
    ]);
    if (
      photos.length !== photoIds.length ||
      records.length !== recordIds.length ||
      results.length !== dentalAiIds.length ||
      reports.length !== reportIds.length
    ) {
      throw new NotFound(shareItemNotFoundMessage);
    }
    const token = randomBytes(tokenBytes).toString('base64url');
    const now = this.clock.now();
    const row = await this.repository.insert(
      userId,
      {
        tokenHash: hashOf(token),
        label: input.label,
        passcodeHash:
          input.passcode === undefined ? null : await this.passcodes.hash(input.passcode),
        createdAt: now,
        expiresAt: new Date(now.getTime() + input.expires_in_hours * hourMs),
      },
      { photoIds, recordIds, dentalAiIds, reportIds },
    );
    return {
      id: row.id,
      url: `${this.settings.publicUrl}${shareLinkPaths.page(token)}`,
      token,
      expires_at: row.expiresAt.toISOString(),
    };
  }

  /** The member's links, newest first, with how often and when each was opened. */
  async list(userId: string): Promise<ShareLink[]> {
    const rows = await this.repository.list(userId, shareLinkListLimit);
    const now = this.clock.now();
    return rows.map((row) => toShareLink(row, now));
  }

  /** Stops the link at once; its row stays in the list as revoked. */
  async revoke(userId: string, id: string): Promise<void> {
    const row = await this.repository.revoke(userId, id, this.clock.now());
    if (row === undefined) throw new NotFound(shareLinkNotFoundMessage);
  }

  /**
   * What the recipient sees. Unknown, revoked and expired links are all the same 404; a link
   * with a passcode answers 401 until the right one comes, and wrong ones lock it for a while.
   */
  async open(token: string, passcode: string | undefined): Promise<SharedItems> {
    const link = await this.repository.findByTokenHash(hashOf(token));
    const now = this.clock.now();
    if (link === undefined || !isActive(link, now)) throw new NotFound(shareLinkNotFoundMessage);
    if (link.passcodeHash !== null) await this.checkPasscode(link, passcode, now);
    const counted = await this.repository.countView(link.id, now);
    // Revoked or expired between the two statements.
    if (counted === undefined) throw new NotFound(shareLinkNotFoundMessage);
    const { photoIds, recordIds, dentalAiIds, reportIds } = await this.repository.items(link.id);
    const [photos, records, dentalAi, reports] = await Promise.all([
      this.photos.getMany(link.userId, photoIds),
      this.records.getMany(link.userId, recordIds),
      this.dentalAi.getMany(link.userId, dentalAiIds),
      this.reports.getManyDone(link.userId, reportIds),
    ]);
    // The owner's links name the owner's member id; the recipient's name only the share.
    const scoped = this.sharedFiles.scope(link.id, { photos, records, dentalAi, reports });
    return {
      label: link.label,
      expires_at: link.expiresAt.toISOString(),
      photos: scoped.photos,
      records: scoped.records,
      dental_ai: scoped.dentalAi,
      reports: scoped.reports,
    };
  }

  /** The owner and id of the link a token names, whatever its state, for the audit row. */
  async subjectOf(token: string): Promise<{ memberId: string; linkId: string } | null> {
    const link = await this.repository.findByTokenHash(hashOf(token));
    return link === undefined ? null : { memberId: link.userId, linkId: link.id };
  }

  private async checkPasscode(link: ShareLinkRow, passcode: string | undefined, now: Date) {
    // No passcode sent is the page asking whether one is needed: it is not a guess.
    if (passcode === undefined) throw new SharePasscodeNeeded(sharePasscodeRequiredMessage);
    // One key per link, not per address: guesses from many addresses share one lock.
    const key = hashOf(`share-link:${link.id}`);
    const right = await this.guesses.evaluate(key, now, () =>
      this.passcodes.verify(link.passcodeHash, passcode),
    );
    if (!right) throw new SharePasscodeNeeded(sharePasscodeWrongMessage);
  }
}

function isActive(link: ShareLinkRow, now: Date): boolean {
  return link.revokedAt === null && link.expiresAt > now;
}

/** Rows never leave the service: a link as the Shared links screen lists it. */
function toShareLink(row: ShareLinkWithCounts, now: Date): ShareLink {
  return {
    id: row.id,
    label: row.label,
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    revoked_at: row.revokedAt?.toISOString() ?? null,
    state: row.revokedAt !== null ? 'revoked' : row.expiresAt > now ? 'active' : 'expired',
    has_passcode: row.passcodeHash !== null,
    photo_count: row.photoCount,
    record_count: row.recordCount,
    dental_ai_count: row.dentalAiCount,
    report_count: row.reportCount,
    views: row.views,
    last_viewed_at: row.lastViewedAt?.toISOString() ?? null,
  };
}
