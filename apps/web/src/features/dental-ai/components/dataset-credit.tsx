import { Anchor, Text } from '@mantine/core';
import type { ImageKind } from '@dental/contracts';

/** The models this repository ships for each kind of image (models/MODEL_CARD.md); the API names
 *  their results after them. */
export const shippedModelNames = {
  xray: 'dental-xray-4class',
  photo: 'dental-photo-2class',
} as const satisfies Record<ImageKind, string>;

const ccBy4 = (
  <Anchor href="https://creativecommons.org/licenses/by/4.0/" underline="always">
    CC BY 4.0
  </Anchor>
);

/** The attribution CC BY 4.0 asks for, under results of a shipped model only: a model configured
 *  on the server was trained on data we know nothing about. */
export function DatasetCredit({ modelName }: { modelName: string }) {
  switch (modelName) {
    case shippedModelNames.xray:
      return (
        <Text size="sm">
          Model trained on the data set{' '}
          <Anchor href="https://universe.roboflow.com/dental-uispo/-bhjcu" underline="always">
            <span lang="ru">Рентгеновские снимки</span> (X-ray images)
          </Anchor>{' '}
          by the Roboflow user dental-uispo, licensed under {ccBy4}.
        </Text>
      );
    case shippedModelNames.photo:
      return (
        <Text size="sm">
          Model trained on the{' '}
          <Anchor href="https://github.com/mainak1023/dental_cavity_detection" underline="always">
            cavity photo data set
          </Anchor>{' '}
          provided by CAV-TEE Research Team (a Roboflow export), licensed under {ccBy4}.
        </Text>
      );
    default:
      return null;
  }
}
