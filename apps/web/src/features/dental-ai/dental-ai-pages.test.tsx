import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  dentalAiKindUnavailableMessage,
  dentalAiPaths,
  dentalAiUnavailableMessage,
  dentalAiWrongKindMessage,
  imageKindLabels,
  imageTooLargeMessage,
  unreadableImageMessage,
  type DentalAiResult,
  type DentalAiStatus,
} from '@dental/contracts';
import { sessionStore } from '#web/lib/session-store';
import { photoPixels, stubCanvas, xrayPixels } from '#web/test/canvas-stub';
import {
  deferred,
  json,
  problemResponse,
  stubFetch,
  testAccount,
  type Handler,
} from '#web/test/fetch-stub';
import { renderRoute } from '#web/test/render-route';

const statusKey = `GET ${dentalAiPaths.root}`;
const runKey = `POST ${dentalAiPaths.root}`;

const status: DentalAiStatus = {
  types: [
    { dental_ai: 'caries', available: true, image_kinds: ['photo', 'xray'] },
    { dental_ai: 'wisdom_teeth', available: true, image_kinds: ['xray'] },
  ],
  uses: { plan: 'Silver', used: 3, allowed: 10 },
};

const result: DentalAiResult = {
  id: '2c8e4f6a-1b3d-4e5f-8a7b-9c0d1e2f3a4b',
  dental_ai: 'wisdom_teeth',
  image_url: '/api/files/xray.png?sig=1',
  image_width: 128,
  image_height: 128,
  detection_selection: [
    { xmin: 32, ymin: 32, xmax: 64, ymax: 64, crop_prediction: 'Impacted Tooth', confidence: 0.8 },
  ],
  image_kind: 'xray',
  image_kind_source: 'pixels',
  model_name: 'dental-xray-416',
  model_version: '1',
  created_at: '2026-03-02T10:15:00.000Z',
  oral_photo_id: null,
  model_figures: null,
};

const pngFile = () =>
  new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3])], 'xray.png', { type: 'image/png' });

function openDentalAi(handlers: Record<string, Handler> = {}, path = '/dental-ai') {
  sessionStore.save({ access: 'access-1', refresh: 'refresh-1' });
  const api = stubFetch({
    'GET /api/account/': () => json(testAccount),
    [statusKey]: () => json(status),
    [`GET ${dentalAiPaths.results}`]: () => json([]),
    ...handlers,
  });
  return { api, ...renderRoute(path) };
}

const startButton = () => screen.getByRole('button', { name: 'Start Detection' });
const picker = () => screen.findByLabelText('Step 2: Upload an image');
const preview = () => screen.queryByRole('img', { name: 'Preview of the chosen image' });
const kindChoice = (kind: keyof typeof imageKindLabels) =>
  screen.getByRole('radio', { name: imageKindLabels[kind] });

/** Chooses a small PNG and waits for its preview. */
async function choosePng(user: UserEvent) {
  await user.upload(await picker(), pngFile());
  await screen.findByRole('img', { name: 'Preview of the chosen image' });
}

