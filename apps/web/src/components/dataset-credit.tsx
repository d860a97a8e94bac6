import { Anchor, Text } from '@mantine/core';
import type { ImageKind } from '@dental/contracts';

/** The models this repository ships, newest first, and has shipped for each kind of image
 *  (models/MODEL_CARD.md). The API names results after their model, so a result of an earlier
 *  model keeps the credit of the data it was trained on. */
export const shippedModelNames: Record<ImageKind, readonly [string, ...string[]]> = {
  xray: ['dental-xray-416', 'dental-xray-4class'],
  photo: ['dental-photo-2class'],
};

const ccBy4 = (
  <Anchor href="https://creativecommons.org/licenses/by/4.0/" underline="always">
    CC BY 4.0
  </Anchor>
);

/** The attribution CC BY 4.0 asks for, under results of a shipped model only: a model configured
 *  on the server was trained on data we know nothing about. */
export function DatasetCredit({ modelName }: { modelName: string }) {
  if (shippedModelNames.xray.includes(modelName)) {
    return (
      <Text size="sm">
        Model trained on the data set{' '}
        <Anchor href="https://universe.roboflow.com/dental-uispo/-bhjcu" underline="always">
          <span lang="ru">Рентгеновские снимки</span> (X-ray images)
        </Anchor>{' '}
        by the Roboflow user dental-uispo, licensed under {ccBy4}.
      </Text>
    );
  }
  if (shippedModelNames.photo.includes(modelName)) {
    return (
      <Text size="sm">
        Model trained on the{' '}
        <Anchor href="https://github.com/mainak1023/dental_cavity_detection" underline="always">
          cavity photo data set
        </Anchor>{' '}
        provided by CAV-TEE Research Team (a Roboflow export), licensed under {ccBy4}.
      </Text>
    );
  }
  return null;
}
