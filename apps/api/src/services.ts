import path from 'node:path';
import { createBlobStore } from './adapters/blob-store/create-blob-store';
import { createDetector } from './adapters/detector/create-detector';
import type { Mailer } from './adapters/mailer';
import { createPaymentProvider } from './adapters/payments/create-payment-provider';
import { createSmsSender } from './adapters/sms/create-sms-sender';
import type { SmsSender } from './adapters/sms/sms-sender';
import type { Clock } from './clock';
import { fileLinkSecret, totpSecretKey, type Config } from './config';
import type { Database } from './db/client';
import type { JobQueue } from './jobs/job-queue';
import { Metrics } from './lib/metrics';
import { LoginFailureRepository, loginLockPolicy } from './plugins/login-failures.repository';
import { SignedLinks } from './lib/signed-links';
import { integrityChecked } from './modules/files/integrity-checked-blob-store';
import type { ErrorLogger } from './logger';
import { AccountRepository } from './modules/account/account.repository';
import { AccountService } from './modules/account/account.service';
import { PasskeyRepository } from './modules/account/passkeys/passkeys.repository';
import { PasskeyService } from './modules/account/passkeys/passkeys.service';
import { PasswordChangeService } from './modules/account/password-change.service';
import { PasswordRecheckService } from './modules/account/password-recheck.service';
import { PasswordResetService } from './modules/account/password-reset.service';
import { PasswordService } from './modules/account/password.service';
import { SecondFactorRepository } from './modules/account/second-factor.repository';
import { SecondFactorService } from './modules/account/second-factor.service';
import { SecurityNotices } from './modules/account/security-notices';
import { SessionService } from './modules/account/session.service';
import type { EndStandingLinks } from './modules/account/standing-links';
import { SocialAccountService } from './modules/account/social-account.service';
import { SocialIdentityVerifier } from './modules/account/social-identity';
import { TokenService } from './modules/account/token.service';
import { registerAppointmentJobs } from './modules/appointments/appointments.jobs';
import { AppointmentRepository } from './modules/appointments/appointments.repository';
import { RepositoryAuditLookups } from './modules/audit/audit-lookups';
import { AuditRepository } from './modules/audit/audit.repository';
import { AuditService } from './modules/audit/audit.service';
import { AppointmentService } from './modules/appointments/appointments.service';
import { CalendarFeedRepository } from './modules/calendar/calendar-feed.repository';
import { CalendarService } from './modules/calendar/calendar.service';
import { ReminderRepository } from './modules/appointments/reminders.repository';
import { ReminderService } from './modules/appointments/reminders.service';
import { ContentRepository } from './modules/content/content.repository';
import { ContentLoaderService } from './modules/content/content-loader.service';
import { DelegationRepository } from './modules/delegation/delegation.repository';
import { DelegationService } from './modules/delegation/delegation.service';
import { DataExportRepository } from './modules/data-export/data-export.repository';
import { registerDataExportJobs } from './modules/data-export/data-export.jobs';
import { DataExportService } from './modules/data-export/data-export.service';
import { DentalAiRepository } from './modules/dental-ai/dental-ai.repository';
import { DentalAiService } from './modules/dental-ai/dental-ai.service';
import { DentalKnowledgeRepository } from './modules/dental-knowledge/dental-knowledge.repository';
import { DentalKnowledgeService } from './modules/dental-knowledge/dental-knowledge.service';
import { FileStorage } from './modules/files/file-storage';
import { registerFileJobs } from './modules/files/files.jobs';
import { FilesRepository } from './modules/files/files.repository';
import { OrphanSweep } from './modules/files/orphan-sweep';
import { MedicalRecordRepository } from './modules/medical-records/medical-records.repository';
import { MedicalRecordService } from './modules/medical-records/medical-records.service';
import { registerMembershipJobs } from './modules/membership/membership.jobs';
import { MembershipRepository } from './modules/membership/membership.repository';
import { MembershipService } from './modules/membership/membership.service';
import { PlanLimitsService } from './modules/membership/plan-limits.service';
import { OralPhotoRepository } from './modules/oral-photo/oral-photo.repository';
import { OralPhotoService } from './modules/oral-photo/oral-photo.service';
import { OralSupplierRepository } from './modules/oral-supplier/oral-supplier.repository';
import { OralSupplierService } from './modules/oral-supplier/oral-supplier.service';
import { ShareLinkRepository } from './modules/share-links/share-links.repository';
import { ShareLinkService } from './modules/share-links/share-links.service';
import { SharedFiles } from './modules/share-links/shared-files';
import { deidentifiedDicom } from './modules/uploads/dicom-structure';
import { UploadAcceptance } from './modules/uploads/upload-acceptance';
import { ConsultationRepository } from './modules/virtual-consultation/virtual-consultation.repository';
import { ConsultationService } from './modules/virtual-consultation/virtual-consultation.service';

