import { channel } from 'node:diagnostics_channel';

/** One point of a Dental AI detection: which stage just ended, and when (`performance.now()`). */
export interface StageMark {
  stage: string;
  at: number;
}

/**
 * Where a detection's time goes, for `npm run bench -- dental-ai`, which listens in the API's
 * own process. Nothing is built or published while no one listens, so the API pays a property
 * read per stage.
 */
export const dentalAiStageChannel = 'dental-companion:dental-ai-stage';
const dentalAiStages = channel(dentalAiStageChannel);

export function markStage(stage: string): void {
  if (dentalAiStages.hasSubscribers) dentalAiStages.publish({ stage, at: performance.now() });
}
