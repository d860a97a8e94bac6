import { Anchor, Text } from '@mantine/core';

/** The model this repository ships (models/MODEL_CARD.md); the API names its results after it. */
export const shippedModelName = 'dental-xray-4class';

/** The attribution CC BY 4.0 asks for, under results of the shipped model only: a model
 *  configured on the server was trained on data we know nothing about. */
export function DatasetCredit({ modelName }: { modelName: string }) {
  if (modelName !== shippedModelName) return null;
  return (
    <Text size="sm">
      Model trained on the data set{' '}
      <Anchor href="https://universe.roboflow.com/dental-uispo/-bhjcu" underline="always">
        <span lang="ru">Рентгеновские снимки</span> (X-ray images)
      </Anchor>{' '}
      by the Roboflow user dental-uispo, licensed under{' '}
      <Anchor href="https://creativecommons.org/licenses/by/4.0/" underline="always">
        CC BY 4.0
      </Anchor>
      .
    </Text>
  );
}
