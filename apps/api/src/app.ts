import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { createDetector } from './adapters/detector/create-detector';
import type { Mailer } from './adapters/mailer';
import { createPaymentProvider } from './adapters/payments/create-payment-provider';
import { createSmsSender } from './adapters/sms/create-sms-sender';
import type { SmsSender } from './adapters/sms/sms-sender';
import { systemClock, type Clock } from './clock';
import { fileLinkSecret, type Config } from './config';
import type { Database } from './db/client';
import type { JobQueue } from './jobs/job-queue';
import { registerJobWorkers } from './jobs/workers';
import { loggerOptions, type LogDestination } from './logger';
import { AccountRepository } from './modules/account/account.repository';
import { accountRoutes } from './modules/account/account.routes';
import { AccountService } from './modules/account/account.service';
import { AppointmentRepository } from './modules/appointments/appointments.repository';
import { appointmentRoutes } from './modules/appointments/appointments.routes';
import { AppointmentService } from './modules/appointments/appointments.service';
import { ReminderRepository } from './modules/appointments/reminders.repository';
import { ReminderService } from './modules/appointments/reminders.service';
import { PasswordResetService, type ErrorLogger } from './modules/account/password-reset.service';
import { PasswordService } from './modules/account/password.service';
import { SessionService } from './modules/account/session.service';
import { TokenService } from './modules/account/token.service';
import { configRoutes } from './modules/config/config.routes';
import { ContentRepository } from './modules/content/content.repository';
import { contentRoutes } from './modules/content/content.routes';
import { ContentLoaderService } from './modules/content/content-loader.service';
import { DentalAiRepository } from './modules/dental-ai/dental-ai.repository';
import { dentalAiRoutes } from './modules/dental-ai/dental-ai.routes';
import { DentalAiService } from './modules/dental-ai/dental-ai.service';
import { DentalKnowledgeRepository } from './modules/dental-knowledge/dental-knowledge.repository';
import { dentalKnowledgeRoutes } from './modules/dental-knowledge/dental-knowledge.routes';
import { DentalKnowledgeService } from './modules/dental-knowledge/dental-knowledge.service';
import { closeBlobStore, createBlobStore } from './modules/files/create-blob-store';
import { FileStorage } from './modules/files/file-storage';
import { FilesRepository } from './modules/files/files.repository';
import { filesRoutes } from './modules/files/files.routes';
import { OrphanSweep } from './modules/files/orphan-sweep';
import { QuotaService } from './modules/files/quota.service';
import { MembershipRepository } from './modules/membership/membership.repository';
import { membershipRoutes } from './modules/membership/membership.routes';
import { MembershipService } from './modules/membership/membership.service';
import { MedicalRecordRepository } from './modules/medical-records/medical-records.repository';
import { medicalRecordRoutes } from './modules/medical-records/medical-records.routes';
import { MedicalRecordService } from './modules/medical-records/medical-records.service';
import { OralPhotoRepository } from './modules/oral-photo/oral-photo.repository';
import { oralPhotoRoutes } from './modules/oral-photo/oral-photo.routes';
import { OralPhotoService } from './modules/oral-photo/oral-photo.service';
import { OralSupplierRepository } from './modules/oral-supplier/oral-supplier.repository';
import { oralSupplierRoutes } from './modules/oral-supplier/oral-supplier.routes';
import { OralSupplierService } from './modules/oral-supplier/oral-supplier.service';
import { UploadAcceptance } from './modules/uploads/upload-acceptance';
import { ConsultationRepository } from './modules/virtual-consultation/virtual-consultation.repository';
import { consultationRoutes } from './modules/virtual-consultation/virtual-consultation.routes';
import { ConsultationService } from './modules/virtual-consultation/virtual-consultation.service';
import { SignedLinks } from './lib/signed-links';
import { authPlugin } from './plugins/auth';
import { clientErrorHandler } from './plugins/client-errors';
import { errorsPlugin, frameworkErrorHandler } from './plugins/errors';
import { openApiPlugin } from './plugins/openapi';
import { rateLimitPlugin } from './plugins/rate-limit';
import { securityHeadersPlugin } from './plugins/security-headers';
import { staticSpaPlugin } from './plugins/static-spa';

export interface AppDeps {
  config: Config;
  db: Database;
  mailer: Mailer;
  /** SMS sender; built from the configuration when absent. */
  sms?: SmsSender;
  /** The started job queue; without one, reminders wait for a worker process's sweep. */
  jobs?: JobQueue;
  clock?: Clock;
  /** Where log lines go; stdout when absent. */
  logStream?: LogDestination;
  /** Services built by the caller (tests share them with their factories). */
  services?: Services;
}

export type Services = ReturnType<typeof createServices>;