/**
 * The composition root: every repository, adapter and service of the product, built once. The
 * HTTP app (app.ts), the worker process (worker.ts) and the tests build from here; nothing here
 * knows about Fastify.
 */

export interface ServiceDeps {
  config: Config;
  db: Database;
  mailer: Mailer;
  /** SMS sender; built from the configuration when absent. */
  sms?: SmsSender;
  /** The started job queue; without one, reminders wait for a worker process's sweep. */
  jobs?: JobQueue;
}

export type Services = ReturnType<typeof createServices>;

/** Every service, built once with its dependencies; tests build their own for factories. */
export function createServices(
  { config, db, mailer, sms, jobs }: ServiceDeps,
  clock: Clock,
  log: ErrorLogger,
) {
  const repository = new AccountRepository(db);
  const passwords = new PasswordService();
  const tokens = new TokenService(config.tokenSecret, clock);
  const metrics = new Metrics();
  // The files core (issue 3): one store, one link signer, one acceptance path for every feature.
  const blobs = integrityChecked(createBlobStore(config), db, log, () => {
    metrics.fileIntegrityFailures.inc();
  });
  const links = new SignedLinks({ secret: fileLinkSecret(config.tokenSecret), clock });
  const uploads = new UploadAcceptance();
  const filesRepository = new FilesRepository(db);
  const membershipRepository = new MembershipRepository(db);
  const planLimits = new PlanLimitsService(filesRepository, membershipRepository);
  const accounts = new AccountService(repository, passwords, clock, planLimits);
  if (jobs !== undefined) metrics.watchJobQueue(() => jobs.stats());
  const fileStorage = new FileStorage(blobs, links, log, (area, bytes) => {
    metrics.uploadBytes.inc({ area }, bytes);
  });
  const contentRepository = new ContentRepository(db);
  const detector = createDetector(
    config.dentalAi,
    config.dataDir,
    (type, kind, seconds) => {
      metrics.inferenceSeconds.observe({ type, image_kind: kind }, seconds);
    },
    log,
  );
  const auditRepository = new AuditRepository(db);
  const audit = new AuditService(auditRepository, clock);
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
  // Wrong passwords re-checked lock the member's re-checks (docs/decisions/login-throttling.md).
  const passwordRecheck = new PasswordRecheckService(
    repository,
    passwords,
    new LoginFailureRepository(db),
    clock,
    loginLockPolicy(config.rateLimit),
  );
  // Every password and social sign-in passes the second factor (docs/decisions/second-factor.md).
  const secondFactor = new SecondFactorService(
    new SecondFactorRepository(db),
    repository,
    passwordRecheck,
    new LoginFailureRepository(db),
    notices,
    clock,
    {
      issuer: config.companyName,
      secretKey: totpSecretKey(config.tokenSecret),
      lockPolicy: loginLockPolicy(config.rateLimit),
    },
  );
  const calendar = new CalendarService(
    new CalendarFeedRepository(db),
    new AppointmentRepository(db),
    new ConsultationRepository(db),
    clock,
    {
      publicUrl: config.publicUrl,
      companyName: config.companyName,
      consultationJoinUrl: config.consultationJoinUrl,
    },
  );
  const dataExports = new DataExportService(
    new DataExportRepository(db),
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
  // Ended with the sessions on 'Sign out everywhere else' and a new password.
  const endStandingLinks: EndStandingLinks = async (userId) => {
    await calendar.revokeFeed(userId);
    await dataExports.withdrawDownloads(userId);
  };
  const sessions = new SessionService(
    repository,
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
  const reminders = new ReminderService(
    new ReminderRepository(db),
    jobs,
    mailer,
    sms ?? createSmsSender(config, clock),
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
    new OralPhotoRepository(db),
    uploads,
    planLimits,
    fileStorage,
    clock,
  );
  const medicalRecords = new MedicalRecordService(
    new MedicalRecordRepository(db),
    uploads,
    planLimits,
    fileStorage,
    clock,
  );
  // Share links show the owner's photos and records as the owner's own answers do, through file
  // links of their own (docs/decisions/share-file-links.md).
  const shareLinkRepository = new ShareLinkRepository(db);
  const sharedFiles = new SharedFiles({
    links,
    secret: fileLinkSecret(config.tokenSecret),
    blobs,
    activeShareOwner: (linkId) => shareLinkRepository.activeOwner(linkId, clock.now()),
    ownerIsActive: (key) => filesRepository.ownerIsActive(key),
    deidentifyDicom: deidentifiedDicom,
  });
  const shareLinks = new ShareLinkService(
    shareLinkRepository,
    oralPhotos,
    medicalRecords,
    passwords,
    new LoginFailureRepository(db),
    clock,
    { publicUrl: config.publicUrl, lockPolicy: loginLockPolicy(config.rateLimit) },
    sharedFiles,
  );
  return {
    metrics,
    audit,
    auditLookups: new RepositoryAuditLookups(
      repository,
      auditRepository,
      (token) => secondFactor.mfaTokenOwner(token),
      (token) => shareLinks.subjectOf(token),
    ),
    reminders,
    appointments: new AppointmentService(new AppointmentRepository(db), reminders, clock),
    calendar,
    tokens,
    blobs,
    links,
    files: filesRepository,
    planLimits,
    orphanSweep: new OrphanSweep(blobs, filesRepository, clock),
    oralPhotos,
    medicalRecords,
    shareLinks,
    sharedFiles,
    detector,
    dentalAi: new DentalAiService(
      new DentalAiRepository(db),
      uploads,
      planLimits,
      fileStorage,
      detector,
      clock,
    ),
    accounts,
    dataExports,
    socialAccounts: new SocialAccountService(
      repository,
      new SocialIdentityVerifier(config.social, clock),
      sessions,
      accounts,
      clock,
    ),
    membership: new MembershipService(
      membershipRepository,
      createPaymentProvider(config),
      mailer,
      clock,
      { publicUrl: config.publicUrl, companyName: config.companyName },
      log,
      audit,
    ),
    contentRepository,
    contentLoader: new ContentLoaderService(contentRepository, clock),
    dentalKnowledge: new DentalKnowledgeService(new DentalKnowledgeRepository(db)),
    oralSuppliers: new OralSupplierService(new OralSupplierRepository(db)),
    sessions,
    secondFactor,
    passwordChanges: new PasswordChangeService(
      repository,
      passwords,
      clock,
      notices,
      passwordRecheck,
      endStandingLinks,
    ),
    passkeys: new PasskeyService(
      new PasskeyRepository(db),
      repository,
      sessions,
      secondFactor,
      mailer,
      clock,
      { publicUrl: config.publicUrl, companyName: config.companyName },
      log,
    ),
    consultations: new ConsultationService(
      new ConsultationRepository(db),
      mailer,
      links,
      clock,
      { publicUrl: config.publicUrl, companyName: config.companyName },
      log,
    ),
    passwordResets: new PasswordResetService(
      repository,
      passwords,
      mailer,
      clock,
      { publicUrl: config.publicUrl, companyName: config.companyName },
      log,
      endStandingLinks,
    ),
    // Proxy access (docs/decisions/proxy-access.md).
    delegations: new DelegationService(
      new DelegationRepository(db),
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
  await registerAppointmentJobs(jobs, services.reminders);
  await registerMembershipJobs(jobs, services.membership);
  await registerFileJobs(jobs, services.orphanSweep);
  await registerDataExportJobs(jobs, services.dataExports);
}
