import { hkdfSync, randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { ModelSlot } from './adapters/detector/detector';
import { DataDirError, protectDataDir } from './db/data-dir';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

/** An unset variable and an empty one (`PORT=` in an env file) both mean "use the default". */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

const positiveInt = (name: string) =>
  z.coerce.number().int(`${name} must be a whole number.`).positive(`${name} must be above 0.`);

const fraction = (name: string) =>
  z.coerce
    .number(`${name} must be a number.`)
    .gt(0, `${name} must be above 0.`)
    .lt(1, `${name} must be below 1.`);

const httpUrl = (name: string) =>
  z.url({ protocol: /^https?$/, error: `${name} must be an http:// or https:// URL.` });

const envSchema = z.object({
  HOST: optional(z.string()),
  PORT: optional(
    z.coerce
      .number()
      .int('PORT must be a whole number.')
      .min(0)
      .max(65535, 'PORT is at most 65535.'),
  ),
  DATA_DIR: optional(z.string()),
  DATABASE_URL: optional(
    z.url({
      protocol: /^postgres(ql)?$/,
      error: 'DATABASE_URL must be a postgres:// or postgresql:// URL.',
    }),
  ),
  PUBLIC_URL: optional(
    z.url({ protocol: /^https?$/, error: 'PUBLIC_URL must be an http:// or https:// URL.' }),
  ),
  SMTP_URL: optional(
    z.url({ protocol: /^smtps?$/, error: 'SMTP_URL must be an smtp:// or smtps:// URL.' }),
  ),
  MAIL_FROM: optional(z.string()),
  TOKEN_SECRET: optional(
    z.string().min(32, 'TOKEN_SECRET must be at least 32 characters (256 bits of key).'),
  ),
  COMPANY_NAME: optional(z.string()),
  CUSTOMER_SERVICE_EMAIL: optional(z.email('CUSTOMER_SERVICE_EMAIL must be an e-mail address.')),
  LOG_LEVEL: optional(z.enum(logLevels)),
  WEB_DIST: optional(z.string()),
  CONTENT_DIR: optional(z.string()),
  RATE_LIMIT_WINDOW_SECONDS: optional(positiveInt('RATE_LIMIT_WINDOW_SECONDS')),
  RATE_LIMIT_PER_IP: optional(positiveInt('RATE_LIMIT_PER_IP')),
  RATE_LIMIT_PER_EMAIL: optional(positiveInt('RATE_LIMIT_PER_EMAIL')),
  INVITES_PER_MEMBER_PER_DAY: optional(positiveInt('INVITES_PER_MEMBER_PER_DAY')),
  INVITES_PER_ADDRESS_PER_DAY: optional(positiveInt('INVITES_PER_ADDRESS_PER_DAY')),
  LOGIN_LOCK_AFTER_FAILURES: optional(positiveInt('LOGIN_LOCK_AFTER_FAILURES')),
  LOGIN_LOCK_SECONDS: optional(positiveInt('LOGIN_LOCK_SECONDS')),
  LOGIN_LOCK_MAX_SECONDS: optional(positiveInt('LOGIN_LOCK_MAX_SECONDS')),
  SESSION_IDLE_MINUTES: optional(positiveInt('SESSION_IDLE_MINUTES')),
  SESSION_MAX_HOURS: optional(positiveInt('SESSION_MAX_HOURS')),
  SESSION_REAUTH_MINUTES: optional(positiveInt('SESSION_REAUTH_MINUTES')),
  TRUST_PROXY: optional(z.string()),
  RESERVATION_URL: optional(
    z.url({ protocol: /^https?$/, error: 'RESERVATION_URL must be an http:// or https:// URL.' }),
  ),
  CONSULTATION_JOIN_URL: optional(
    z.url({
      protocol: /^https?$/,
      error: 'CONSULTATION_JOIN_URL must be an http:// or https:// URL.',
    }),
  ),
  S3_BUCKET: optional(z.string()),
  S3_REGION: optional(z.string()),
  S3_ENDPOINT: optional(
    z.url({ protocol: /^https?$/, error: 'S3_ENDPOINT must be an http:// or https:// URL.' }),
  ),
  S3_ACCESS_KEY_ID: optional(z.string()),
  S3_SECRET_ACCESS_KEY: optional(z.string()),
  S3_FORCE_PATH_STYLE: optional(
    z.enum(['true', 'false'], 'S3_FORCE_PATH_STYLE must be true or false.'),
  ),
  WORKERS: optional(z.enum(['on', 'off'], 'WORKERS must be on or off.')),
  JOB_POLL_SECONDS: optional(
    z.coerce
      .number('JOB_POLL_SECONDS must be a number.')
      .min(0.5, 'JOB_POLL_SECONDS is at least 0.5.'),
  ),
  REMINDER_ATTEMPT_SECONDS: optional(positiveInt('REMINDER_ATTEMPT_SECONDS')),
  REMINDER_RETRY_DELAY_SECONDS: optional(positiveInt('REMINDER_RETRY_DELAY_SECONDS')),
  REMINDER_RETRY_LIMIT: optional(positiveInt('REMINDER_RETRY_LIMIT')),
  TWILIO_ACCOUNT_SID: optional(z.string()),
  TWILIO_AUTH_TOKEN: optional(z.string()),
  TWILIO_FROM: optional(z.string()),
  TWILIO_BASE_URL: optional(
    z.url({ protocol: /^https?$/, error: 'TWILIO_BASE_URL must be an http:// or https:// URL.' }),
  ),
  DENTAL_AI_MODEL_CARIES: optional(z.string()),
  DENTAL_AI_MODEL_CARIES_PHOTO: optional(z.string()),
  DENTAL_AI_MODEL_WISDOM_TEETH: optional(z.string()),
  DENTAL_AI_ENDPOINT: optional(
    z.url({
      protocol: /^https?$/,
      error: 'DENTAL_AI_ENDPOINT must be an http:// or https:// URL.',
    }),
  ),
  DENTAL_AI_CONFIDENCE: optional(fraction('DENTAL_AI_CONFIDENCE')),
  DENTAL_AI_IOU: optional(fraction('DENTAL_AI_IOU')),
  DENTAL_AI_THREADS: optional(positiveInt('DENTAL_AI_THREADS')),
  DENTAL_AI_SHIPPED_MODELS: optional(
    z.enum(['on', 'off'], 'DENTAL_AI_SHIPPED_MODELS must be on or off.'),
  ),
  PAYMENTS: optional(z.enum(['test'], 'PAYMENTS must be test (or unset).')),
  UPLOADS_PER_MINUTE: optional(positiveInt('UPLOADS_PER_MINUTE')),
  STRIPE_SECRET_KEY: optional(z.string()),
  STRIPE_WEBHOOK_SECRET: optional(z.string()),
  STRIPE_API_HOST: optional(z.string()),
  STRIPE_API_PORT: optional(
    z.coerce
      .number()
      .int('STRIPE_API_PORT must be a whole number.')
      .min(1)
      .max(65535, 'STRIPE_API_PORT is at most 65535.'),
  ),
  STRIPE_API_PROTOCOL: optional(
    z.enum(['http', 'https'], 'STRIPE_API_PROTOCOL must be http or https.'),
  ),
  METRICS_TOKEN: optional(
    z.string().min(32, 'METRICS_TOKEN must be at least 32 characters (use a random value).'),
  ),
  METRICS_PORT: optional(
    z.coerce
      .number()
      .int('METRICS_PORT must be a whole number.')
      .min(0)
      .max(65535, 'METRICS_PORT is at most 65535.'),
  ),
  SHUTDOWN_TIMEOUT_SECONDS: optional(positiveInt('SHUTDOWN_TIMEOUT_SECONDS')),
  GOOGLE_CLIENT_ID: optional(z.string()),
  GOOGLE_AUTH_URL: optional(httpUrl('GOOGLE_AUTH_URL')),
  GOOGLE_TOKEN_URL: optional(httpUrl('GOOGLE_TOKEN_URL')),
  GOOGLE_TOKENINFO_URL: optional(httpUrl('GOOGLE_TOKENINFO_URL')),
  GOOGLE_USERINFO_URL: optional(httpUrl('GOOGLE_USERINFO_URL')),
  APPLE_CLIENT_ID: optional(z.string()),
  APPLE_ISSUER: optional(z.string()),
  APPLE_JWKS_URL: optional(httpUrl('APPLE_JWKS_URL')),
  APPLE_AUTH_URL: optional(httpUrl('APPLE_AUTH_URL')),
  APPLE_TOKEN_URL: optional(httpUrl('APPLE_TOKEN_URL')),
  FACEBOOK_APP_ID: optional(z.string()),
  FACEBOOK_APP_SECRET: optional(z.string()),
  FACEBOOK_GRAPH_URL: optional(httpUrl('FACEBOOK_GRAPH_URL')),
  FACEBOOK_AUTH_URL: optional(httpUrl('FACEBOOK_AUTH_URL')),
  FACEBOOK_TOKEN_URL: optional(httpUrl('FACEBOOK_TOKEN_URL')),
});

export type Env = Record<string, string | undefined>;

export interface RateLimitConfig {
  windowSeconds: number;
  /** Attempts one client address may make per window on each limited route. */
  perIp: number;
  /** Attempts against one e-mail address per window on register and forget-password. */
  perEmail: number;
  /** Invitations to view a record one member may send per day
   *  (docs/decisions/invitation-limits.md). */
  invitationsPerMember: number;
  /** Invitations one e-mail address may receive per day, from all members together. */
  invitationsPerAddress: number;
  /** Failed logins of one (e-mail, client address) pair that lock it
   *  (docs/decisions/login-throttling.md). */
  loginLockAfterFailures: number;
  /** The first lock; each further failure doubles it, up to `loginLockMaxSeconds`. */
  loginLockSeconds: number;
  loginLockMaxSeconds: number;
}

export interface SessionTimeouts {
  /** A session without any API use for this long ends. */
  idleMinutes: number;
  /** A session ends this long after its sign-in, however busy. */
  maxHours: number;
  /** Deactivation needs a sign-in or a password re-check this recent. */
  reauthMinutes: number;
}

export interface Config {
  host: string;
  port: number;
  /** Absolute path; holds the embedded database, the mail outbox and generated secrets. */
  dataDir: string;
  /** Unset means the embedded PGlite database in `dataDir/pg`. */
  databaseUrl: string | undefined;
  /** Origin the browser uses, for links in e-mails; no trailing slash. */
  publicUrl: string;
  /** Unset means mail is written as .eml files to `dataDir/outbox/mail`. */
  smtpUrl: string | undefined;
  mailFrom: string;
  tokenSecret: string;
  companyName: string;
  customerServiceEmail: string;
  logLevel: LogLevel;
  webDist: string;
  /** Knowledge articles and supplier pages (markdown and covers), loaded into the database at
   *  start (docs/decisions/content-loading.md). */
  contentDir: string;
  rateLimit: RateLimitConfig;
  /** Photo, record and Dental AI uploads one member may make per minute
   *  (docs/decisions/upload-decoding-limits.md). */
  uploadsPerMinute: number;
  /** Automatic logoff (docs/decisions/session-timeouts.md). */
  session: SessionTimeouts;
  trustProxy: boolean | string;
  /** An external reservation page the Virtual Consultation hub opens; unset means our own. */
  reservationUrl: string | undefined;
  /** The video call booked consultations take place in; unset means the doctor phones the
   *  member (docs/decisions/calendar-export.md). */
  consultationJoinUrl: string | undefined;
  /** Uploaded files go to this S3-compatible bucket; unset means `dataDir/blobs` on disk. */
  s3: S3Settings | undefined;
  /** The job queue (pg-boss) and whether this process works it (WORKERS=on, the default). */
  jobs: { workers: boolean; pollSeconds: number };
  /** Reminder delivery (docs/decisions/reminder-delivery.md). */
  reminders: { attemptSeconds: number; retryDelaySeconds: number; retryLimit: number };
  /** Unset means SMS are written as .json files to `dataDir/outbox/sms`. */
  twilio: TwilioSettings | undefined;
  /** Unset means the built-in test-mode checkout (docs/decisions/membership-checkout.md), allowed
   *  on a public address only with PAYMENTS=test (docs/decisions/payments-on-public-servers.md). */
  stripe: StripeSettings | undefined;
  dentalAi: DentalAiSettings;
  /** Prometheus metrics; off unless a token or a port is set
   *  (docs/decisions/health-metrics-shutdown.md). */
  metrics: MetricsSettings;
  /** On SIGTERM, requests in flight and running jobs get this long before they are cut off. */
  shutdownTimeoutSeconds: number;
  /** Social sign-in providers; a provider without its client id is off
   *  (docs/decisions/social-sign-in.md). */
  social: SocialSettings;
}

/** Where the browser sends the member and exchanges the code (public values only). */
export interface OAuthClientSettings {
  clientId: string;
  authUrl: string;
  tokenUrl: string;
}

export interface SocialSettings {
  google?: OAuthClientSettings & { tokeninfoUrl: string; userinfoUrl: string };
  apple?: OAuthClientSettings & { issuer: string; jwksUrl: string };
  facebook?: OAuthClientSettings & { appSecret: string; graphUrl: string };
}

export interface MetricsSettings {
  /** `GET /metrics` needs `Authorization: Bearer <token>`, on the API port unless `port` is set. */
  token: string | undefined;
  /** `GET /metrics` on a listener of its own on this port (and HOST), not on the API port. */
  port: number | undefined;
}

/** Dental AI models and inference (docs/decisions/dental-ai-model-loading.md). */
export interface DentalAiSettings {
  /** Configured model files per slot (`caries` and `wisdom_teeth` read X-rays, `caries_photo`
   *  colour photos); an unset slot falls back to `dataDir/models/{slot}.onnx`, then to the
   *  shipped model. */
  models: Partial<Record<ModelSlot, string>>;
  /** A KServe v2 / Triton server that runs the models instead of this process. */
  endpoint: string | undefined;
  /** Boxes scoring below this are dropped. */
  confidence: number;
  /** Class-aware non-maximum suppression drops a box overlapping a better one by more than this. */
  iou: number;
  /** Inference worker threads. */
  threads: number;
  /** The models this repository ships (models/, issue 7), the last fallback; unset when
   *  DENTAL_AI_SHIPPED_MODELS=off. */
  shippedModelsDir: string | undefined;
}

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** Another API server (tests use a local one); unset means Stripe's. */
  host?: string;
  port?: number;
  protocol?: 'http' | 'https';
}

