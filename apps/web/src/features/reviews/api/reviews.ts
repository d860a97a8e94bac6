import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  dentalAiPaths,
  dentalAiResult,
  dentalAiTypeLabels,
  oralPhoto,
  oralPhotoPaths,
  review,
  reviewCreated,
  reviewList,
  reviewPaths,
  trainingConsent,
  type ReviewRequest,
} from '@dental/contracts';
import { apiRequest, apiSend } from '#web/lib/api-client';
import { photoLabel } from '#web/lib/photo-label';

export const reviewKeys = {
  all: ['reviews'] as const,
  list: ['reviews', 'list'] as const,
  one: (id: string) => ['reviews', 'one', id] as const,
  consent: ['reviews', 'consent'] as const,
  subject: (kind: 'photo' | 'dental_ai', id: string) => ['reviews', 'subject', kind, id] as const,
};

/** The member's reviews, newest first, with the plan's reviews used and allowed this year. */
export function useReviews() {
  return useQuery({
    queryKey: reviewKeys.list,
    queryFn: () => apiRequest(reviewPaths.root, reviewList),
  });
}

/** One review: the question and, once answered, the report and the dentist's findings. */
export function useReview(id: string) {
  return useQuery({
    queryKey: reviewKeys.one(id),
    queryFn: () => apiRequest(reviewPaths.one(id), review),
  });
}

export function useAskReview() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ReviewRequest) =>
      apiRequest(reviewPaths.root, reviewCreated, { method: 'POST', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reviewKeys.all }),
  });
}

/** What the member asks about, to show it beside the question: its image and its name. */
export function useReviewSubject(subject: { kind: 'photo' | 'dental_ai'; id: string }) {
  return useQuery({
    queryKey: reviewKeys.subject(subject.kind, subject.id),
    queryFn: async () => {
      if (subject.kind === 'photo') {
        const photo = await apiRequest(oralPhotoPaths.one(subject.id), oralPhoto);
        return { image: photo.thumbnail_link, name: photoLabel(photo) };
      }
      const result = await apiRequest(dentalAiPaths.result(subject.id), dentalAiResult);
      return {
        image: result.image_url,
        name: `${dentalAiTypeLabels[result.dental_ai].resultTitle} of ${result.created_at.slice(0, 10)}`,
      };
    },
  });
}

/** The consent that reviewed images may improve the models: off (null) unless given. */
export function useTrainingConsent() {
  return useQuery({
    queryKey: reviewKeys.consent,
    queryFn: () => apiRequest(reviewPaths.consent, trainingConsent),
  });
}

/** Gives (PUT) or withdraws (DELETE, 204) the consent. */
export function useSetTrainingConsent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (granted: boolean) => {
      if (granted) {
        return apiRequest(reviewPaths.consent, trainingConsent, { method: 'PUT' });
      }
      await apiSend(reviewPaths.consent, { method: 'DELETE' });
      return { granted_at: null };
    },
    onSuccess: (consent) => {
      queryClient.setQueryData(reviewKeys.consent, consent);
    },
  });
}
