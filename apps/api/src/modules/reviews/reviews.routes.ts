import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  clinicReview,
  clinicReviewList,
  clinicReviewListQuery,
  clinicReviewRoutePatterns,
  review,
  reviewAnswer,
  reviewCreated,
  reviewList,
  reviewPaths,
  reviewRequest,
  trainingConsent,
} from '@dental/contracts';
import { security } from '#api/lib/openapi-security';
import { problems } from '#api/lib/problem-responses';
import type { ReviewService } from './reviews.service';

export interface ReviewRoutesOptions {
  reviews: ReviewService;
}

const params = z.object({ id: z.uuid('This is not a review id.') });
const noContent = z.null().describe('No content');
const staffRows = 'the service writes one row per review into its patient’s chain';

/**
 * A dentist's review of photos or a Dental AI result (docs/decisions/photo-reviews.md): the
 * member's calls (not delegable: a person who views the record neither asks nor reads reviews
 * for the member) and the practice's, behind the staff guard.
 */
export const reviewRoutes: FastifyPluginAsyncZod<ReviewRoutesOptions> = (app, { reviews }) => {
  const member = { onRequest: app.authenticate };
  const staff = { onRequest: app.authenticateStaff };
  const tags = ['reviews'];

  app.post(
    reviewPaths.root,
    {
      ...member,
      config: { audit: { action: 'create', resourceType: 'photo_review', resourceId: 'answer' } },
      schema: {
        tags,
        security,
        summary:
          'Ask a dentist to review photos or X-rays, or a Dental AI result: one of the plan’s yearly reviews',
        body: reviewRequest,
        response: { 201: reviewCreated, ...problems(400, 401, 404, 422) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await reviews.ask(request.user.id, request.body)),
  );

  app.get(
    reviewPaths.root,
    {
      ...member,
      config: { audit: { action: 'read', resourceType: 'photo_review_list' } },
      schema: {
        tags,
        security,
        summary: 'The member’s reviews, newest first, and the plan’s reviews this membership year',
        response: { 200: reviewList, ...problems(401) },
      },
    },
    (request) => reviews.list(request.user.id),
  );

  app.get(
    reviewPaths.consent,
    {
      ...member,
      config: { audit: { none: 'whether the member consents; a setting, no health data' } },
      schema: {
        tags,
        security,
        summary: 'Whether reviewed images may improve the models (off unless given)',
        response: { 200: trainingConsent, ...problems(401) },
      },
    },
    (request) => reviews.consent(request.user.id),
  );

  app.put(
    reviewPaths.consent,
    {
      ...member,
      config: { audit: { action: 'create', resourceType: 'training_consent' } },
      schema: {
        tags,
        security,
        summary: 'Allow reviewed images to improve the models',
        response: { 200: trainingConsent, ...problems(401) },
      },
    },
    (request) => reviews.grantConsent(request.user.id),
  );

  app.delete(
    reviewPaths.consent,
    {
      ...member,
      config: { audit: { action: 'delete', resourceType: 'training_consent' } },
      schema: {
        tags,
        security,
        summary: 'Withdraw the consent: the next data set leaves the member’s images out',
        response: { 204: noContent, ...problems(401) },
      },
    },
    async (request, reply) => {
      await reviews.withdrawConsent(request.user.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    `${reviewPaths.root}:id/`,
    {
      ...member,
      config: {
        audit: { action: 'read', resourceType: 'photo_review', resourceId: { param: 'id' } },
      },
      schema: {
        tags,
        security,
        summary: 'One review: the question and, once answered, the report and findings',
        params,
        response: { 200: review, ...problems(400, 401, 404) },
      },
    },
    (request) => reviews.get(request.user.id, request.params.id),
  );

  const clinicTags = ['clinic'];

  app.get(
    clinicReviewRoutePatterns.list,
    {
      ...staff,
      config: { audit: { none: staffRows } },
      schema: {
        tags: clinicTags,
        security,
        summary: 'The reviews patients asked of the practice, oldest first',
        querystring: clinicReviewListQuery,
        response: { 200: clinicReviewList, ...problems(400, 401, 403) },
      },
    },
    (request) => reviews.listForStaff(request.staff.id, request.query.status),
  );

  app.get(
    clinicReviewRoutePatterns.one,
    {
      ...staff,
      config: { audit: { none: staffRows } },
      schema: {
        tags: clinicTags,
        security,
        summary: 'One review with its images, their sizes and the Dental AI’s boxes',
        params,
        response: { 200: clinicReview, ...problems(400, 401, 403, 404) },
      },
    },
    (request) => reviews.getForStaff(request.staff.id, request.params.id),
  );

  app.put(
    clinicReviewRoutePatterns.one,
    {
      ...staff,
      config: { audit: { none: staffRows } },
      schema: {
        tags: clinicTags,
        security,
        summary:
          'Answer a waiting review: a report and the findings (AI boxes confirmed or rejected, boxes drawn)',
        params,
        body: reviewAnswer,
        response: { 200: clinicReview, ...problems(400, 401, 403, 404, 409, 422) },
      },
    },
    (request) =>
      reviews.answer(
        { id: request.staff.id, name: request.staff.name, role: request.staff.role },
        request.params.id,
        request.body,
      ),
  );

  return Promise.resolve();
};
