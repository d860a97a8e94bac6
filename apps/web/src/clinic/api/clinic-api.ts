import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  account,
  accountPaths,
  availability,
  clinicConsultationPage,
  clinicConsultationPaths,
  clinicForm,
  clinicMe,
  clinicMessageEventPaths,
  clinicMessagePaths,
  clinicMessageThread,
  clinicMessageThreadList,
  clinicMessageThreadSummary,
  clinicPatientList,
  clinicPatientPaths,
  clinicReview,
  clinicReviewList,
  clinicReviewPaths,
  clinicStaffPaths,
  createdId,
  createdMessage,
  medicalRecordList,
  oralPhotoList,
  practitionerList,
  staffList,
  type Availability,
  type ConsultationPeriod,
  type InviteStaffRequest,
  type MessageThreadChange,
  type MessageThreadStatus,
  type ReviewAnswer,
  type ReviewStatus,
  unreadMessages,
} from '@dental/contracts';
import { apiRequest, apiSend } from '#web/lib/api-client';
import type { MessageStream } from '#web/lib/message-events';

const id = encodeURIComponent;

/** The clinic's routes, as @dental/contracts names them. */
export const clinicApi = {
  ...clinicConsultationPaths,
  staffMember: (staffId: string) => `${clinicStaffPaths.staff}${id(staffId)}/`,
  consultationsOf: (period: ConsultationPeriod) =>
    `${clinicConsultationPaths.consultations}?period=${period}`,
} as const;

/** `GET /api/account/` tells a member's token from a staff one before any clinic route is asked. */
const accountRoleOnly = account.pick({ role: true });

export const accountRoleQuery = queryOptions({
  queryKey: ['clinic', 'account-role'],
  queryFn: () => apiRequest(accountPaths.account, accountRoleOnly),
});

export const clinicMeQuery = queryOptions({
  queryKey: ['clinic', 'me'],
  queryFn: () => apiRequest(clinicStaffPaths.me, clinicMe),
});

export const useClinicMe = () => useQuery(clinicMeQuery);

export const useConsultations = (period: ConsultationPeriod) =>
  useQuery({
    queryKey: ['clinic', 'consultations', period],
    queryFn: () => apiRequest(clinicApi.consultationsOf(period), clinicConsultationPage),
  });

export function useSaveSummary(consultationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: {
      doctor_condition: string;
      doctor_summary: string;
      doctor_return: string;
      images: string[];
    }) => apiSend(clinicApi.summary(consultationId), { method: 'PUT', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['clinic', 'consultations'] }),
  });
}

export const practitionersQuery = queryOptions({
  queryKey: ['clinic', 'practitioners'],
  queryFn: () => apiRequest(clinicApi.practitioners, practitionerList),
});

export const useAvailability = (practitionerId: string | null) =>
  useQuery({
    queryKey: ['clinic', 'availability', practitionerId],
    queryFn: () => apiRequest(clinicApi.availability(practitionerId ?? ''), availability),
    enabled: practitionerId !== null,
  });

export function useSaveAvailability(practitionerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Availability) =>
      apiSend(clinicApi.availability(practitionerId), { method: 'PUT', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['clinic'] }),
  });
}

/** Every change of the admin screens refreshes the console's cached answers. */
function useClinicChange<Input>(send: (input: Input) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['clinic'] }),
  });
}

export const useUpdatePractitioner = () =>
  useClinicChange(
    ({
      practitionerId,
      ...body
    }: {
      practitionerId: string;
      name?: string;
      bio?: string;
      photo?: string | null;
    }) => apiSend(clinicApi.practitioner(practitionerId), { method: 'PATCH', body }),
  );

export const useRemovePractitioner = () =>
  useClinicChange((practitionerId: string) =>
    apiSend(clinicApi.practitioner(practitionerId), { method: 'DELETE' }),
  );

export const formQuery = queryOptions({
  queryKey: ['clinic', 'form'],
  queryFn: () => apiRequest(clinicApi.form, clinicForm),
});

export const useAddQuestion = () =>
  useClinicChange((body: { label: string }) =>
    apiRequest(clinicApi.formQuestions, createdId, { method: 'POST', body }),
  );

export const useUpdateQuestion = () =>
  useClinicChange(
    ({ questionId, ...body }: { questionId: string; label?: string; position?: number }) =>
      apiSend(clinicApi.formQuestion(questionId), { method: 'PATCH', body }),
  );

export const useRemoveQuestion = () =>
  useClinicChange((questionId: string) =>
    apiSend(clinicApi.formQuestion(questionId), { method: 'DELETE' }),
  );

