import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { configPath, publicConfig, type PublicConfig } from '@dental/contracts';

export interface ConfigRoutesOptions {
  companyName: string;
  customerServiceEmail: string;
  reservationUrl: string | undefined;
  consultationJoinUrl: string | undefined;
}

/** What the web app needs before anyone logs in: footer, service e-mail, sign-in providers. */
export function toPublicConfig(options: ConfigRoutesOptions): PublicConfig {
  return {
    company_name: options.companyName,
    customer_service_email: options.customerServiceEmail,
    // Social sign-in is not configured yet (docs/decisions/social-sign-in-not-configured.md).
    social_providers: [],
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
