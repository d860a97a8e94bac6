import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, fileLinkSecret, loadConfig, parseEnv } from './config';

const made: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dental-config-'));
  made.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('parseEnv', () => {
  it('has a default for everything', () => {
    const settings = parseEnv({});
    expect(settings).toMatchObject({
      host: 'localhost',
      port: 3000,
      dataDir: path.resolve('data'),
      databaseUrl: undefined,
      publicUrl: 'http://localhost:3000',
      smtpUrl: undefined,
      mailFrom: '"Dental Companion" <no-reply@dentalcompanion.example>',
      tokenSecret: undefined,
      companyName: 'Dental Companion',
      customerServiceEmail: 'support@dentalcompanion.example',
      logLevel: 'info',
      rateLimit: { windowSeconds: 900, perIp: 100, perEmail: 10 },
      trustProxy: false,
    });
    expect(settings.webDist).toMatch(/apps[/\\]web[/\\]dist$/);
    expect(settings.contentDir).toBe(
      path.join(path.resolve(settings.webDist, '../../..'), 'content'),
    );
  });

  // Feature modules add their own variables (and tests for them); these are the foundation's.
  it('reads every foundation variable', () => {
    const settings = parseEnv({
      HOST: '0.0.0.0',
      PORT: '8080',
      DATA_DIR: '/srv/dental',
      DATABASE_URL: 'postgresql://app:secret@db:5432/dental',
      PUBLIC_URL: 'https://dental.example/',
      PAYMENTS: 'test',
      SMTP_URL: 'smtps://mailer:pw@smtp.example:465',
      MAIL_FROM: 'Dental <hello@dental.example>',
      TOKEN_SECRET: 'x'.repeat(40),
      COMPANY_NAME: 'Bright Smile',
      CUSTOMER_SERVICE_EMAIL: 'care@dental.example',
      LOG_LEVEL: 'warn',
      WEB_DIST: '/srv/web',
      CONTENT_DIR: '/srv/content',
      RATE_LIMIT_WINDOW_SECONDS: '60',
      RATE_LIMIT_PER_IP: '30',
      RATE_LIMIT_PER_EMAIL: '3',
      TRUST_PROXY: '10.0.0.0/8',
    });
    expect(settings).toMatchObject({
      host: '0.0.0.0',
      port: 8080,
      dataDir: '/srv/dental',
      databaseUrl: 'postgresql://app:secret@db:5432/dental',
      publicUrl: 'https://dental.example',
      smtpUrl: 'smtps://mailer:pw@smtp.example:465',
      mailFrom: 'Dental <hello@dental.example>',
      tokenSecret: 'x'.repeat(40),
      companyName: 'Bright Smile',
      customerServiceEmail: 'care@dental.example',
      logLevel: 'warn',
      webDist: '/srv/web',
      contentDir: '/srv/content',
      rateLimit: { windowSeconds: 60, perIp: 30, perEmail: 3 },
      trustProxy: '10.0.0.0/8',
    });
  });

  it('derives the public URL from host and port', () => {
    expect(parseEnv({ HOST: '127.0.0.1', PORT: '3200' }).publicUrl).toBe('http://127.0.0.1:3200');
  });

  it('treats empty variables as unset', () => {
    expect(parseEnv({ PORT: '', DATABASE_URL: '', SMTP_URL: '' })).toMatchObject({
      port: 3000,
      databaseUrl: undefined,
      smtpUrl: undefined,
    });
  });

  it.each([
    ['true', true],
    ['false', false],
    ['127.0.0.1,10.0.0.1', '127.0.0.1,10.0.0.1'],
  ])('reads TRUST_PROXY=%s', (value, expected) => {
    expect(parseEnv({ TRUST_PROXY: value }).trustProxy).toBe(expected);
  });

  it.each(['http://localhost:3000', 'http://127.0.0.1:8080/', 'https://dental.example'])(
    'accepts PUBLIC_URL=%s, local hosts included',
    (value) => {
      expect(parseEnv({ PUBLIC_URL: value, PAYMENTS: 'test' }).publicUrl).toBe(
        value.replace(/\/+$/, ''),
      );
    },
  );

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://localhost/db'],
    ['PUBLIC_URL', 'ftp://files.example'],
    ['SMTP_URL', 'http://mail.example'],
    ['TOKEN_SECRET', 'too-short'],
    ['CUSTOMER_SERVICE_EMAIL', 'nobody'],
    ['LOG_LEVEL', 'loud'],
    ['RATE_LIMIT_PER_IP', '0'],
    ['RATE_LIMIT_PER_EMAIL', '2.5'],
    ['DENTAL_AI_ENDPOINT', 'grpc://triton.example:8001'],
    ['DENTAL_AI_CONFIDENCE', '1'],
    ['DENTAL_AI_CONFIDENCE', 'high'],
    ['DENTAL_AI_IOU', '0'],
    ['DENTAL_AI_THREADS', '0'],
    ['DENTAL_AI_SHIPPED_MODELS', 'no'],
  ])('fails fast on %s=%s, naming the variable', (name, value) => {
    expect(() => parseEnv({ [name]: value })).toThrow(ConfigError);
    expect(() => parseEnv({ [name]: value })).toThrow(new RegExp(`${name}: .*got "${value}"`));
  });

  it('lists every bad variable at once', () => {
    expect(() => parseEnv({ PORT: 'x', LOG_LEVEL: 'y' })).toThrow(/PORT[\s\S]*LOG_LEVEL/);
  });
});

