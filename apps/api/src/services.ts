import path from 'node:path';
import { createBlobStore } from './adapters/blob-store/create-blob-store';
import { createDetector } from './adapters/detector/create-detector';
import type { Mailer } from './adapters/mailer';
import { createPaymentProvider } from './adapters/payments/create-payment-provider';
import { createSmsSender } from './adapters/sms/create-sms-sender';
import type { SmsSender } from './adapters/sms/sms-sender';
import type { Clock } from './clock';
import { fileLinkSecret, messageEventTicketSecret, totpSecretKey, type Config } from './config';
import type { Database } from './db/client';
import { inProcessNotifications, type NotificationsFactory } from './db/notifications';
import { NotFound } from './domain-errors';
import type { JobQueue } from './jobs/job-queue';
import { Metrics } from './lib/metrics';
import { SignedLinks } from './lib/signed-links';
import { integrityChecked } from './modules/files/integrity-checked-blob-store';
import type { ErrorLogger } from './logger';
import { createRepositories, type Repositories } from './repositories';
import { AccountService } from './modules/account/account.service';
import { EmailConfirmationService } from './modules/auth/email-confirmation.service';
import { GuessLock } from './modules/auth/guess-lock';
import { loginLockPolicy } from './modules/auth/login-failures.repository';
import { PasskeyService } from './modules/auth/passkeys/passkeys.service';
import { PasswordChangeService } from './modules/auth/password-change.service';
import { PasswordRecheckService } from './modules/auth/password-recheck.service';
import { PasswordResetService } from './modules/auth/password-reset.service';
import { assertAcceptablePassword, PasswordService } from './modules/auth/password.service';
import { RegistrationService } from './modules/auth/registration.service';
import { SecondFactorService } from './modules/auth/second-factor.service';
import { SecurityNotices } from './modules/auth/security-notices';
import { SessionService } from './modules/auth/session.service';
import type { EndStandingLinks } from './modules/auth/standing-links';
import { SocialAccountService } from './modules/auth/social-account.service';
import { SocialIdentityVerifier } from './modules/auth/social-identity';
import { hashOpaqueToken, newOpaqueToken, TokenService } from './modules/auth/token.service';
import { registerAppointmentJobs } from './modules/appointments/appointments.jobs';
import { RepositoryAuditLookups } from './modules/audit/audit-lookups';
import { AuditService } from './modules/audit/audit.service';
import { AppointmentService } from './modules/appointments/appointments.service';
import { CalendarService } from './modules/calendar/calendar.service';
import { reminderQueueRules, ReminderService } from './modules/appointments/reminders.service';
import { CheckUpRecallService } from './modules/appointments/check-up-recall.service';
import { ContentLoaderService } from './modules/content/content-loader.service';
import { DelegationService } from './modules/delegation/delegation.service';
import { registerDataExportJobs } from './modules/data-export/data-export.jobs';
import { DataExportService } from './modules/data-export/data-export.service';
import { registerDataImportJobs } from './modules/data-import/data-import.jobs';
import { DataImportService } from './modules/data-import/data-import.service';
import { registerReportJobs } from './modules/reports/reports.jobs';
import { ReportService } from './modules/reports/reports.service';
import { DentalAiService } from './modules/dental-ai/dental-ai.service';
import { ShippedModelFigures } from './modules/dental-ai/model-figures';
import { DentalKnowledgeService } from './modules/dental-knowledge/dental-knowledge.service';
import { HomeService } from './modules/home/home.service';
import { FileStorage } from './modules/files/file-storage';
import { registerFileJobs } from './modules/files/files.jobs';
import { OrphanSweep } from './modules/files/orphan-sweep';
import { MedicalRecordService } from './modules/medical-records/medical-records.service';
import { registerMembershipJobs } from './modules/membership/membership.jobs';
import { MembershipService } from './modules/membership/membership.service';
import { ReceiptsService } from './modules/receipts/receipts.service';
import { EventTickets, MessageEvents } from './modules/messages/message-events';
import { MessageNoticeService } from './modules/messages/message-notices.service';
import { registerMessageJobs } from './modules/messages/messages.jobs';
import { MessageService } from './modules/messages/messages.service';
import { WebPushSender } from './adapters/push/web-push-sender';
import { registerPushJobs } from './modules/push/push.jobs';
import { PushService, type PushSend } from './modules/push/push.service';
import { PlanLimitsService } from './modules/membership/plan-limits.service';
import { OralPhotoService } from './modules/oral-photo/oral-photo.service';
import { OralSupplierService } from './modules/oral-supplier/oral-supplier.service';
import { ShopService } from './modules/shop/shop.service';
import { ShareLinkService } from './modules/share-links/share-links.service';
import { SharedFiles, sharedFilesPath } from './modules/share-links/shared-files';
import { staffMayOpen } from './modules/care-team/care-team.repository';
import { CareTeamService } from './modules/care-team/care-team.service';
import { careTeamFilesPath } from './modules/care-team/clinic-patients.routes';
import { StaffService } from './modules/clinic/staff.service';
import { deidentifiedDicom } from './modules/uploads/dicom-structure';
import { UploadAcceptance } from './modules/uploads/upload-acceptance';
import { ConsultationService } from './modules/virtual-consultation/virtual-consultation.service';
import { ClinicService } from './modules/virtual-consultation/clinic.service';
import { SummaryReadyMail } from './modules/virtual-consultation/summary-notices';
import { AvailabilityService } from './modules/clinic/availability.service';
import { ClinicConsultationService } from './modules/clinic/consultations.service';
import { PractitionerService } from './modules/clinic/practitioners.service';
import { ReviewService } from './modules/reviews/reviews.service';
import { storedImageSize } from './modules/reviews/stored-image-size';

