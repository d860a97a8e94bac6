import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  configPath,
  publicConfig,
  type PublicConfig,
  type SocialProviderClient,
} from '@dental/contracts';
import type { SocialSettings } from '#api/config';

export interface ConfigRoutesOptions {
  companyName: string;
  customerServiceEmail: string;
  reservationUrl: string | undefined;
  consultationJoinUrl: string | undefined;
  social: SocialSettings;
}

/** What each provider is asked for: who the member is and their e-mail address. */
const scopes = { google: 'openid email', apple: 'email', facebook: 'email' } as const;

/** The configured providers' public client values; never a secret. */
function socialProviderClients(social: SocialSettings): SocialProviderClient[] {
  return (['google', 'apple', 'facebook'] as const).flatMap((provider) => {
    const settings = social[provider];
    if (settings === undefined) return [];
    return [
      {
        provider,
        client_id: settings.clientId,
        authorize_url: settings.authUrl,
        token_url: settings.tokenUrl,
        scope: scopes[provider],
      },
    ];
  });
}

/** What the web app needs before anyone logs in: footer, service e-mail, sign-in providers. */
export function toPublicConfig(options: ConfigRoutesOptions): PublicConfig {
  return {
    company_name: options.companyName,
    customer_service_email: options.customerServiceEmail,
    social_providers: socialProviderClients(options.social),
    ...(options.reservationUrl === undefined ? {} : { reservation_url: options.reservationUrl }),
    ...(options.consultationJoinUrl === undefined
      ? {}
      : { consultation_join_url: options.consultationJoinUrl }),
  };
}

export const configRoutes: FastifyPluginAsyncZod<ConfigRoutesOptions> = (app, options) => {
  const answer = toPublicConfig(options);
  app.get(
    configPath,
    {
      schema: {
        tags: ['config'],
        summary: 'Public settings of this server',
        response: { 200: publicConfig },
      },
    },
    () => answer,
  );
  return Promise.resolve();
};
