import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  changePasswordRequest,
  deviceSessionList,
  messageResponse,
  pushPaths,
  sessionPaths,
  type ChangePasswordRequest,
} from '@dental/contracts';
import { apiRequest, apiSend } from '#web/lib/api-client';

const sessionsKey = ['account', 'sessions'] as const;

/** The member's signed-in devices (docs/decisions/signed-in-devices.md). */
export function useSignedInDevices() {
  return useQuery({
    queryKey: sessionsKey,
    queryFn: () => apiRequest(sessionPaths.sessions, deviceSessionList),
  });
}

/** Ends one session (an id) or, given null, every session but this one; the list reloads. */
export function useSignOutDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (sessionId: string | null) =>
      apiSend(sessionId === null ? sessionPaths.sessions : sessionPaths.session(sessionId), {
        method: 'DELETE',
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsKey }),
  });
}

/** Turns off one device's notifications (docs/decisions/web-push.md); the list reloads. */
export function useTurnOffNotifications() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (subscriptionId: string) =>
      apiSend(pushPaths.subscription(subscriptionId), { method: 'DELETE' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsKey }),
  });
}

/** Changes the password while signed in; the server ends the other sessions. */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: ChangePasswordRequest) =>
      apiRequest(sessionPaths.changePassword, messageResponse, {
        method: 'POST',
        body: changePasswordRequest.parse(request),
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionsKey }),
  });
}