/** Every service, built once with its dependencies; tests build their own for factories. */
export function createServices(
  { config, db, mailer, sms, jobs }: Pick<AppDeps, 'config' | 'db' | 'mailer' | 'sms' | 'jobs'>,
  clock: Clock,
  log: ErrorLogger,
) {
  const repository = new AccountRepository(db);
  const passwords = new PasswordService();
  const tokens = new TokenService(config.tokenSecret, clock);
  // The files core (issue 3): one store, one link signer, one acceptance path for every feature.
  const blobs = createBlobStore(config);
  const links = new SignedLinks({ secret: fileLinkSecret(config.tokenSecret), clock });
  const uploads = new UploadAcceptance();
  const filesRepository = new FilesRepository(db);
  const quota = new QuotaService(filesRepository);
  const fileStorage = new FileStorage(blobs, links, log);
  const contentRepository = new ContentRepository(db);
  const detector = createDetector(config.dentalAi, config.dataDir);
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
      retryLimit: 8,
    },
    log,
  );
  return {
    reminders,
    appointments: new AppointmentService(new AppointmentRepository(db), reminders, clock),
    tokens,
    blobs,
    links,
    quota,
    orphanSweep: new OrphanSweep(blobs, filesRepository, clock, log),
    oralPhotos: new OralPhotoService(
      new OralPhotoRepository(db),
      uploads,
      quota,
      fileStorage,
      clock,
    ),
    medicalRecords: new MedicalRecordService(
      new MedicalRecordRepository(db),
      uploads,
      quota,
      fileStorage,
      clock,
    ),
    detector,
    dentalAi: new DentalAiService(
      new DentalAiRepository(db),
      uploads,
      quota,
      fileStorage,
      detector,
      clock,
    ),
    accounts: new AccountService(repository, passwords, clock, quota),
    membership: new MembershipService(
      new MembershipRepository(db),
      createPaymentProvider(config),
      mailer,
      clock,
      { publicUrl: config.publicUrl, companyName: config.companyName },
      log,
    ),
    contentRepository,
    contentLoader: new ContentLoaderService(contentRepository, clock),
    dentalKnowledge: new DentalKnowledgeService(new DentalKnowledgeRepository(db)),
    oralSuppliers: new OralSupplierService(new OralSupplierRepository(db)),
    sessions: new SessionService(repository, passwords, tokens, clock, config.customerServiceEmail),
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
    ),
  };
}

/** Cross-cutting plugins first, then the feature modules; the caller decides when to listen. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, db } = deps;
  const clock = deps.clock ?? systemClock;
  const app = Fastify({
    logger: loggerOptions(config.logLevel, deps.logStream),
    genReqId: () => randomUUID(),
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const services = deps.services ?? createServices(deps, clock, app.log);
  app.addHook('onClose', () => services.passwordResets.drain());
  // Sweep for orphaned files at start and periodically; stop before the database closes.
  app.addHook('onReady', () => {
    services.orphanSweep.start();
    return Promise.resolve();
  });
  app.addHook('onClose', async () => {
    await services.orphanSweep.stop();
    closeBlobStore(services.blobs);
  });
  // Model files are read before the first request, so a broken one stops the start.
  app.addHook('onReady', async () => {
    const models = await services.detector.load();
    app.log.info({ models }, 'Dental AI models loaded');
  });
  // The inference threads would otherwise keep the process alive after the app closes.
  app.addHook('onClose', () => services.detector.close());
  // The job queue is started by the caller (server.ts, worker.ts); its workers start with the app.
  const { jobs } = deps;
  if (jobs !== undefined) {
    app.addHook('onReady', () => registerJobWorkers(jobs, services));
  }
  app.addHook('onSend', async (request, reply) => {
    void reply.header('x-request-id', request.id);
  });

  await app.register(errorsPlugin);
  await app.register(securityHeadersPlugin);
  await app.register(openApiPlugin, { companyName: config.companyName });
  await app.register(authPlugin, {
    tokens: services.tokens,
    findActiveUser: (userId) => services.accounts.findActiveUser(userId),
  });
  await app.register(rateLimitPlugin, { db, clock, limits: config.rateLimit });

  // Content files are loaded before any route answers, so the API reads only the database.
  const loaded = await services.contentLoader.load(config.contentDir);
  app.log.info({ ...loaded, contentDir: config.contentDir }, 'content loaded');

  await app.register(accountRoutes, services);
  await app.register(configRoutes, config);
  await app.register(filesRoutes, { blobs: services.blobs, links: services.links, clock });
  await app.register(oralPhotoRoutes, services);
  await app.register(medicalRecordRoutes, services);
  await app.register(contentRoutes, services);
  await app.register(dentalKnowledgeRoutes, services);
  await app.register(oralSupplierRoutes, services);
  await app.register(consultationRoutes, services);
  await app.register(appointmentRoutes, services);
  await app.register(membershipRoutes, services);
  await app.register(dentalAiRoutes, services);
  await app.register(staticSpaPlugin, { webDist: config.webDist });
  return app;
}