describe('loadConfig', () => {
  it('creates DATA_DIR when it is missing', () => {
    const dataDir = path.join(tempDir(), 'nested', 'data');
    loadConfig({ DATA_DIR: dataDir, TOKEN_SECRET: 's'.repeat(32) });
    expect(statSync(dataDir).isDirectory()).toBe(true);
  });

  it('generates the token secret once, owner-only, and reuses it on restart', () => {
    const dataDir = tempDir();
    const first = loadConfig({ DATA_DIR: dataDir });
    const file = path.join(dataDir, 'secrets.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(first.tokenSecret.length).toBeGreaterThanOrEqual(43);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ tokenSecret: first.tokenSecret });
    expect(loadConfig({ DATA_DIR: dataDir }).tokenSecret).toBe(first.tokenSecret);
    expect(loadConfig({ DATA_DIR: tempDir() }).tokenSecret).not.toBe(first.tokenSecret);
  });

  it('prefers TOKEN_SECRET and then writes nothing', () => {
    const dataDir = tempDir();
    const config = loadConfig({ DATA_DIR: dataDir, TOKEN_SECRET: 'k'.repeat(32) });
    expect(config.tokenSecret).toBe('k'.repeat(32));
    expect(() => statSync(path.join(dataDir, 'secrets.json'))).toThrow();
  });

  it('refuses a damaged secrets file instead of silently replacing it', () => {
    const dataDir = tempDir();
    writeFileSync(path.join(dataDir, 'secrets.json'), '{not json');
    expect(() => loadConfig({ DATA_DIR: dataDir })).toThrow(ConfigError);
  });
});

describe('VAPID keys', () => {
  it('generates the pair once, owner-only, and reuses it on restart', () => {
    const dataDir = tempDir();
    const first = loadConfig({ DATA_DIR: dataDir });
    const file = path.join(dataDir, 'vapid.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(first.vapidKeys.publicKey).toMatch(/^[\w-]{87}$/);
    expect(first.vapidKeys.privateKey).toMatch(/^[\w-]{43}$/);
    expect(loadConfig({ DATA_DIR: dataDir }).vapidKeys).toEqual(first.vapidKeys);
    expect(loadConfig({ DATA_DIR: tempDir() }).vapidKeys).not.toEqual(first.vapidKeys);
    expect(first.push).toEqual({
      subject: 'mailto:support@dentalcompanion.example',
      keys: undefined,
      localEndpoints: false,
    });
  });

  it('prefers the configured pair and subject, and then writes nothing', () => {
    const dataDir = tempDir();
    const keys = { publicKey: `B${'a'.repeat(86)}`, privateKey: 'p'.repeat(43) };
    const config = loadConfig({
      DATA_DIR: dataDir,
      VAPID_PUBLIC_KEY: keys.publicKey,
      VAPID_PRIVATE_KEY: keys.privateKey,
      VAPID_SUBJECT: 'mailto:care@dental.example',
      PUSH_LOCAL_ENDPOINTS: 'on',
    });
    expect(config.vapidKeys).toEqual(keys);
    expect(config.push).toMatchObject({
      subject: 'mailto:care@dental.example',
      localEndpoints: true,
    });
    expect(() => statSync(path.join(dataDir, 'vapid.json'))).toThrow();
  });

  it('refuses half a pair, a bad subject and a damaged key file', () => {
    expect(() => parseEnv({ VAPID_PUBLIC_KEY: `B${'a'.repeat(86)}` })).toThrow(
      /must be set together/,
    );
    expect(() => parseEnv({ VAPID_SUBJECT: 'dental.example' })).toThrow(/VAPID_SUBJECT/);
    const dataDir = tempDir();
    writeFileSync(path.join(dataDir, 'vapid.json'), '{not json');
    expect(() => loadConfig({ DATA_DIR: dataDir })).toThrow(ConfigError);
  });
});

describe('Dental AI settings', () => {
  it('defaults to the shipped models in this process at Ultralytics’ thresholds', () => {
    const { dentalAi } = parseEnv({});
    expect(dentalAi).toMatchObject({
      models: {},
      endpoint: undefined,
      confidence: 0.25,
      iou: 0.45,
    });
    expect(dentalAi.threads).toBe(os.availableParallelism());
    expect(dentalAi.shippedModelsDir).toMatch(/models$/);
  });

  it('reads configured models, a remote endpoint, thresholds and the shipped-model switch', () => {
    expect(
      parseEnv({
        DENTAL_AI_MODEL_CARIES: 'caries.onnx',
        DENTAL_AI_MODEL_CARIES_PHOTO: '/models/photo.onnx',
        DENTAL_AI_MODEL_WISDOM_TEETH: '/models/wisdom.onnx',
        DENTAL_AI_ENDPOINT: 'http://127.0.0.1:8000/',
        DENTAL_AI_CONFIDENCE: '0.4',
        DENTAL_AI_IOU: '0.6',
        DENTAL_AI_THREADS: '3',
        DENTAL_AI_SHIPPED_MODELS: 'off',
      }).dentalAi,
    ).toEqual({
      models: {
        caries: path.resolve('caries.onnx'),
        caries_photo: '/models/photo.onnx',
        wisdom_teeth: '/models/wisdom.onnx',
      },
      endpoint: 'http://127.0.0.1:8000',
      confidence: 0.4,
      iou: 0.6,
      threads: 3,
      shippedModelsDir: undefined,
    });
  });
});

describe('file storage settings', () => {
  it('keeps files on disk unless S3_BUCKET is set', () => {
    expect(parseEnv({}).s3).toBeUndefined();
    expect(parseEnv({ S3_REGION: 'eu-west-1' }).s3).toBeUndefined();
  });

  it('reads the S3 settings', () => {
    expect(
      parseEnv({
        S3_BUCKET: 'dental-files',
        S3_REGION: 'eu-central-1',
        S3_ENDPOINT: 'http://127.0.0.1:9000',
        S3_ACCESS_KEY_ID: 'key',
        S3_SECRET_ACCESS_KEY: 'secret',
        S3_FORCE_PATH_STYLE: 'true',
      }).s3,
    ).toEqual({
      bucket: 'dental-files',
      region: 'eu-central-1',
      endpoint: 'http://127.0.0.1:9000',
      accessKeyId: 'key',
      secretAccessKey: 'secret',
      forcePathStyle: true,
    });
    expect(parseEnv({ S3_BUCKET: 'b' }).s3).toEqual({
      bucket: 'b',
      region: 'us-east-1',
      forcePathStyle: false,
    });
  });

  it('refuses an access key without its secret, and a bad path-style flag', () => {
    expect(() => parseEnv({ S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'key' })).toThrow(ConfigError);
    expect(() => parseEnv({ S3_BUCKET: 'b', S3_FORCE_PATH_STYLE: 'yes' })).toThrow(ConfigError);
  });

  it('derives a file-link key of 32 bytes that differs from the token secret', () => {
    const secret = 's'.repeat(40);
    const key = fileLinkSecret(secret);
    expect(key).toHaveLength(32);
    expect(key.equals(fileLinkSecret(secret))).toBe(true);
    expect(key.equals(Buffer.from(secret).subarray(0, 32))).toBe(false);
    expect(key.equals(fileLinkSecret('t'.repeat(40)))).toBe(false);
  });
});

describe('session timeouts', () => {
  it('end a session after 30 idle minutes and 12 hours at most unless configured', () => {
    expect(parseEnv({}).session).toEqual({ idleMinutes: 30, maxHours: 12, reauthMinutes: 10 });
    expect(
      parseEnv({ SESSION_IDLE_MINUTES: '15', SESSION_MAX_HOURS: '8', SESSION_REAUTH_MINUTES: '5' })
        .session,
    ).toEqual({ idleMinutes: 15, maxHours: 8, reauthMinutes: 5 });
  });

  it.each([
    ['SESSION_IDLE_MINUTES', '0'],
    ['SESSION_IDLE_MINUTES', 'half an hour'],
    ['SESSION_MAX_HOURS', '1.5'],
    ['SESSION_REAUTH_MINUTES', '0'],
  ])('fails fast on %s=%s', (name, value) => {
    expect(() => parseEnv({ [name]: value })).toThrow(new RegExp(`${name}: .*got "${value}"`));
  });
});

describe('reminder delivery settings', () => {
  it('retries a failed reminder 8 times unless configured', () => {
    expect(parseEnv({}).reminders).toEqual({
      attemptSeconds: 60,
      retryDelaySeconds: 30,
      retryLimit: 8,
    });
    expect(parseEnv({ REMINDER_RETRY_LIMIT: '3' }).reminders.retryLimit).toBe(3);
  });
});

describe('payments on a public address', () => {
  it.each(['https://dental.example', 'http://10.0.0.5:3000', 'http://[2001:db8::1]'])(
    'refuses PUBLIC_URL=%s without a payment provider: the test-mode checkout gives plans away',
    (url) => {
      expect(() => parseEnv({ PUBLIC_URL: url })).toThrow(ConfigError);
      expect(() => parseEnv({ PUBLIC_URL: url })).toThrow(
        /Set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET, or PAYMENTS=test/,
      );
    },
  );

  it('refuses a server on every interface without a PUBLIC_URL', () => {
    expect(() => parseEnv({ HOST: '0.0.0.0' })).toThrow(/not at http:\/\/0\.0\.0\.0:3000/);
  });

  it('allows the test-mode checkout there when PAYMENTS=test asks for it', () => {
    const settings = parseEnv({ PUBLIC_URL: 'https://dental.example', PAYMENTS: 'test' });
    expect(settings.stripe).toBeUndefined();
  });

  it('allows a public address with Stripe keys', () => {
    const settings = parseEnv({
      PUBLIC_URL: 'https://dental.example',
      STRIPE_SECRET_KEY: 'sk_test_x',
      STRIPE_WEBHOOK_SECRET: 'whsec_x',
    });
    expect(settings.stripe).toMatchObject({ secretKey: 'sk_test_x' });
  });

  it.each([
    'http://localhost:3000',
    'http://app.localhost',
    'http://127.0.0.1:8080',
    'http://127.1.2.3',
    'http://[::1]:3000',
  ])('keeps the test-mode checkout as the default on the loopback address %s', (url) => {
    expect(parseEnv({ PUBLIC_URL: url }).stripe).toBeUndefined();
  });

  it('accepts only PAYMENTS=test', () => {
    expect(() => parseEnv({ PAYMENTS: 'free' })).toThrow(/PAYMENTS: .*got "free"/);
  });
});

describe('metrics and shutdown settings', () => {
  const token = 'm'.repeat(32);

  it('serve no metrics and give a shutdown 10 seconds unless configured', () => {
    const settings = parseEnv({});
    expect(settings.metrics).toEqual({ token: undefined, port: undefined });
    expect(settings.shutdownTimeoutSeconds).toBe(10);
  });

  it('read the metrics token and port and the shutdown deadline', () => {
    const settings = parseEnv({
      METRICS_TOKEN: token,
      METRICS_PORT: '9464',
      SHUTDOWN_TIMEOUT_SECONDS: '25',
    });
    expect(settings.metrics).toEqual({ token, port: 9464 });
    expect(settings.shutdownTimeoutSeconds).toBe(25);
  });

  it('refuse a short token, the API port for metrics and a shutdown without time', () => {
    expect(() => parseEnv({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN: .*32 characters/);
    expect(() => parseEnv({ PORT: '8080', METRICS_PORT: '8080' })).toThrow(
      /METRICS_PORT must differ from PORT/,
    );
    expect(() => parseEnv({ SHUTDOWN_TIMEOUT_SECONDS: '0' })).toThrow(/SHUTDOWN_TIMEOUT_SECONDS/);
  });
});

describe('social sign-in settings', () => {
  it('turn a provider on with its client id, at the provider’s own addresses', () => {
    expect(parseEnv({}).social).toEqual({});
    expect(
      parseEnv({
        GOOGLE_CLIENT_ID: 'google-client',
        APPLE_CLIENT_ID: 'com.example.dental',
        FACEBOOK_APP_ID: '1234',
        FACEBOOK_APP_SECRET: 'fb-secret',
      }).social,
    ).toEqual({
      google: {
        clientId: 'google-client',
        authUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
        tokenUrl: 'https://oauth2.googleapis.com/token',
        tokeninfoUrl: 'https://oauth2.googleapis.com/tokeninfo',
        userinfoUrl: 'https://openidconnect.googleapis.com/v1/userinfo',
      },
      apple: {
        clientId: 'com.example.dental',
        issuer: 'https://appleid.apple.com',
        jwksUrl: 'https://appleid.apple.com/auth/keys',
        authUrl: 'https://appleid.apple.com/auth/authorize',
        tokenUrl: 'https://appleid.apple.com/auth/token',
      },
      facebook: {
        clientId: '1234',
        appSecret: 'fb-secret',
        graphUrl: 'https://graph.facebook.com/v19.0',
        authUrl: 'https://www.facebook.com/v19.0/dialog/oauth',
        tokenUrl: 'https://graph.facebook.com/v19.0/oauth/access_token',
      },
    });
  });

  it('read other addresses for local stand-ins', () => {
    const social = parseEnv({
      GOOGLE_CLIENT_ID: 'g',
      GOOGLE_AUTH_URL: 'http://127.0.0.1:4001/authorize',
      GOOGLE_TOKEN_URL: 'http://127.0.0.1:4001/token',
      GOOGLE_TOKENINFO_URL: 'http://127.0.0.1:4003/tokeninfo',
      GOOGLE_USERINFO_URL: 'http://127.0.0.1:4001/userinfo',
      APPLE_CLIENT_ID: 'a',
      APPLE_ISSUER: 'http://127.0.0.1:4002',
      APPLE_JWKS_URL: 'http://127.0.0.1:4002/jwks',
      APPLE_AUTH_URL: 'http://127.0.0.1:4002/authorize',
      APPLE_TOKEN_URL: 'http://127.0.0.1:4002/token',
      FACEBOOK_APP_ID: 'f',
      FACEBOOK_APP_SECRET: 's',
      FACEBOOK_GRAPH_URL: 'http://127.0.0.1:4003/',
      FACEBOOK_AUTH_URL: 'http://127.0.0.1:4003/dialog/oauth',
    }).social;
    expect(social.google?.tokeninfoUrl).toBe('http://127.0.0.1:4003/tokeninfo');
    expect(social.apple).toMatchObject({
      issuer: 'http://127.0.0.1:4002',
      jwksUrl: 'http://127.0.0.1:4002/jwks',
    });
    expect(social.facebook).toMatchObject({
      graphUrl: 'http://127.0.0.1:4003',
      tokenUrl: 'http://127.0.0.1:4003/oauth/access_token',
    });
  });

  it('refuse a Facebook app id without its secret and an address that is not http(s)', () => {
    expect(() => parseEnv({ FACEBOOK_APP_ID: '1234' })).toThrow(
      /FACEBOOK_APP_ID and FACEBOOK_APP_SECRET must be set together/,
    );
    expect(() => parseEnv({ GOOGLE_CLIENT_ID: 'g', GOOGLE_TOKEN_URL: 'ftp://x' })).toThrow(
      /GOOGLE_TOKEN_URL must be an http:\/\/ or https:\/\/ URL/,
    );
  });
});
