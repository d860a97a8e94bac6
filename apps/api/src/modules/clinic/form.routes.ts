import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  clinicConsultationPaths,
  clinicForm,
  clinicIdParams,
  createdId,
  newFormQuestionRequest,
  updateFormQuestionRequest,
  type ClinicForm,
} from '@dental/contracts';
import { security } from '#api/lib/openapi-security';
import { problems } from '#api/lib/problem-responses';

/** The form's questions as ClinicService keeps them, for the clinic command and the console
 *  alike: one piece of code for positions, rewording and archiving. */
export interface FormQuestions {
  questions(): Promise<{ id: string; label: string }[]>;
  addQuestion(label: string, position?: number): Promise<string>;
  editQuestion(id: string, label: string): Promise<void>;
  moveQuestion(id: string, position: number): Promise<void>;
  removeQuestion(id: string): Promise<void>;
}

export interface FormRoutesOptions {
  clinic: FormQuestions;
}

const tags = ['clinic'];
const noContent = z.null().describe('No content');
const noHealthData = { none: 'the practice’s questions, no patient data' };

/** The consultation form: any staff member reads it, the admin changes it
 *  (docs/decisions/clinic-consultations.md). */
export const formRoutes: FastifyPluginAsyncZod<FormRoutesOptions> = (app, { clinic }) => {
  const form = async (): Promise<ClinicForm> => ({
    questions: (await clinic.questions()).map((question, index) => ({
      id: question.id,
      label: question.label,
      position: index + 1,
    })),
  });
  const admin = { onRequest: app.authenticateStaff, preHandler: app.requireClinicAdmin };

  app.get(
    clinicConsultationPaths.form,
    {
      onRequest: app.authenticateStaff,
      config: { audit: noHealthData },
      schema: {
        tags,
        security,
        summary: 'The questions a patient answers when booking, in order',
        response: { 200: clinicForm, ...problems(401, 403) },
      },
    },
    form,
  );

  app.post(
    clinicConsultationPaths.formQuestions,
    {
      ...admin,
      config: { audit: noHealthData },
      schema: {
        tags,
        security,
        summary: 'Add a question at the end or at a 1-based position',
        body: newFormQuestionRequest,
        response: { 201: createdId, ...problems(400, 401, 403) },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send({ id: await clinic.addQuestion(request.body.label, request.body.position) }),
  );

  app.patch(
    `${clinicConsultationPaths.formQuestions}:id/`,
    {
      ...admin,
      config: { audit: noHealthData },
      schema: {
        tags,
        security,
        summary: 'Reword a question or move it; answers already given keep their wording',
        params: clinicIdParams,
        body: updateFormQuestionRequest,
        response: { 200: clinicForm, ...problems(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { label, position } = request.body;
      if (label !== undefined) await clinic.editQuestion(request.params.id, label);
      if (position !== undefined) await clinic.moveQuestion(request.params.id, position);
      return form();
    },
  );

  app.delete(
    `${clinicConsultationPaths.formQuestions}:id/`,
    {
      ...admin,
      config: { audit: noHealthData },
      schema: {
        tags,
        security,
        summary: 'Take a question off the form; answers given to it keep it',
        params: clinicIdParams,
        response: { 204: noContent, ...problems(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await clinic.removeQuestion(request.params.id);
      return reply.code(204).send(null);
    },
  );

  return Promise.resolve();
};
