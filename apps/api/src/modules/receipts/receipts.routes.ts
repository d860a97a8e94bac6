import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { receiptList, receiptPaths } from '@dental/contracts';
import { security } from '#api/lib/openapi-security';
import { problems } from '#api/lib/problem-responses';
import { linkedFileHeaders } from '#api/lib/signed-links';
import { localeOf, receiptPdfPath, type ReceiptsService } from './receipts.service';

export interface ReceiptRoutesOptions {
  receipts: ReceiptsService;
}

const tags = ['receipts'];
/** Payment facts, as for the membership routes: no health data, so no row. */
const notHealthData = 'receipts: what was bought, when and for how much; no health data';

/** docs/product/receipts.md#receipt-calls: the member's receipts and each one's PDF. */
export const receiptRoutes: FastifyPluginAsyncZod<ReceiptRoutesOptions> = (app, { receipts }) => {
  app.get(
    receiptPaths.list,
    {
      onRequest: app.authenticate,
      config: { audit: { none: notHealthData } },
      schema: {
        tags,
        summary: 'The member’s receipts, newest first, each with a short-lived PDF link',
        security,
        response: { 200: receiptList, ...problems(401) },
      },
    },
    (request) => receipts.list(request.user.id),
  );

  app.get(
    `${receiptPdfPath}:memberId/:receiptId/pdf/`,
    {
      config: { audit: { none: notHealthData } },
      schema: {
        tags,
        summary: 'A receipt as a PDF, through the signed link of its list entry (no bearer)',
        params: z.object({ memberId: z.uuid(), receiptId: z.uuid() }),
        headers: z.object({ 'accept-language': z.string().max(500).optional() }),
        querystring: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
        response: { 200: z.unknown().describe('The PDF’s bytes'), ...problems(400, 403, 404) },
      },
    },
    async (request, reply) => {
      const { memberId, receiptId } = request.params;
      const { file, bytes } = await receipts.pdf(
        memberId,
        receiptId,
        request.query,
        localeOf(request.headers['accept-language']),
      );
      return reply.headers(linkedFileHeaders(file, bytes.length)).send(bytes);
    },
  );
  return Promise.resolve();
};
