import { z } from 'zod';
import { socialProvider } from './account';

export const configPath = '/api/config/';

/** A configured social sign-in provider and the public values of its OAuth 2.0 client: where
 *  the browser sends the member and exchanges the code (docs/decisions/social-sign-in.md). */
export const socialProviderClient = z.object({
  provider: socialProvider,
  client_id: z.string(),
  authorize_url: z.url(),
  token_url: z.url(),
  scope: z.string(),
});
export type SocialProviderClient = z.infer<typeof socialProviderClient>;

/** What the web app reads from the server at start: the footer, the service e-mail, and which
 *  social sign-in providers are configured. */
export const publicConfig = z.object({
  company_name: z.string(),
  customer_service_email: z.string(),
  social_providers: z.array(socialProviderClient),
  /** An external reservation page for the Virtual Consultation hub
   *  (docs/product/consultation.md#hub); absent means the app's own booking page. */
  reservation_url: z.url().optional(),
  /** Where booked virtual consultations take place; absent means the doctor phones the member
   *  (docs/decisions/calendar-export.md). */
  consultation_join_url: z.url().optional(),
});
export type PublicConfig = z.infer<typeof publicConfig>;