export interface TwilioSettings {
  accountSid: string;
  authToken: string;
  from: string;
  /** Another origin for Twilio's REST API (tests use a local server); unset means Twilio's. */
  baseUrl?: string;
}

export interface S3Settings {
  bucket: string;
  region: string;
  /** For S3-compatible servers; unset means AWS. */
  endpoint?: string;
  /** Both or neither; neither means the SDK's default credential chain. */
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}

/** Configuration before the token secret is resolved from DATA_DIR. */
export type Settings = Omit<Config, 'tokenSecret'> & { tokenSecret: string | undefined };

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** `true`/`false`, or a comma-separated list of trusted proxy addresses or CIDR ranges. */
function parseTrustProxy(value: string | undefined): boolean | string {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  return value;
}

/** S3 when S3_BUCKET is set; the access key and its secret come together or not at all. */
function parseS3(vars: z.infer<typeof envSchema>): S3Settings | undefined {
  if (vars.S3_BUCKET === undefined) return undefined;
  if ((vars.S3_ACCESS_KEY_ID === undefined) !== (vars.S3_SECRET_ACCESS_KEY === undefined)) {
    throw new ConfigError(
      'Invalid configuration:\n  S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together.',
    );
  }
  return {
    bucket: vars.S3_BUCKET,
    region: vars.S3_REGION ?? 'us-east-1',
    ...(vars.S3_ENDPOINT === undefined ? {} : { endpoint: vars.S3_ENDPOINT }),
    ...(vars.S3_ACCESS_KEY_ID === undefined || vars.S3_SECRET_ACCESS_KEY === undefined
      ? {}
      : { accessKeyId: vars.S3_ACCESS_KEY_ID, secretAccessKey: vars.S3_SECRET_ACCESS_KEY }),
    forcePathStyle: vars.S3_FORCE_PATH_STYLE === 'true',
  };
}