describe('Dental AI form', () => {
  it('runs the chosen detection on the chosen image and opens its result', async () => {
    const answer = deferred<Response>();
    const { api, user, router } = openDentalAi({ [runKey]: () => answer.promise });
    expect(
      await screen.findByText('3 of 10 detections used this year (Silver plan)'),
    ).toBeVisible();
    expect(screen.getByRole('radio', { name: 'Caries' })).toBeChecked();
    expect(startButton()).toBeDisabled();

    await user.click(screen.getByRole('radio', { name: 'Wisdom Teeth (Panel X-Ray Only)' }));
    await choosePng(user);
    expect(startButton()).toBeEnabled();

    await user.click(startButton());
    expect(await screen.findByRole('status')).toHaveTextContent('Detecting…');
    expect(startButton()).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Choose another image' })).toBeDisabled();
    expect(api.to(runKey)[0]?.body).toEqual({
      dental_ai: 'wisdom_teeth',
      image_url: 'data:image/png;base64,iVBORwECAw==',
    });

    answer.resolve(json(result, 201));
    expect(
      await screen.findByRole('heading', { name: 'Wisdom Teeth Result', level: 1 }),
    ).toBeVisible();
    expect(router.state.location.pathname).toBe(`/dental-ai/result/${result.id}`);
    // The answer is the stored result: no second request for it.
    expect(api.to(`GET ${dentalAiPaths.result(result.id)}`)).toHaveLength(0);
    expect(screen.getByRole('list', { name: 'Findings' })).toHaveTextContent(
      'Impacted Tooth: 1 red box',
    );
  });

  // A real photo over 5 MB is made to fit in the browser; this one is no image at all.
  it('refuses a file over 5 MB it cannot read in a dialog and keeps nothing', async () => {
    const { api, user } = openDentalAi();
    const huge = new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'huge.png', {
      type: 'image/png',
    });
    await user.upload(await picker(), huge);
    const dialog = await screen.findByRole('dialog', { name: 'Image not accepted' });
    // The dialog fades in; under load the text may not be visible on the first look.
    await waitFor(() => {
      expect(within(dialog).getByText(unreadableImageMessage)).toBeVisible();
    });
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(preview()).toBeNull();
    expect(startButton()).toBeDisabled();
    expect(api.to(runKey)).toHaveLength(0);
  });

  it('drops the image when the server finds it too large', async () => {
    const { user } = openDentalAi({ [runKey]: () => problemResponse(413, imageTooLargeMessage) });
    await choosePng(user);
    await user.click(startButton());
    const dialog = await screen.findByRole('dialog', { name: 'Image not accepted' });
    // The dialog fades in; under load the text may not be visible on the first look.
    await waitFor(() => {
      expect(within(dialog).getByText(imageTooLargeMessage)).toBeVisible();
    });
    expect(preview()).toBeNull();
    expect(await picker()).toBeInTheDocument();
  });

  it.each([
    [422, 'You have used all 10 Dental AI detections of this membership year.'],
    [422, dentalAiWrongKindMessage('wisdom_teeth')],
    [503, dentalAiUnavailableMessage('caries')],
  ])('shows the detail of a %i refusal and keeps the image', async (code, detail) => {
    const { user } = openDentalAi({ [runKey]: () => problemResponse(code, detail) });
    await choosePng(user);
    await user.click(startButton());
    expect(await screen.findByRole('alert')).toHaveTextContent(detail);
    expect(preview()).toBeVisible();
    expect(startButton()).toBeEnabled();
  });

  it('shows a type this server cannot run as unavailable and starts on one it can', async () => {
    openDentalAi({
      [statusKey]: () =>
        json({
          ...status,
          types: [
            { dental_ai: 'caries', available: false, image_kinds: [] },
            { dental_ai: 'wisdom_teeth', available: true, image_kinds: ['xray'] },
          ],
        }),
    });
    const caries = await screen.findByRole('radio', { name: 'Caries' });
    expect(caries).toBeDisabled();
    expect(caries).toHaveAccessibleDescription(dentalAiUnavailableMessage('caries'));
    expect(screen.getByRole('radio', { name: 'Wisdom Teeth (Panel X-Ray Only)' })).toBeChecked();
  });

  it('preselects the kind read from the image and sends only the member’s correction', async () => {
    stubCanvas(photoPixels);
    const { api, user } = openDentalAi({
      [runKey]: () => problemResponse(503, 'The detection could not be run just now.'),
    });
    await choosePng(user);
    expect(kindChoice('photo')).toBeChecked();
    expect(screen.getByRole('radiogroup', { name: 'Kind of image' })).toHaveAccessibleDescription(
      'Read from its colours; change it if it is wrong.',
    );

    // Changed and changed back: the API's own reading of the pixels stands.
    await user.click(kindChoice('xray'));
    await user.click(kindChoice('photo'));
    await user.click(startButton());
    await screen.findByRole('alert');
    expect(api.to(runKey)[0]?.body).toEqual({
      dental_ai: 'caries',
      image_url: 'data:image/png;base64,iVBORwECAw==',
    });

    await user.click(kindChoice('xray'));
    expect(kindChoice('xray')).toBeChecked();
    await user.click(startButton());
    await waitFor(() => {
      expect(api.to(runKey)).toHaveLength(2);
    });
    expect(api.to(runKey)[1]?.body).toMatchObject({ dental_ai: 'caries', image_kind: 'xray' });
  });

  it('leaves the kind unchosen and unsent when the browser cannot read the image', async () => {
    // jsdom has no canvas: like a browser that cannot decode the file.
    const { api, user } = openDentalAi({
      [runKey]: () => json({ ...result, dental_ai: 'caries' }, 201),
    });
    await choosePng(user);
    expect(kindChoice('photo')).not.toBeChecked();
    expect(kindChoice('xray')).not.toBeChecked();
    expect(screen.getByRole('radiogroup', { name: 'Kind of image' })).toHaveAccessibleDescription(
      /^Choose one if you know it; otherwise it is read from the image’s colours/,
    );
    expect(startButton()).toBeEnabled();
    await user.click(startButton());
    await screen.findByRole('heading', { name: 'Caries Result', level: 1 });
    expect(api.to(runKey)[0]?.body).not.toHaveProperty('image_kind');
  });

  it('refuses wisdom teeth on a colour photo until the member says it is an X-ray', async () => {
    stubCanvas(photoPixels);
    const { user } = openDentalAi();
    await user.click(await screen.findByRole('radio', { name: 'Wisdom Teeth (Panel X-Ray Only)' }));
    await choosePng(user);
    expect(screen.getByRole('alert')).toHaveTextContent(dentalAiWrongKindMessage('wisdom_teeth'));
    expect(startButton()).toBeDisabled();

    await user.click(kindChoice('xray'));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(startButton()).toBeEnabled();

    // Caries reads photos: back to the read kind, the type alone decides.
    await user.click(kindChoice('photo'));
    expect(startButton()).toBeDisabled();
    await user.click(screen.getByRole('radio', { name: 'Caries' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(startButton()).toBeEnabled();
  });

  it('says when this server has no model for the kind of image', async () => {
    stubCanvas(xrayPixels);
    const { user } = openDentalAi({
      [statusKey]: () =>
        json({
          ...status,
          types: [
            { dental_ai: 'caries', available: true, image_kinds: ['photo'] },
            { dental_ai: 'wisdom_teeth', available: false, image_kinds: [] },
          ],
        }),
    });
    await choosePng(user);
    expect(kindChoice('xray')).toBeChecked();
    expect(screen.getByRole('alert')).toHaveTextContent(
      dentalAiKindUnavailableMessage('caries', 'xray'),
    );
    expect(startButton()).toBeDisabled();
  });

  it('leads to a higher plan once this year’s detections are used up', async () => {
    const { user } = openDentalAi({
      [statusKey]: () => json({ ...status, uses: { plan: 'Gold', used: 30, allowed: 30 } }),
    });
    expect(await screen.findByRole('link', { name: 'Membership Upgrade' })).toHaveAttribute(
      'href',
      '/membership',
    );
    expect(screen.getByText(/30 of 30 detections used this year \(Gold plan\)/)).toBeVisible();
    await choosePng(user);
    expect(startButton()).toBeDisabled();
  });
});

describe('Dental AI result route', () => {
  it('shows a stored result and goes back to an empty form', async () => {
    const { user, router } = openDentalAi(
      {
        [`GET ${dentalAiPaths.result(result.id)}`]: () => json(result),
      },
      `/dental-ai/result/${result.id}`,
    );
    expect(
      await screen.findByRole('heading', { name: 'Wisdom Teeth Result', level: 1 }),
    ).toBeVisible();
    expect(
      screen.getByRole('img', { name: 'The uploaded image with 1 area marked' }),
    ).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Try Another Detection' }));
    expect(await picker()).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dental-ai');
    expect(preview()).toBeNull();
  });

  it('says when there is no such result', async () => {
    openDentalAi(
      {
        [`GET ${dentalAiPaths.result(result.id)}`]: () => problemResponse(404, 'Not found.'),
      },
      `/dental-ai/result/${result.id}`,
    );
    expect(
      await screen.findByRole('heading', { name: 'Result not found', level: 1 }),
    ).toBeVisible();
    expect(screen.getByText('There is no Dental AI result at this address.')).toBeVisible();
  });
});