export const staffQuery = queryOptions({
  queryKey: ['clinic', 'staff'],
  queryFn: () => apiRequest(clinicStaffPaths.staff, staffList),
});

export const useInviteStaff = () =>
  useClinicChange((body: InviteStaffRequest) =>
    apiRequest(clinicStaffPaths.staff, createdId, { method: 'POST', body }),
  );

export const useDeactivateStaff = () =>
  useClinicChange((staffId: string) =>
    apiSend(clinicApi.staffMember(staffId), { method: 'DELETE' }),
  );

export const patientsQuery = queryOptions({
  queryKey: ['clinic', 'patients'],
  queryFn: () => apiRequest(clinicPatientPaths.list, clinicPatientList),
});

export const usePatientPhotos = (patientId: string) =>
  useQuery({
    queryKey: ['clinic', 'patients', patientId, 'photos'],
    queryFn: () => apiRequest(clinicPatientPaths.oralPhotos(patientId), oralPhotoList),
  });

export const usePatientRecords = (patientId: string) =>
  useQuery({
    queryKey: ['clinic', 'patients', patientId, 'records'],
    queryFn: () => apiRequest(clinicPatientPaths.medicalRecords(patientId), medicalRecordList),
  });

/** Accepting an invitation is public: the token in the link is the proof. */
export const useAcceptInvitation = () =>
  useMutation({
    mutationFn: (body: { token: string; password: string }) =>
      apiSend(clinicStaffPaths.acceptInvitation, { method: 'POST', body, auth: false }),
  });

/** Every query of the console's messages starts with this key, so one event of the staff stream
 *  refreshes them all (the list, a conversation, the navigation's unread count). */
const clinicMessagesKey = ['clinic', 'messages'] as const;

/** The staff side's event stream for `useLiveMessages` (docs/decisions/care-messages-live.md). */
export const clinicMessageStream: MessageStream = {
  paths: clinicMessageEventPaths,
  queryKey: clinicMessagesKey,
};

/** Open or closed conversations, newest message first (the first page: 50). */
export const useClinicThreads = (status: MessageThreadStatus) =>
  useQuery({
    queryKey: [...clinicMessagesKey, 'threads', status],
    queryFn: () =>
      apiRequest(`${clinicMessagePaths.threads}?status=${status}`, clinicMessageThreadList),
  });

/** One conversation; reading it marks the member's messages read for the whole practice, so the
 *  list and the navigation's count are read again (a read sends no event). */
export function useClinicThread(threadId: string) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: [...clinicMessagesKey, 'thread', threadId],
    queryFn: async () => {
      const thread = await apiRequest(clinicMessagePaths.thread(threadId), clinicMessageThread);
      for (const part of ['threads', 'unread']) {
        void queryClient.invalidateQueries({ queryKey: [...clinicMessagesKey, part] });
      }
      return thread;
    },
  });
}

/** The members' messages no staff member has read: the navigation's badge. */
export const useClinicUnread = () =>
  useQuery({
    queryKey: [...clinicMessagesKey, 'unread'],
    queryFn: () => apiRequest(clinicMessagePaths.unread, unreadMessages),
  });

function useMessagesChange<Input, Answer>(send: (input: Input) => Promise<Answer>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: clinicMessagesKey }),
  });
}

export const useStaffReply = (threadId: string) =>
  useMessagesChange((body: { body: string }) =>
    apiRequest(clinicMessagePaths.thread(threadId), createdMessage, { method: 'POST', body }),
  );

/** Close or reopen a conversation, or give it to a staff member (null: to nobody). */
export const useChangeThread = (threadId: string) =>
  useMessagesChange((body: MessageThreadChange) =>
    apiRequest(clinicMessagePaths.thread(threadId), clinicMessageThreadSummary, {
      method: 'PATCH',
      body,
    }),
  );

/** The reviews patients asked of the practice, oldest first: the queue the practitioners work. */
export const useClinicReviews = (status: ReviewStatus) =>
  useQuery({
    queryKey: ['clinic', 'reviews', 'list', status],
    queryFn: () => apiRequest(`${clinicReviewPaths.list}?status=${status}`, clinicReviewList),
  });

/** One review with its images, their sizes and the Dental AI's boxes on them. */
export const useClinicReview = (reviewId: string) =>
  useQuery({
    queryKey: ['clinic', 'reviews', 'one', reviewId],
    queryFn: () => apiRequest(clinicReviewPaths.one(reviewId), clinicReview),
  });

export const useAnswerReview = (reviewId: string) =>
  useClinicChange((body: ReviewAnswer) =>
    apiRequest(clinicReviewPaths.one(reviewId), clinicReview, { method: 'PUT', body }),
  );
