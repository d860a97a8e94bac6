import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  account,
  accountPaths,
  availability,
  clinicConsultationPage,
  clinicConsultationPaths,
  clinicForm,
  clinicMe,
  clinicPatientList,
  clinicPatientPaths,
  clinicStaffPaths,
  createdId,
  medicalRecordList,
  oralPhotoList,
  practitionerList,
  staffList,
  type Availability,
  type ConsultationPeriod,
  type InviteStaffRequest,
} from '@dental/contracts';
import { apiRequest, apiSend } from '#web/lib/api-client';

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