/**
 * The composition root: every repository, adapter and service of the product, built once. The
 * HTTP app (app.ts), the worker process (worker.ts) and the tests build from here, over the
 * repositories of repositories.ts; nothing here knows about Fastify.
 */

export interface ServiceDeps {
  config: Config;
  db: Database;
  mailer: Mailer;
  /** The repositories over `db`; built here when absent. */
  repositories?: Repositories;
  /** SMS sender; built from the configuration when absent. */
  sms?: SmsSender;
  /** The started job queue; without one, reminders wait for a worker process's sweep. */
  jobs?: JobQueue;
  /** Notices between the API processes (the database's own; in-process when absent). */
  notifications?: NotificationsFactory;
  /** Web Push sender; built from the configuration when absent. */
  pushSender?: PushSend;
}

export type Services = ReturnType<typeof createServices>;

/** Every service, built once with its dependencies; tests build their own for factories. */
export function createServices(
  {
    config,
    db,
    mailer,
    sms,
    jobs,
    pushSender,
    repositories = createRepositories(db),
    notifications = inProcessNotifications,
  }: ServiceDeps,
  clock: Clock,
  log: ErrorLogger,
) {
  const passwords = new PasswordService();
  const tokens = new TokenService(config.tokenSecret, clock);
  const metrics = new Metrics();
  // The files core: one store, one link signer, one acceptance path for every feature.
  const blobs = integrityChecked(createBlobStore(config), db, log, () => {
    metrics.fileIntegrityFailures.inc();
  });
  const links = new SignedLinks({ secret: fileLinkSecret(config.tokenSecret), clock });
  const uploads = new UploadAcceptance({ log });
  const planLimits = new PlanLimitsService(repositories.files, repositories.membership);
  // Plans and shop orders pay through one provider and one webhook.
  const payments = createPaymentProvider(config);
  const shop = new ShopService(repositories.shop, payments, clock, log);
  // Deactivation ends every session in its own transaction (docs/product/accounts.md#deactivation).
  const accounts = new AccountService(repositories.account, clock, planLimits, (tx, userId, now) =>
    repositories.auth.in(tx).endSessions(userId, 'all', now),
  );
  if (jobs !== undefined) metrics.watchJobQueue(() => jobs.stats());
  const fileStorage = new FileStorage(blobs, links, log, (area, bytes) => {
    metrics.uploadBytes.inc({ area }, bytes);
  });
  const detector = createDetector(
    config.dentalAi,
    config.dataDir,
    (type, kind, seconds) => {
      metrics.inferenceSeconds.observe({ type, image_kind: kind }, seconds);
    },
    log,
  );
  const audit = new AuditService(repositories.audit, clock);
  // Reminders and notices go only to a confirmed address (docs/decisions/email-confirmation.md).
  const emailConfirmations = new EmailConfirmationService(
    repositories.auth,
    mailer,
    clock,
    {
      publicUrl: config.publicUrl,
      companyName: config.companyName,
      customerServiceEmail: config.customerServiceEmail,
    },
    audit,
    log,
    (userId) => accounts.get(userId),
  );
  // Sign-ins from a new device and password changes are e-mailed (docs/decisions/signed-in-devices.md).
  const notices = new SecurityNotices(
    mailer,
    audit,
    {
      publicUrl: config.publicUrl,
      companyName: config.companyName,
      customerServiceEmail: config.customerServiceEmail,
    },
    log,
  );
  // One lock on guesses: logins, password re-checks, second-factor codes and share-link
  // passcodes (docs/decisions/login-throttling.md).
  const guessLock = new GuessLock(repositories.loginFailures, loginLockPolicy(config.rateLimit));
  // Wrong passwords re-checked lock the member's re-checks (docs/decisions/login-throttling.md).
  const passwordRecheck = new PasswordRecheckService(
    repositories.auth,
    passwords,
    guessLock,
    clock,
  );
  // Every password and social sign-in passes the second factor (docs/decisions/second-factor.md).
  const secondFactor = new SecondFactorService(
    repositories.secondFactor,
    repositories.auth,
    passwordRecheck,
    guessLock,
    notices,
    clock,
    { issuer: config.companyName, secretKey: totpSecretKey(config.tokenSecret) },
  );
  const calendar = new CalendarService(
    repositories.calendarFeeds,
    repositories.appointments,
    repositories.consultations,
    clock,
    {
      publicUrl: config.publicUrl,
      companyName: config.companyName,
      consultationJoinUrl: config.consultationJoinUrl,
    },
  );
  const dataExports = new DataExportService(
    repositories.dataExports,
    blobs,
    links,
    jobs,
    mailer,
    clock,
    {
      publicUrl: config.publicUrl,
      companyName: config.companyName,
      buildDir: path.join(config.dataDir, 'exports-in-progress'),
    },
    log,
  );
  // Imports check and store files as uploads do, within the plan's quota (docs/decisions/data-import.md).
  const dataImports = new DataImportService(
    repositories.dataImports,
    blobs,
    {
      uploads,
      files: fileStorage,
      reserveStorage: (tx, userId, addedBytes) => planLimits.reserveStorage(tx, userId, addedBytes),
    },
    jobs,
    clock,
    log,
  );
  // Notifications when the app is closed, sent once through the queue with the reminders' retry
  // rules (docs/decisions/web-push.md).
  const push = new PushService(
    repositories.push,
    jobs,
    pushSender ?? new WebPushSender({ keys: config.vapidKeys, subject: config.push.subject }),
    clock,
    {
      publicKey: config.vapidKeys.publicKey,
      companyName: config.companyName,
      localEndpoints: config.push.localEndpoints,
      rules: reminderQueueRules(config.reminders),
    },
    log,
  );
  const reports = new ReportService(
    repositories.reports,
    {
      record: (memberId) => repositories.dataExports.memberRecord(memberId),
      // The period's receipts, oldest first, as the Receipts screen lists them.
      payments: async (memberId, from, to) =>
        (await repositories.receipts.list(memberId))
          .filter((receipt) => receipt.paidAt >= from && receipt.paidAt <= to)
          .reverse()
          .map((receipt) => ({
            number: receipt.number,
            description: receipt.description,
            amount_cents: receipt.amountCents,
            currency: receipt.currency,
            paid_at: receipt.paidAt,
            card_last4: receipt.cardLast4,
          })),
    },
    planLimits,
    blobs,
    links,
    jobs,
    mailer,
    push,
    clock,
    {
      publicUrl: config.publicUrl,
      companyName: config.companyName,
      buildDir: path.join(config.dataDir, 'reports-in-progress'),
    },
    log,
  );
  // Ended with the sessions on 'Sign out everywhere else' and a new password.
  const endStandingLinks: EndStandingLinks = async (userId) => {
    await calendar.revokeFeed(userId);
    await dataExports.withdrawDownloads(userId);
  };
  const sessions = new SessionService(
    repositories.auth,
    passwords,
    tokens,
    clock,
    config.customerServiceEmail,
    config.session,
    notices,
    secondFactor,
    passwordRecheck,
    endStandingLinks,
  );
  const smsSender = sms ?? createSmsSender(config, clock);
  const reminders = new ReminderService(
    repositories.reminders,
    jobs,
    mailer,
    smsSender,
    push,
    clock,
    {
      publicUrl: config.publicUrl,
      companyName: config.companyName,
      attemptSeconds: config.reminders.attemptSeconds,
      retryDelaySeconds: config.reminders.retryDelaySeconds,
      retryLimit: config.reminders.retryLimit,
    },
    log,
  );
  const oralPhotos = new OralPhotoService(
    repositories.oralPhotos,
    uploads,
    planLimits,
    fileStorage,
    clock,
  );
  const medicalRecords = new MedicalRecordService(
    repositories.medicalRecords,
    uploads,
    planLimits,
    fileStorage,
    clock,
  );
  // Share links show the owner's photos and records as the owner's own answers do, through file
  // links of their own (docs/decisions/share-file-links.md).
  const sharedFiles = new SharedFiles({
    path: sharedFilesPath,
    links,
    secret: fileLinkSecret(config.tokenSecret),
    blobs,
    // While the link is neither revoked nor expired, for files of its owner, who is active.
    mayOpen: async (linkId, key) => {
      const owner = await repositories.shareLinks.activeOwner(linkId, clock.now());
      return (
        owner !== undefined &&
        key.startsWith(`users/${owner}/`) &&
        (await repositories.files.ownerIsActive(key))
      );
    },
    deidentifyDicom: deidentifiedDicom,
  });
  // The practice's staff open shared files through links scoped to them, checked against the
  // grant on every open; the practice gets the original DICOM file (docs/decisions/
  // care-team-access.md).
  const staffFiles = new SharedFiles({
    path: careTeamFilesPath,
    links,
    secret: fileLinkSecret(config.tokenSecret),
    blobs,
    // What a member shares, what they attached to a message to the practice or to a booking,
    // and what they asked the practice to review.
    mayOpen: staffMayOpen(
      repositories.careTeam,
      (key) => repositories.audit.fileByKey(key),
      async (memberId, kind, itemId) =>
        (await repositories.messages.isAttached(memberId, kind, itemId)) ||
        (await repositories.reviews.isReviewed(memberId, kind, itemId)) ||
        (kind === 'dental_ai' && (await repositories.consultations.isAttached(memberId, itemId))),
    ),
  });
  // The clinic's side of consultations, shared by the console and the clinic command; the
  // patient is told of a first summary by e-mail (docs/decisions/clinic-consultations.md).
  const clinic = new ClinicService(
    repositories.clinic,
    blobs,
    uploads,
    clock,
    new SummaryReadyMail(
      (reservationId) => repositories.clinic.patientEmailOf(reservationId),
      mailer,
      { publicUrl: config.publicUrl, companyName: config.companyName },
      log,
    ),
  );
  const dentalAi = new DentalAiService(
    repositories.dentalAi,
    uploads,
    planLimits,
    fileStorage,
    detector,
    clock,
    repositories.oralPhotos,
    blobs,
    new ShippedModelFigures(config.dentalAi.shippedModelsDir),
    {
      created: (tx, memberId, resultId) =>
        audit.recordWithin(tx, {
          memberId,
          actor: memberId,
          action: 'create',
          resourceType: 'dental_ai_result',
          resourceId: resultId,
          result: 'success',
        }),
    },
  );
  // A staff reply's and a review answer's notices, sent once through the queue with the
  // reminders' retry rules (docs/decisions/care-messages.md, photo-reviews.md).
  const messageNotices = new MessageNoticeService(
    repositories.messageNotices,
    jobs,
    mailer,
    smsSender,
    push,
    clock,
    {
      publicUrl: config.publicUrl,
      companyName: config.companyName,
      rules: reminders.queueRules,
    },
    log,
  );
  // New messages reach the open streams of every API process (docs/decisions/care-messages-live.md).
  const messageEvents = new MessageEvents(notifications('message_events', log), log);
  const shareLinks = new ShareLinkService(
    repositories.shareLinks,
    oralPhotos,
    medicalRecords,
    passwords,
    guessLock,
    clock,
    { publicUrl: config.publicUrl },
    sharedFiles,
    dentalAi,
    reports,
  );
  return {
    metrics,
    audit,
    guessLock,
    auditLookups: new RepositoryAuditLookups(
      repositories.auth,
      repositories.audit,
      (token) => secondFactor.mfaTokenOwner(token),
      (token) => shareLinks.subjectOf(token),
    ),
    reminders,
    push,
    appointments: new AppointmentService(repositories.appointments, reminders, clock),
    // Sent like the reminders, with their retry rules (docs/decisions/check-up-recall.md).
    checkUpRecalls: new CheckUpRecallService(
      repositories.checkUpRecalls,
      jobs,
      mailer,
      smsSender,
      clock,
      {
        publicUrl: config.publicUrl,
        companyName: config.companyName,
        rules: reminders.queueRules,
      },
    ),
    calendar,
    tokens,
    blobs,
    links,
    files: repositories.files,
    planLimits,
    orphanSweep: new OrphanSweep(blobs, repositories.files, clock),
    oralPhotos,
    medicalRecords,
    shareLinks,
    sharedFiles,
    staffFiles,
    careTeam: new CareTeamService(
      repositories.careTeam,
      oralPhotos,
      medicalRecords,
      staffFiles,
      clock,
    ),
    uploads,
    detector,
    dentalAi,
    messageNotices,
    // Members' conversations with the practice; attachments open for staff through the care
    // team's file links (docs/decisions/care-messages.md).
    messages: new MessageService(
      repositories.messages,
      {
        photos: (memberId, ids) => oralPhotos.getMany(memberId, ids),
        records: (memberId, ids) => medicalRecords.getMany(memberId, ids),
        dentalAi: (memberId, ids) => dentalAi.getMany(memberId, ids),
      },
      staffFiles,
      audit,
      messageNotices,
      (userId) => repositories.careTeam.staffIsActive(userId),
      clock,
      messageEvents,
    ),
    messageEvents,
    staffIsActive: (userId: string) => repositories.careTeam.staffIsActive(userId),
    eventTickets: new EventTickets(messageEventTicketSecret(config.tokenSecret), clock),
    // Staff open the reviewed images through the care team's file links (staffMayOpen above).
    reviews: new ReviewService(
      repositories.reviews,
      {
        photos: (memberId, ids) => oralPhotos.getMany(memberId, ids),
        dentalAiResult: (memberId, id) =>
          dentalAi.get(memberId, id).catch((error: unknown) => {
            if (error instanceof NotFound) return undefined;
            throw error;
          }),
      },
      staffFiles,
      storedImageSize(blobs),
      planLimits,
      messageNotices,
      audit,
      clock,
    ),
    accounts,
    emailConfirmations,
    registrations: new RegistrationService(repositories.auth, passwords, clock, (user) =>
      emailConfirmations.afterSignUp(user),
    ),
    dataExports,
    dataImports,
    reports,
    // Linking and unlinking answer the account as the profile shows it.
    socialAccounts: new SocialAccountService(
      repositories.auth,
      new SocialIdentityVerifier(config.social, clock),
      sessions,
      (userId) => accounts.get(userId),
      clock,
    ),
    membership: new MembershipService(
      repositories.membership,
      payments,
      mailer,
      clock,
      { publicUrl: config.publicUrl, companyName: config.companyName },
      log,
      audit,
      (event) => shop.handlePaymentEvent(event),
    ),
    receipts: new ReceiptsService(repositories.receipts, links, config.companyName),
    shop,
    contentRepository: repositories.content,
    contentLoader: new ContentLoaderService(repositories.content, clock),
    dentalKnowledge: new DentalKnowledgeService(repositories.dentalKnowledge),
    oralSuppliers: new OralSupplierService(repositories.oralSuppliers),
    home: new HomeService(repositories.home, clock),
    sessions,
    secondFactor,
    // Staff accounts take the members' password rules and session ends
    // (docs/decisions/clinic-staff.md).
    staff: new StaffService(
      repositories.staff,
      {
        passwordHash: (password) => {
          assertAcceptablePassword(password);
          return passwords.hash(password);
        },
        newToken: newOpaqueToken,
        hashToken: hashOpaqueToken,
        endSessions: (tx, userId, now) => repositories.auth.in(tx).endSessions(userId, 'all', now),
      },
      mailer,
      clock,
      { publicUrl: config.publicUrl, companyName: config.companyName },
      log,
    ),
    passwordChanges: new PasswordChangeService(
      repositories.auth,
      passwords,
      clock,
      notices,
      passwordRecheck,
      endStandingLinks,
    ),
    passkeys: new PasskeyService(
      repositories.passkeys,
      repositories.auth,
      sessions,
      secondFactor,
      mailer,
      clock,
      { publicUrl: config.publicUrl, companyName: config.companyName },
      log,
    ),
    clinic,
    practitioners: new PractitionerService(
      repositories.practitioners,
      blobs,
      uploads,
      links,
      clock,
    ),
    availability: new AvailabilityService(repositories.practitioners),
    clinicConsultations: new ClinicConsultationService(
      repositories.clinicConsultations,
      clinic,
      audit,
      links,
      clock,
      dentalAi,
      staffFiles,
    ),
    consultations: new ConsultationService(
      repositories.consultations,
      mailer,
      links,
      clock,
      { publicUrl: config.publicUrl, companyName: config.companyName },
      log,
      dentalAi,
    ),
    passwordResets: new PasswordResetService(
      repositories.auth,
      passwords,
      mailer,
      clock,
      { publicUrl: config.publicUrl, companyName: config.companyName },
      log,
      endStandingLinks,
      notices,
    ),
    // Proxy access (docs/decisions/proxy-access.md).
    delegations: new DelegationService(
      repositories.delegations,
      audit,
      mailer,
      clock,
      { publicUrl: config.publicUrl, companyName: config.companyName },
      log,
    ),
  };
}

/** Every feature's jobs, registered on the queue (and worked when workers are on). */
export async function registerJobs(jobs: JobQueue, services: Services): Promise<void> {
  await registerAppointmentJobs(jobs, services.reminders, services.checkUpRecalls);
  await registerMembershipJobs(jobs, services.membership);
  await registerFileJobs(jobs, services.orphanSweep);
  await registerDataExportJobs(jobs, services.dataExports);
  await registerDataImportJobs(jobs, services.dataImports);
  await registerReportJobs(jobs, services.reports);
  await registerMessageJobs(jobs, services.messageNotices);
  await registerPushJobs(jobs, services.push);
}