/** Parses the environment without touching the disk. */
export function parseEnv(env: Env): Settings {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const name = issue.path.join('.');
      return `  ${name}: ${issue.message} (got ${JSON.stringify(env[name])})`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const vars = parsed.data;
  const host = vars.HOST ?? 'localhost';
  const port = vars.PORT ?? 3000;
  const companyName = vars.COMPANY_NAME ?? 'Dental Companion';
  const publicUrl = (vars.PUBLIC_URL ?? `http://${host}:${port}`).replace(/\/+$/, '');
  const stripe = parseStripe(vars);
  if (stripe === undefined && vars.PAYMENTS !== 'test' && !isLoopbackUrl(publicUrl)) {
    throw new ConfigError(
      `Invalid configuration:\n  No payment provider is configured, and the test-mode checkout ` +
        `applies paid plans without payment; it runs only on a local address, not at ${publicUrl}. ` +
        'Set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET, or PAYMENTS=test for a test deployment ' +
        '(docs/decisions/payments-on-public-servers.md).',
    );
  }
  return {
    host,
    port,
    dataDir: path.resolve(vars.DATA_DIR ?? 'data'),
    databaseUrl: vars.DATABASE_URL,
    publicUrl,
    smtpUrl: vars.SMTP_URL,
    mailFrom: vars.MAIL_FROM ?? `"${companyName}" <no-reply@dentalcompanion.example>`,
    tokenSecret: vars.TOKEN_SECRET,
    companyName,
    customerServiceEmail: vars.CUSTOMER_SERVICE_EMAIL ?? 'support@dentalcompanion.example',
    logLevel: vars.LOG_LEVEL ?? 'info',
    webDist: path.resolve(vars.WEB_DIST ?? path.join(repoRoot, 'apps/web/dist')),
    contentDir: path.resolve(vars.CONTENT_DIR ?? path.join(repoRoot, 'content')),
    uploadsPerMinute: vars.UPLOADS_PER_MINUTE ?? 30,
    rateLimit: {
      windowSeconds: vars.RATE_LIMIT_WINDOW_SECONDS ?? 15 * 60,
      perIp: vars.RATE_LIMIT_PER_IP ?? 100,
      perEmail: vars.RATE_LIMIT_PER_EMAIL ?? 10,
      invitationsPerMember: vars.INVITES_PER_MEMBER_PER_DAY ?? 10,
      invitationsPerAddress: vars.INVITES_PER_ADDRESS_PER_DAY ?? 3,
      loginLockAfterFailures: vars.LOGIN_LOCK_AFTER_FAILURES ?? 5,
      loginLockSeconds: vars.LOGIN_LOCK_SECONDS ?? 60,
      loginLockMaxSeconds: vars.LOGIN_LOCK_MAX_SECONDS ?? 60 * 60,
    },
    session: {
      idleMinutes: vars.SESSION_IDLE_MINUTES ?? 30,
      maxHours: vars.SESSION_MAX_HOURS ?? 12,
      reauthMinutes: vars.SESSION_REAUTH_MINUTES ?? 10,
    },
    trustProxy: parseTrustProxy(vars.TRUST_PROXY),
    reservationUrl: vars.RESERVATION_URL,
    consultationJoinUrl: vars.CONSULTATION_JOIN_URL,
    s3: parseS3(vars),
    jobs: { workers: vars.WORKERS !== 'off', pollSeconds: vars.JOB_POLL_SECONDS ?? 2 },
    reminders: {
      attemptSeconds: vars.REMINDER_ATTEMPT_SECONDS ?? 60,
      retryDelaySeconds: vars.REMINDER_RETRY_DELAY_SECONDS ?? 30,
      retryLimit: vars.REMINDER_RETRY_LIMIT ?? 8,
    },
    twilio: parseTwilio(vars),
    metrics: parseMetrics(vars, port),
    shutdownTimeoutSeconds: vars.SHUTDOWN_TIMEOUT_SECONDS ?? 10,
    social: parseSocial(vars),
    stripe,
    dentalAi: {
      models: {
        ...(vars.DENTAL_AI_MODEL_CARIES === undefined
          ? {}
          : { caries: path.resolve(vars.DENTAL_AI_MODEL_CARIES) }),
        ...(vars.DENTAL_AI_MODEL_CARIES_PHOTO === undefined
          ? {}
          : { caries_photo: path.resolve(vars.DENTAL_AI_MODEL_CARIES_PHOTO) }),
        ...(vars.DENTAL_AI_MODEL_WISDOM_TEETH === undefined
          ? {}
          : { wisdom_teeth: path.resolve(vars.DENTAL_AI_MODEL_WISDOM_TEETH) }),
      },
      endpoint: vars.DENTAL_AI_ENDPOINT?.replace(/\/+$/, ''),
      confidence: vars.DENTAL_AI_CONFIDENCE ?? 0.25,
      iou: vars.DENTAL_AI_IOU ?? 0.45,
      threads: vars.DENTAL_AI_THREADS ?? availableParallelism(),
      shippedModelsDir:
        vars.DENTAL_AI_SHIPPED_MODELS === 'off' ? undefined : path.join(repoRoot, 'models'),
    },
  };
}

/** localhost (and its subdomains), 127.0.0.0/8 and ::1: reachable from this machine only. */
export function isLoopbackUrl(url: string): boolean {
  const { hostname } = new URL(url);
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    /^127(\.\d{1,3}){3}$/.test(hostname) ||
    hostname === '[::1]'
  );
}

/** Metrics need a port of their own or a token; never the API port itself without a token. */
function parseMetrics(vars: z.infer<typeof envSchema>, apiPort: number): MetricsSettings {
  if (vars.METRICS_PORT !== undefined && vars.METRICS_PORT !== 0 && vars.METRICS_PORT === apiPort) {
    throw new ConfigError(
      'Invalid configuration:\n  METRICS_PORT must differ from PORT (leave it unset to serve metrics on PORT with METRICS_TOKEN).',
    );
  }
  return { token: vars.METRICS_TOKEN, port: vars.METRICS_PORT };
}

/** Stripe when its secret key and webhook secret are both set; one without the other is an error. */
function parseStripe(vars: z.infer<typeof envSchema>): StripeSettings | undefined {
  const { STRIPE_SECRET_KEY: secretKey, STRIPE_WEBHOOK_SECRET: webhookSecret } = vars;
  if (secretKey === undefined && webhookSecret === undefined) return undefined;
  if (secretKey === undefined || webhookSecret === undefined) {
    throw new ConfigError(
      'Invalid configuration:\n  STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET must be set together.',
    );
  }
  return {
    secretKey,
    webhookSecret,
    ...(vars.STRIPE_API_HOST === undefined ? {} : { host: vars.STRIPE_API_HOST }),
    ...(vars.STRIPE_API_PORT === undefined ? {} : { port: vars.STRIPE_API_PORT }),
    ...(vars.STRIPE_API_PROTOCOL === undefined ? {} : { protocol: vars.STRIPE_API_PROTOCOL }),
  };
}

/** Twilio when its account SID, auth token and sender are all set; some but not all is an error. */
function parseTwilio(vars: z.infer<typeof envSchema>): TwilioSettings | undefined {
  const { TWILIO_ACCOUNT_SID: accountSid, TWILIO_AUTH_TOKEN: authToken, TWILIO_FROM: from } = vars;
  if (accountSid === undefined && authToken === undefined && from === undefined) return undefined;
  if (accountSid === undefined || authToken === undefined || from === undefined) {
    throw new ConfigError(
      'Invalid configuration:\n  TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM must be set together.',
    );
  }
  return {
    accountSid,
    authToken,
    from,
    ...(vars.TWILIO_BASE_URL === undefined ? {} : { baseUrl: vars.TWILIO_BASE_URL }),
  };
}

/** Each provider is on when its client id is set; the URLs default to the provider's own. */
function parseSocial(vars: z.infer<typeof envSchema>): SocialSettings {
  const social: SocialSettings = {};
  if (vars.GOOGLE_CLIENT_ID !== undefined) {
    social.google = {
      clientId: vars.GOOGLE_CLIENT_ID,
      authUrl: vars.GOOGLE_AUTH_URL ?? 'https://accounts.google.com/o/oauth2/v2/auth',
      tokenUrl: vars.GOOGLE_TOKEN_URL ?? 'https://oauth2.googleapis.com/token',
      tokeninfoUrl: vars.GOOGLE_TOKENINFO_URL ?? 'https://oauth2.googleapis.com/tokeninfo',
      userinfoUrl: vars.GOOGLE_USERINFO_URL ?? 'https://openidconnect.googleapis.com/v1/userinfo',
    };
  }
  if (vars.APPLE_CLIENT_ID !== undefined) {
    social.apple = {
      clientId: vars.APPLE_CLIENT_ID,
      issuer: vars.APPLE_ISSUER ?? 'https://appleid.apple.com',
      jwksUrl: vars.APPLE_JWKS_URL ?? 'https://appleid.apple.com/auth/keys',
      authUrl: vars.APPLE_AUTH_URL ?? 'https://appleid.apple.com/auth/authorize',
      tokenUrl: vars.APPLE_TOKEN_URL ?? 'https://appleid.apple.com/auth/token',
    };
  }
  const { FACEBOOK_APP_ID: appId, FACEBOOK_APP_SECRET: appSecret } = vars;
  if ((appId === undefined) !== (appSecret === undefined)) {
    throw new ConfigError(
      'Invalid configuration:\n  FACEBOOK_APP_ID and FACEBOOK_APP_SECRET must be set together.',
    );
  }
  if (appId !== undefined && appSecret !== undefined) {
    const graphUrl = (vars.FACEBOOK_GRAPH_URL ?? 'https://graph.facebook.com/v19.0').replace(
      /\/+$/,
      '',
    );
    social.facebook = {
      clientId: appId,
      appSecret,
      graphUrl,
      authUrl: vars.FACEBOOK_AUTH_URL ?? 'https://www.facebook.com/v19.0/dialog/oauth',
      tokenUrl: vars.FACEBOOK_TOKEN_URL ?? `${graphUrl}/oauth/access_token`,
    };
  }
  return social;
}

/** Origins of the configured providers' token endpoints, which the browser calls. */
export function socialTokenOrigins(social: SocialSettings): string[] {
  const clients: (OAuthClientSettings | undefined)[] = [
    social.google,
    social.apple,
    social.facebook,
  ];
  return clients.flatMap((client) =>
    client === undefined ? [] : [new URL(client.tokenUrl).origin],
  );
}

/**
 * The key that signs file links, derived from the token secret (HKDF-SHA256, label
 * 'file-links'): one configured secret, two independent keys (docs/decisions/file-link-secret.md).
 */
export function fileLinkSecret(tokenSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', tokenSecret, '', 'file-links', 32));
}

/** The AES-256-GCM key of stored TOTP secrets, derived the same way with the label
 *  'totp-secrets' (docs/decisions/second-factor.md). */
export function totpSecretKey(tokenSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', tokenSecret, '', 'totp-secrets', 32));
}

const secretsFileSchema = z.object({ tokenSecret: z.string().min(32) });

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The token signing secret: TOKEN_SECRET when given, otherwise one generated on first start and
 * kept in DATA_DIR/secrets.json (owner-only) so sessions survive a restart.
 */
function resolveTokenSecret(dataDir: string, fromEnv: string | undefined): string {
  if (fromEnv !== undefined) return fromEnv;
  const file = path.join(dataDir, 'secrets.json');
  try {
    writeFileSync(file, JSON.stringify({ tokenSecret: randomBytes(32).toString('base64url') }), {
      flag: 'wx',
      mode: 0o600,
    });
  } catch (error) {
    // 'wx' fails when the file exists: a previous start generated it, so reuse it.
    if (!(error instanceof Error && 'code' in error && error.code === 'EEXIST')) throw error;
  }
  const parsed = secretsFileSchema.safeParse(parseJson(readFileSync(file, 'utf8')));
  if (!parsed.success) {
    throw new ConfigError(
      `${file} is not a valid secrets file; delete it to generate a new secret (every session ends).`,
    );
  }
  return parsed.data.tokenSecret;
}

/** Reads every setting once, creates DATA_DIR (owner-only) and resolves the token secret; throws
 *  ConfigError. */
export function loadConfig(env: Env): Config {
  const settings = parseEnv(env);
  try {
    protectDataDir(settings.dataDir);
  } catch (error) {
    throw error instanceof DataDirError ? new ConfigError(error.message) : error;
  }
  return { ...settings, tokenSecret: resolveTokenSecret(settings.dataDir, settings.tokenSecret) };
}
